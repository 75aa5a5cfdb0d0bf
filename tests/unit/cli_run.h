// Running the command line in-process, as a user would from a shell, and scratch files for it.
#pragma once

#include <doctest/doctest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mc/cli/cli.h"

namespace tandem::test {

struct CliResult {
  int rc = -1;
  std::string out, err;
  nlohmann::json report;  // the --json report, when stdout holds one
};

inline CliResult runTandem(std::vector<std::string> args) {
  args.insert(args.begin(), "tandem");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream o, e;
  CliResult r;
  r.rc = cli::run(static_cast<int>(argv.size()), argv.data(), o, e);
  r.out = o.str();
  r.err = e.str();
  r.report = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  return r;
}

// A directory of its own, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "tandem-test-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::filesystem::path p = path_ / name;
    std::ofstream(p) << text;
    return p;
  }
  std::string read(const std::string& name) const {
    std::ifstream in(path_ / name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace tandem::test
