#include "mc/smt/check_result.h"

namespace tandem::smt {

const char* satStatusName(SatStatus s) {
  switch (s) {
    case SatStatus::Sat:
      return "sat";
    case SatStatus::Unsat:
      return "unsat";
    case SatStatus::Unknown:
      return "unknown";
  }
  return "?";
}

std::string CheckResult::toString() const {
  std::string s = satStatusName(status);
  if (isUnknown() && !reason.empty()) s += " (" + reason + ")";
  return s;
}

}  // namespace tandem::smt
