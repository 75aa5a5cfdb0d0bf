// The `--predicates FILE` format: one expression per line (`predicate e;` also accepted), `//`
// comments, blank lines ignored. The expressions are resolved by parseGlobalCondition.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tandem::frontends {

// Each predicate's text with its line number (from 1).
std::vector<std::pair<int, std::string>> predicateLines(const std::string& text);

}  // namespace tandem::frontends
