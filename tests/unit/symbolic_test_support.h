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
inline Run runCommand(const ir::Program& p, cli::Options o) {
  o.json = true;
  o.quiet = true;
  std::ostringstream out, err;
  Run r;
  r.exit = cli::execute(o, const_cast<ir::Program&>(p), out, err);
  r.err = err.str();
  if (!out.str().empty()) r.report = nlohmann::json::parse(out.str());
  return r;
}

inline cli::Options entryOptions(const std::string& entry, const std::string& solver) {
  cli::Options o;
  o.command = cli::Command::Check;
  o.file = "t.tdm";
  o.entry = entry;
  o.solver = *smt::parseBackend(solver);
  return o;
}

inline cli::Options classOptions(const std::string& cls, const std::string& solver) {
  cli::Options o = entryOptions("", solver);
  o.cls = cls;
  return o;
}

inline const char* const kSolvers[] = {"z3", "cvc5"};

}  // namespace symbolic_test
