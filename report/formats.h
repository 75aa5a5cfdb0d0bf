// Reports in the formats CI systems read: SARIF 2.1.0 (code scanning: one result per error or
// potential error, the trace as a code flow) and JUnit XML (one test case per generated test, or
// one for the whole check).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "report/report.h"

namespace tandem::report {

nlohmann::json toSarif(const Report& r);
std::string toJunit(const Report& r);

}  // namespace tandem::report
