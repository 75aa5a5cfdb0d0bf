// A command line for tests that run a command in-process: built flag by flag (a flag set again
// replaces its value), parsed by the CLI's own parser, so a test goes through the option table
// and its rules exactly as a user's command line does.
#pragma once

#include <doctest/doctest.h>

#include <ostream>
#include <string>
#include <vector>

#include "mc/cli/cli.h"
#include "mc/cli/options.h"

namespace tandem::test {

class Args {
 public:
  Args() = default;
  Args(std::string command, std::string file)
      : command_(std::move(command)), file_(std::move(file)) {}
  Args& command(std::string c) {
    command_ = std::move(c);
    return *this;
  }
  Args& file(std::string f) {
    file_ = std::move(f);
    return *this;
  }
  // `--flag value`, replacing an earlier value of the same flag; an empty value removes it.
  Args& set(const std::string& flag, const std::string& value) {
    unset(flag);
    if (!value.empty()) flags_.push_back({flag, value, true});
    return *this;
  }
  // `--flag` alone.
  Args& flag(const std::string& flag) {
    unset(flag);
    flags_.push_back({flag, {}, false});
    return *this;
  }
  Args& unset(const std::string& flag) {
    std::erase_if(flags_, [&](const Flag& f) { return f.name == flag; });
    return *this;
  }
  std::vector<std::string> argv() const {
    std::vector<std::string> a{"tandem", command_, file_};
    for (const Flag& f : flags_) {
      a.push_back(f.name);
      if (f.hasValue) a.push_back(f.value);
    }
    return a;
  }
  cli::ParseResult parse() const {
    const std::vector<std::string> a = argv();
    std::vector<const char*> p;
    for (const std::string& s : a) p.push_back(s.c_str());
    return cli::parseOptions(static_cast<int>(p.size()), p.data());
  }
  // The parsed invocation; a usage error fails the test.
  cli::Invocation invocation() const {
    cli::ParseResult r = parse();
    INFO(r.message);
    REQUIRE(r.status == cli::ParseStatus::Ok);
    return r.invocation;
  }
  // The command on a program already loaded, as `tandem` runs it (a usage error: its message
  // and exit 2, as the command line prints it).
  int execute(ir::Program& p, std::ostream& out, std::ostream& err) const {
    cli::ParseResult r = parse();
    if (r.status == cli::ParseStatus::Error) {
      err << "tandem: error: " << r.message << "\n";
      return 2;
    }
    REQUIRE(r.status == cli::ParseStatus::Ok);
    return cli::execute(std::move(r.invocation), p, out, err);
  }

 private:
  struct Flag {
    std::string name, value;
    bool hasValue;
  };
  std::string command_ = "check", file_ = "t.tdm";
  std::vector<Flag> flags_;
};

}  // namespace tandem::test
