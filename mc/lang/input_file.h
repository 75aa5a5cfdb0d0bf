// Reading the files a command is given: the model, --tests and --predicates files, replay's
// report. Each must be a regular file of at most kMaxInputBytes (or an empty device, /dev/null):
// /dev/zero used to end in bad_alloc and a FIFO blocked past --timeout.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tandem {

inline constexpr uint64_t kMaxInputBytes = uint64_t{64} << 20;  // 64 MiB
// A saved report: check's --json of a 600,000-step counterexample is 138 MB. Reading it is bounded
// by --timeout and --memory-limit as well.
inline constexpr uint64_t kMaxReportBytes = uint64_t{1} << 30;  // 1 GiB

// The whole text of `path`; or nullopt with `error` set to why not, without the path ("is not a
// regular file", "is larger than 64 MiB, the limit for input files", "cannot open file: ...").
std::optional<std::string> readInputFile(const std::string& path, std::string& error,
                                         uint64_t maxBytes = kMaxInputBytes);

}  // namespace tandem
