// Golden diagnostics: every tests/golden/*.tdm is run through the command line (by default
// `tandem ir FILE`, or the arguments of its `// ARGS:` line) and must exit 2 with exactly the
// stderr recorded in the .expected file beside it (the file's path written as %s).
// TANDEM_UPDATE_GOLDEN=1 rewrites the .expected files from the current output.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mc/cli/cli.h"

namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path outputFile() {
  return fs::temp_directory_path() / ("tandem-golden-" + std::to_string(::getpid()) + ".out");
}

std::vector<std::string> argsFor(const std::string& text, const std::string& path) {
  std::string line = "ir %s";
  auto pos = text.find("// ARGS:");
  if (pos != std::string::npos) line = text.substr(pos + 8, text.find('\n', pos) - pos - 8);
  std::vector<std::string> args{"tandem"};
  std::istringstream ss(line);
  for (std::string w; ss >> w;) {
    auto at = w.find("%s");
    if (at != std::string::npos) w.replace(at, 2, path);
    at = w.find("%d");  // the case's directory (replay reads a saved report there)
    if (at != std::string::npos) w.replace(at, 2, fs::path(path).parent_path().string());
    at = w.find("%o");  // a file the command writes (--dot): compared after its stdout
    if (at != std::string::npos) w.replace(at, 2, outputFile().string());
    args.push_back(w);
  }
  return args;
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

}  // namespace

TEST_CASE("golden: diagnostics of bad input") {
  fs::path dir = fs::path(TANDEM_SOURCE_DIR) / "tests" / "golden";
  std::vector<fs::path> cases;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".tdm") cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  REQUIRE(cases.size() >= 25);
  bool update = std::getenv("TANDEM_UPDATE_GOLDEN") != nullptr;
  std::set<std::string> distinct;
  for (const auto& c : cases) {
    CAPTURE(c.filename().string());
    std::string path = c.string();
    auto args = argsFor(readAll(c), path);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    std::ostringstream out, err;
    int rc = tandem::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
    CHECK(rc == 2);
    std::string got = replaceAll(err.str(), path, "%s");
    fs::path expectedFile = c;
    expectedFile.replace_extension(".expected");
    if (update) std::ofstream(expectedFile, std::ios::binary) << got;
    REQUIRE_MESSAGE(fs::exists(expectedFile), "missing " << expectedFile << "; output was:\n"
                                                         << got);
    CHECK(got == readAll(expectedFile));
    distinct.insert(got.substr(0, got.find('\n')));
  }
  CHECK(distinct.size() >= 25);
}

// Golden traces: every tests/golden/traces/*.tdm runs with the arguments of its `// ARGS:` line
// (the counterexample printed with --trace; `%d` is the directory, where `replay` finds the saved
// reports *.saved.json; `%o` a file the command writes, shown after stdout) and must exit with its
// `// EXIT:` status and print exactly its .expected file, times aside.
TEST_CASE("golden: counterexample traces as text") {
  fs::path dir = fs::path(TANDEM_SOURCE_DIR) / "tests" / "golden" / "traces";
  std::vector<fs::path> cases;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".tdm") cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  REQUIRE(cases.size() >= 4);
  const bool update = std::getenv("TANDEM_UPDATE_GOLDEN") != nullptr;
  const std::regex seconds(R"(\d+(\.\d+)?(e-?\d+)? s\b)");
  for (const auto& c : cases) {
    CAPTURE(c.filename().string());
    const std::string path = c.string(), text = readAll(c);
    auto args = argsFor(text, path);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    std::ostringstream out, err;
    const int rc = tandem::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
    const auto exitAt = text.find("// EXIT: ");
    REQUIRE(exitAt != std::string::npos);
    CHECK(rc == std::stoi(text.substr(exitAt + 9)));
    std::string printed = out.str();
    if (text.find("%o") != std::string::npos) {
      std::ifstream written(outputFile());
      std::stringstream content;
      content << written.rdbuf();
      printed += "--- %o ---\n" + content.str();
      fs::remove(outputFile());
    }
    const std::string got = std::regex_replace(
        replaceAll(replaceAll(printed, path, "%s"), dir.string(), "%d"), seconds, "<T> s");
    fs::path expectedFile = c;
    expectedFile.replace_extension(".expected");
    if (update) std::ofstream(expectedFile, std::ios::binary) << got;
    REQUIRE_MESSAGE(fs::exists(expectedFile), "missing " << expectedFile << "; output was:\n"
                                                         << got);
    CHECK(got == readAll(expectedFile));
  }
}
