// Shared helpers of the symbolic_*_test.cpp files: programs from text or from the shared
// conformance folder, the symbolic commands run in-process, and the list of back ends.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "mc/cli/cli.h"
#include "mc/ir/frontend.h"
#include "tests/unit/cli_args.h"
#include "tests/unit/test_programs.h"

namespace symbolic_test {

using namespace tandem;

using tandem::test::loadShared;
using tandem::test::loadText;

struct Run {
  int exit = -1;
  nlohmann::json report;
  std::string err;
};

// `check` (through the command's dispatch, as the CLI runs it) or `testgen`, with --json.
inline Run runCommand(const ir::Program& p, test::Args o) {
  o.flag("--json");
  o.flag("--quiet");
  std::ostringstream out, err;
  Run r;
  r.exit = o.execute(const_cast<ir::Program&>(p), out, err);
  r.err = err.str();
  if (!out.str().empty()) r.report = nlohmann::json::parse(out.str());
  return r;
}

inline test::Args entryOptions(const std::string& entry, const std::string& solver) {
  test::Args o;
  o.command("check");
  o.file("t.tdm");
  o.set("--entry", entry);
  o.set("--solver", solver);
  return o;
}

inline test::Args classOptions(const std::string& cls, const std::string& solver) {
  test::Args o = entryOptions("", solver);
  o.set("--class", cls);
  return o;
}

inline const char* const kSolvers[] = {"z3", "cvc5"};

}  // namespace symbolic_test
