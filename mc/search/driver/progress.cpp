#include "mc/search/driver/progress.h"

#include <cstdio>
#include <ostream>

namespace tandem::search {

void Progress::print(double t, const ProgressSample& s) {
  const double dt = t - lastT_;
  const uint64_t rate =
      dt > 0 && s.count >= lastCount_ ? static_cast<uint64_t>((s.count - lastCount_) / dt) : 0;
  char time[32];
  std::snprintf(time, sizeof time, "%.0f", t);
  *out_ << "tandem: " << time << " s, " << s.count << ' ' << s.unit << ", " << rate << ' ' << s.unit
        << "/s, " << currentRssMb() << " MB";
  if (!s.detail.empty()) *out_ << ", " << s.detail;
  *out_ << std::endl;
  lastT_ = t;
  lastCount_ = s.count;
  next_ = t + 1.0;
}

}  // namespace tandem::search
