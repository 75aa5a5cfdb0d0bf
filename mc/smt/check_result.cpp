#include "mc/smt/check_result.h"

#include "mc/expr/enum_names.h"

namespace tandem::smt {

namespace {
constexpr EnumName<SatStatus> kSatStatusNames[] = {
    {SatStatus::Sat, "sat"}, {SatStatus::Unsat, "unsat"}, {SatStatus::Unknown, "unknown"}};
}  // namespace

const char* satStatusName(SatStatus s) { return enumName(kSatStatusNames, s); }

std::string CheckResult::toString() const {
  std::string s = satStatusName(status);
  if (isUnknown() && !reason.empty()) s += " (" + reason + ")";
  return s;
}

}  // namespace tandem::smt
