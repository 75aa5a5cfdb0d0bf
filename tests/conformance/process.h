// Runs a program without a shell, capturing stdout and stderr, under a wall-clock timeout.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace tandem::conformance {

struct ProcessResult {
  std::string spawnError;  // non-empty: the program could not be started
  bool timedOut = false;   // it was killed (with its process group) when the time ran out
  int exitStatus = -1;     // the status it exited with, or -1
  int signal = 0;          // the signal that ended it on its own (not our kill), or 0
  std::string out, err;
  std::chrono::milliseconds elapsed{0};
};

// Runs `program args...` (argv[0] is `program`) with stdin from /dev/null. The child gets its own
// process group so that a timeout also kills whatever it started.
ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout);

}  // namespace tandem::conformance
