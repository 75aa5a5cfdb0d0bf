// The files a command reads (mc/lang/input_file.h): regular files of at most 64 MiB. `/dev/zero`
// was read until bad_alloc, and a FIFO blocked the command past --timeout (issue 39).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "mc/lang/input_file.h"
#include "tests/unit/cli_run.h"

namespace tandem {
namespace {

TEST_CASE("input files: regular files of at most 64 MiB, and nothing else") {
  test::TempDir tmp;
  std::string why;
  tmp.write("m.tdm", "proc main() { skip; }\n");
  CHECK(readInputFile(tmp.file("m.tdm"), why) == "proc main() { skip; }\n");

  CHECK_FALSE(readInputFile(tmp.file("none.tdm"), why));
  CHECK(why == "cannot open file: No such file or directory");
  CHECK_FALSE(readInputFile(tmp.file(""), why));
  CHECK(why == "is a directory, not a regular file");
  CHECK_FALSE(readInputFile("/dev/zero", why));
  CHECK(why.find("is not a regular file") == 0);
  CHECK(readInputFile("/dev/null", why) == "");  // `--predicates /dev/null`: none

  // A FIFO without a writer: refused at once, not waited on.
  REQUIRE(::mkfifo(tmp.file("fifo").c_str(), 0600) == 0);
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(readInputFile(tmp.file("fifo"), why));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  CHECK(why.find("is not a regular file") == 0);

  // One byte over the limit (a sparse file: nothing is written).
  std::filesystem::resize_file(tmp.write("big.tdm", ""), kMaxInputBytes + 1);
  CHECK_FALSE(readInputFile(tmp.file("big.tdm"), why));
  CHECK(why == "is larger than 64 MiB, the limit for input files");
}

TEST_CASE("input files: the commands say FILE: error: and exit 2") {
  test::TempDir tmp;
  REQUIRE(::mkfifo(tmp.file("fifo.tdm").c_str(), 0600) == 0);
  for (const std::string& file : {std::string("/dev/zero"), tmp.file("fifo.tdm")}) {
    CAPTURE(file);
    auto r = test::runTandem({"check", file, "--timeout", "5"});
    CHECK(r.rc == 2);
    CHECK(r.err.find(file + ": error: is not a regular file") == 0);
    auto p = test::runTandem(
        {"prove", std::string(TANDEM_SOURCE_DIR) + "/models/bakery2.tdm", "--predicates", file});
    CHECK(p.rc == 2);
    CHECK(p.err.find(file + ": error: is not a regular file") != std::string::npos);
  }
}

}  // namespace
}  // namespace tandem
