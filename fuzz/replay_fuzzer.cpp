// libFuzzer harness for `tandem replay`'s reports: the input is the saved --json report, replayed
// against two fixed models (a closed system and an entry procedure) through engine::replay, as
// the command does. Oracle: no crash, abort, leak or UB, and the outcome is a replay's report
// (error, potential-error or unknown) or an input error (exit 2): never another exception.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

#include "engine/api.h"
#include "fuzz/fuzz_support.h"
#include "mc/ir/frontend.h"

using namespace tandem;

namespace {

constexpr const char* kClosed = R"(
var x: int = 0;
var go: bool = false;
var a: i32[2] = [1, 2];
process A { atomic { x := 1; await go; x := 0; } }
process B { assert x != 1; go := true; a[1] := a[0] + 1; }
)";

constexpr const char* kOpen = R"(
enum Color { Red, Green }
proc main(n: int, c: Color, b: bool) {
  var i: int = 0;
  while (i < n && i < 5) { i := i + 1; }
  assert !(b && c == Green && i == 3);
}
)";

// The input as a file (replay reads its report from a path), one per process.
class ReportFile {
 public:
  ReportFile() {
    char name[] = "/tmp/tandem-replay-fuzz-XXXXXX";
    const int fd = ::mkstemp(name);
    fuzz::require(fd >= 0, "a temporary file");
    ::close(fd);
    path_ = name;
  }
  ~ReportFile() { std::remove(path_.c_str()); }
  ReportFile(const ReportFile&) = delete;
  ReportFile& operator=(const ReportFile&) = delete;
  const std::string& write(const uint8_t* data, size_t size) const {
    std::FILE* f = std::fopen(path_.c_str(), "wb");
    fuzz::require(f && std::fwrite(data, 1, size, f) == size && std::fclose(f) == 0,
                  "the report is written");
    return path_;
  }

 private:
  std::string path_;
};

void replayOn(const char* model, const std::string& report, const std::string& entry) {
  SourceFile file("model.tdm", model);
  std::ostringstream err;
  auto program = loadProgram(file, FrontendOptions{}, err);  // fresh: replay adds invariants
  fuzz::require(program != nullptr, "the base model loads");
  engine::ReplayRequest r;
  r.file = "model.tdm";
  r.reportFile = report;
  r.entry = entry;
  r.limits.timeoutSeconds = 5;  // libFuzzer's -timeout=10 reports a hang past this
  r.limits.memoryLimitMb = 2048;
  try {
    const report::Report rep = engine::replay(*program, r);
    fuzz::require(rep.verdict == report::Verdict::Error ||
                      rep.verdict == report::Verdict::PotentialError ||
                      rep.verdict == report::Verdict::Unknown,
                  "a replay's verdict is error, potential-error or unknown");
  } catch (const report::CommandError& e) {
    fuzz::require(e.kind() == report::CommandError::Kind::Input ||
                      e.kind() == report::CommandError::Kind::Usage,
                  "a bad report is an input error");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ReportFile file;
  const std::string& path = file.write(data, size);
  replayOn(kClosed, path, "");
  replayOn(kOpen, path, "main");
  return 0;
}
