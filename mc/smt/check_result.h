// The answer of one satisfiability check. An unknown answer carries the solver's reason, so no
// caller can mistake a timeout for a proof.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace tandem::smt {

enum class SatStatus : uint8_t { Sat, Unsat, Unknown };

const char* satStatusName(SatStatus s);  // "sat", "unsat", "unknown"

struct CheckResult {
  SatStatus status = SatStatus::Unknown;
  std::string reason;  // Unknown: why ("timeout", "incomplete", ...); empty otherwise

  static CheckResult sat() { return {SatStatus::Sat, {}}; }
  static CheckResult unsat() { return {SatStatus::Unsat, {}}; }
  static CheckResult unknown(std::string why) { return {SatStatus::Unknown, std::move(why)}; }

  bool isSat() const { return status == SatStatus::Sat; }
  bool isUnsat() const { return status == SatStatus::Unsat; }
  bool isUnknown() const { return status == SatStatus::Unknown; }
  // "sat", "unsat" or "unknown (reason)".
  std::string toString() const;
};

}  // namespace tandem::smt
