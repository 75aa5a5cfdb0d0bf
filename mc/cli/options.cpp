#include "mc/cli/options.h"

#include <boost/program_options.hpp>
#include <sstream>

namespace po = boost::program_options;

namespace tandem::cli {

const std::vector<std::string>& implementedCommands() {
  static const std::vector<std::string> kCommands = {"check", "export-chc", "ir",
                                                     "prove", "run",        "testgen"};
  return kCommands;
}

namespace {

std::vector<std::string> splitCommas(const std::vector<std::string>& in) {
  std::vector<std::string> out;
  for (const auto& s : in) {
    std::string cur;
    for (char c : s) {
      if (c == ',') {
        out.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    out.push_back(cur);
  }
  return out;
}

po::options_description describe(Options& o) {
  po::options_description general("Options");
  // clang-format off
  general.add_options()
    ("help,h", "print this help")
    ("version", "print the version")
    ("list-commands", "print the implemented commands, one per line")
    ("entry", po::value(&o.entry), "entry procedure of an open system")
    ("class", po::value(&o.cls), "analyse class C (class invariants)")
    ("max-calls", po::value<uint64_t>(), "check --class: bound on the method calls after init (default: unbounded)")
    ("args", po::value<std::vector<std::string>>()->multitoken(), "run: entry arguments a,b,...")
    ("inputs", po::value(&o.inputs)->default_value(o.inputs), "check --entry: symbolic|tests (only the `test` inputs)")
    ("steps", po::value(&o.steps)->default_value(o.steps), "run: steps of a closed system")
    ("search", po::value(&o.search)->default_value(o.search), "dfs|bfs|random|coverage")
    ("seed", po::value(&o.seed)->default_value(o.seed), "seed of every random choice")
    ("max-depth", po::value<uint64_t>(), "bound on the search depth")
    ("max-states", po::value<uint64_t>(), "bound on the stored states")
    ("timeout", po::value<double>(), "bound on the run time, seconds")
    ("memory-limit", po::value<uint64_t>(), "bound on the memory, MB")
    ("check", po::value<std::vector<std::string>>(),
     "error kinds tracked: assert,invariant,index-out-of-bounds,null-deref,div-by-zero,negative-size")
    ("invariant", po::value(&o.invariants), "an extra safety property (expression); repeatable")
    ("deadlock", po::bool_switch(&o.deadlock), "report states with no enabled step")
    ("json", po::bool_switch(&o.json), "print the JSON report on stdout")
    ("trace", po::bool_switch(&o.trace), "print the counterexample trace")
    ("stats", po::bool_switch(&o.stats), "print statistics")
    ("quiet", po::bool_switch(&o.quiet), "no progress line")
    ("dot", po::value(&o.dot), "write the state graph in Graphviz format")
    ("output,o", po::value(&o.output), "export-chc: write the clauses to FILE (default: stdout)")
    ("solver", po::value(&o.solver)->default_value(o.solver), "z3|cvc5")
    ("check-proof", po::bool_switch(&o.checkProof), "re-check a proof with the other solver")
    ("solver-timeout-ms", po::value(&o.solverTimeoutMs)->default_value(o.solverTimeoutMs), "per query")
    ("smt-log", po::value(&o.smtLog), "log every SMT query (SMT-LIB2) to FILE")
    ("solver-cross-check", po::bool_switch(&o.solverCrossCheck), "compare both back ends on every query")
    ("cutpoints", po::value(&o.cutpoints)->default_value(o.cutpoints), "prove: loops|all")
    ("auto-predicates", po::bool_switch(&o.autoPredicates), "prove: infer default predicates")
    ("hybrid", po::bool_switch(&o.hybrid), "prove: fabricate when execution stops covering")
    ("predicates", po::value(&o.predicatesFile), "prove: extra predicates from FILE")
    ("engine", po::value(&o.engine)->default_value(o.engine), "prove: fabricate|eager|models")
    ("solving", po::value(&o.solving)->default_value(o.solving), "testgen: classic|mixed|exe|dart (check --entry: classic unless given)")
    ("heuristic", po::value(&o.heuristic)->default_value(o.heuristic), "mixed solving: incremental|partition|random")
    ("max-tries", po::value(&o.maxTries)->default_value(o.maxTries), "mixed: tries of the heuristic; dart: restarts")
    ("compositional", po::bool_switch(&o.compositional), "testgen: demand-driven summaries")
    ("target", po::value(&o.target), "testgen: label to reach")
    ("guide", po::value(&o.guide)->default_value(o.guide), "testgen: none|may|must|may-must")
    ("tests-out", po::value(&o.testsOut), "testgen: write the tests as JSON to FILE")
    ("natives", po::value(&o.natives), "load native functions from a plugin LIB.so; repeatable")
    ("unwind", po::value(&o.unwind)->default_value(o.unwind), "cover: loop unwinding bound")
    ("algo", po::value(&o.algo)->default_value(o.algo), "cover: paths|statements|fm");
  // clang-format on
  return general;
}

bool oneOf(const std::string& v, std::initializer_list<const char*> allowed) {
  for (auto a : allowed)
    if (v == a) return true;
  return false;
}

}  // namespace

ParseResult parseOptions(int argc, const char* const* argv) {
  ParseResult r;
  Options& o = r.options;
  po::options_description desc = describe(o);
  po::options_description hidden;
  hidden.add_options()("positional", po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("positional", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    r.status = ParseStatus::Error;
    r.message = e.what();
    return r;
  }
  std::ostringstream help;
  help << "usage: tandem COMMAND FILE [OPTIONS]\n\ncommands:\n"
       << "  check FILE     explicit/symbolic state exploration\n"
       << "  prove FILE     abstraction fabrication: proved or potential-error\n"
       << "  testgen FILE   test generation by symbolic execution\n"
       << "  cover FILE     bounded infeasible-code detection\n"
       << "  run FILE       one concrete execution, step by step\n"
       << "  ir FILE        parse, check and print the control-flow IR\n"
       << "  export-chc FILE  write Horn clauses (SMT-LIB2; z3 says sat iff safe)\n\n"
       << desc;
  if (vm.count("help")) {
    r.status = ParseStatus::Help;
    r.message = help.str();
    return r;
  }
  if (vm.count("version")) {
    r.status = ParseStatus::Version;
    return r;
  }
  if (vm.count("list-commands")) {
    r.status = ParseStatus::ListCommands;
    return r;
  }
  std::vector<std::string> positional;
  if (vm.count("positional")) positional = vm["positional"].as<std::vector<std::string>>();
  auto fail = [&](std::string msg) {
    r.status = ParseStatus::Error;
    r.message = std::move(msg);
    return r;
  };
  if (positional.empty()) return fail("missing COMMAND");
  o.command = positional[0];
  if (!oneOf(o.command, {"check", "prove", "testgen", "cover", "run", "ir", "export-chc"}))
    return fail("unknown command '" + o.command + "'");
  if (positional.size() < 2) return fail("missing FILE after '" + o.command + "'");
  if (positional.size() > 2) return fail("unexpected argument '" + positional[2] + "'");
  o.file = positional[1];
  o.solvingGiven = vm.count("solving") && !vm["solving"].defaulted();
  if (vm.count("max-depth")) o.maxDepth = vm["max-depth"].as<uint64_t>();
  if (vm.count("max-states")) o.maxStates = vm["max-states"].as<uint64_t>();
  if (vm.count("max-calls")) o.maxCalls = vm["max-calls"].as<uint64_t>();
  if (vm.count("timeout")) o.timeout = vm["timeout"].as<double>();
  if (vm.count("memory-limit")) o.memoryLimitMb = vm["memory-limit"].as<uint64_t>();
  if (vm.count("args")) o.args = splitCommas(vm["args"].as<std::vector<std::string>>());
  if (vm.count("check")) o.checkKinds = splitCommas(vm["check"].as<std::vector<std::string>>());
  if (!oneOf(o.search, {"dfs", "bfs", "random", "coverage"}))
    return fail("--search must be dfs, bfs, random or coverage, not '" + o.search + "'");
  if (!oneOf(o.inputs, {"symbolic", "tests"})) return fail("--inputs must be symbolic or tests");
  if (!oneOf(o.solver, {"z3", "cvc5"}))
    return fail("--solver must be z3 or cvc5, not '" + o.solver + "'");
  if (!oneOf(o.cutpoints, {"loops", "all"})) return fail("--cutpoints must be loops or all");
  if (!o.output.empty() && o.command != "export-chc") return fail("-o is an option of export-chc");
  if (!oneOf(o.engine, {"fabricate", "eager", "models"}))
    return fail("--engine must be fabricate, eager or models");
  if (!oneOf(o.solving, {"classic", "mixed", "exe", "dart"}))
    return fail("--solving must be classic, mixed, exe or dart");
  if (!oneOf(o.heuristic, {"incremental", "partition", "random"}))
    return fail("--heuristic must be incremental, partition or random");
  if (!oneOf(o.guide, {"none", "may", "must", "may-must"}))
    return fail("--guide must be none, may, must or may-must");
  if (!oneOf(o.algo, {"paths", "statements", "fm"}))
    return fail("--algo must be paths, statements or fm");
  if (o.timeout && *o.timeout <= 0) return fail("--timeout must be positive");
  return r;
}

}  // namespace tandem::cli
