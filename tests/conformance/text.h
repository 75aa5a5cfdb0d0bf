// Small string helpers shared by the conformance runner's files.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tandem::conformance {

std::string_view trim(std::string_view s);

// Pieces between separators, empty ones included (so "a,,b" shows up as a malformed list).
std::vector<std::string_view> split(std::string_view s, char sep);

std::string join(const std::vector<std::string>& parts, std::string_view sep);

// At most `limit` characters of `s`, with a note of how much was cut.
std::string excerpt(std::string_view s, size_t limit);

}  // namespace tandem::conformance
