// The one progress line of every long run, on stderr: once a second after the first 2 s, with
// the elapsed time, the engine's count (states, paths, steps, ...), its rate over the last
// second and the memory in use. Never on stdout, so it cannot mix into a --json report.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "mc/search/driver/budget.h"

namespace tandem::search {

struct ProgressSample {
  uint64_t count = 0;
  const char* unit = "states";  // what `count` counts, plural
  std::string detail;           // engine-specific, e.g. "depth 42, 1200 solver queries"
};

class Progress {
 public:
  // `out` null: no progress line.
  Progress(std::ostream* out, const Budget& budget) : out_(out), budget_(budget) {}

  bool enabled() const { return out_ != nullptr; }
  // Cheap when no line is due: `sample` is called only when one is.
  template <typename Sample>
  void tick(Sample&& sample) {
    if (!out_ || ++calls_ % 64 != 0) return;
    const double t = budget_.elapsed();
    if (t < next_) return;
    print(t, sample());
  }

 private:
  void print(double t, const ProgressSample& s);

  std::ostream* out_;
  const Budget& budget_;
  uint32_t calls_ = 0;
  double next_ = 2.0;
  double lastT_ = 0;
  uint64_t lastCount_ = 0;
};

}  // namespace tandem::search
