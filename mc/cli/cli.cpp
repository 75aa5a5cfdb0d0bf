#include "mc/cli/cli.h"

#include <algorithm>

#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iostream>
#include <new>

#include "engine/api.h"
#include "engine/load.h"
#include "mc/cli/options.h"
#include "mc/cli/signals.h"
#include "mc/search/explore/mpi_transport.h"
#include "mc/symbolic/sym_state.h"
#include "report/formats.h"
#include "report/text.h"

namespace tandem::cli {

namespace {

constexpr const char* kUsage = "usage: tandem COMMAND FILE [OPTIONS] (see tandem --help)\n";

bool wantsJson(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--json") == 0) return true;
  return false;
}

// `run` with --json: the steps stream into the report's "trace" array as they happen, and the
// rest of the report follows them.
class JsonSteps final : public engine::StepObserver {
 public:
  explicit JsonSteps(std::ostream& out) : out_(out) {}
  void step(const report::TraceStep& s) override {
    out_ << (started_ ? ",\n" : "{\"trace\": [\n") << report::traceStepJson(s).dump();
    started_ = true;
  }
  void finish(const report::Report& r) {
    out_ << (started_ ? "\n], " : "{\"trace\": [], ");
    const std::string rest = r.toJson().dump(2);
    out_ << rest.substr(rest.find('{') + 1) << "\n";
  }

 private:
  std::ostream& out_;
  bool started_ = false;
};

class TextSteps final : public engine::StepObserver {
 public:
  explicit TextSteps(std::ostream& out) : out_(out) {}
  void step(const report::TraceStep& s) override { report::printTraceStep(out_, s); }

 private:
  std::ostream& out_;
};

// The process's own run ends right after the report: the engine may leave its memory to the OS
// (engine::Request::keepMemory). Not under the sanitizers, whose leak check would report it.
bool keepMemory(const std::ostream& out, const std::ostream& err) {
#if defined(__SANITIZE_ADDRESS__)
  (void)out;
  (void)err;
  return false;
#else
  return &out == &std::cout && &err == &std::cerr;
#endif
}

report::Report dispatch(Invocation& o, ir::Program& p, std::ostream& out) {
  switch (o.command) {
    case Command::Check:
      return engine::check(p, o.as<engine::CheckRequest>());
    case Command::Prove:
      return engine::prove(p, o.as<engine::ProveRequest>());
    case Command::Testgen:
      return engine::testgen(p, o.as<engine::TestgenRequest>());
    case Command::ExportChc:
      return engine::exportChc(p, o.as<engine::ExportChcRequest>());
    case Command::Cover:
      return engine::cover(p, o.as<engine::CoverRequest>());
    case Command::Ir:
      return engine::printIr(p, o.common().file, o.as<engine::IrRequest>().instrumented);
    case Command::Replay:
      return engine::replay(p, o.as<engine::ReplayRequest>());
    case Command::Run:
      break;
  }
  // run: its steps are printed while it runs.
  const engine::RunRequest& r = o.as<engine::RunRequest>();
  if (o.output.json) {
    JsonSteps steps(out);
    report::Report rep = engine::run(p, r, steps);
    steps.finish(rep);
    return rep;
  }
  TextSteps steps(out);
  return engine::run(p, r, steps);
}

int fail(const report::CommandError& e, const std::string& command, const std::string& file,
         bool json, std::ostream& out, std::ostream& err) {
  err << e.text();
  if (e.kind() == report::CommandError::Kind::Usage) err << kUsage;
  if (json) out << report::diagnosticsJson(command, file, e).dump(2) << "\n";
  return 2;
}

// The report of a run that ended in a way no engine reports (memory exhausted in an
// allocation, an internal error): verdict unknown with the reason, never a crash.
// --sarif FILE, --junit FILE: the report in the formats CI systems read.
void writeFormats(const Output& o, const report::Report& rep) {
  auto write = [](const std::string& path, const std::string& text) {
    std::ofstream f(path);
    if (!(f << text)) throw report::inputError(path, "cannot write " + path);
  };
  if (!o.sarif.empty()) write(o.sarif, report::toSarif(rep).dump(2) + "\n");
  if (!o.junit.empty()) write(o.junit, report::toJunit(rep));
}

// CHC-COMP's answer: sat (the clauses have a model: safe), unsat (a derivation of false:
// a real error), unknown for everything else (a potential error is no proof either way).
const char* chcCompAnswer(report::Verdict v) {
  return v == report::Verdict::Proved ? "sat" : v == report::Verdict::Error ? "unsat" : "unknown";
}

int abort(const Invocation& o, const std::string& reason, std::ostream& out, std::ostream& err) {
  err << "tandem: " << reason << "\n";
  report::Report rep;
  rep.command = commandName(o.command);
  rep.file = o.common().file;
  rep.reason = reason;
  if (o.output.json)
    out << rep.toJson().dump(2) << "\n";
  else if (o.output.chcComp)
    out << chcCompAnswer(rep.verdict) << "\n";
  else
    out << "verdict: unknown (" << reason << ")\n";
  return report::exitCode(rep.verdict);
}

}  // namespace

int run(int argc, char** argv, std::ostream& out, std::ostream& err) {
  const bool json = wantsJson(argc, argv);
  ParseResult pr = parseOptions(argc, argv);
  switch (pr.status) {
    case ParseStatus::Help:
      out << pr.message;
      return 0;
    case ParseStatus::Version:
      out << "tandem 0.1\n";
      return 0;
    case ParseStatus::ListCommands:
      for (Command c : allCommands()) out << commandName(c) << '\n';
      return 0;
    case ParseStatus::ListOptions:
      out << listOptions();
      return 0;
    case ParseStatus::Error:
      return fail(report::usageError(pr.message), pr.command, pr.file, json, out, err);
    case ParseStatus::Ok:
      break;
  }
  Invocation& o = pr.invocation;
  const engine::Request& common = o.common();
  // check --distributed under mpirun: MPI for the whole run, and only rank 0 writes anything.
  std::unique_ptr<search::Transport> ranks;
  std::ostream silent(nullptr);  // no buffer: writes are dropped
  if (o.command == Command::Check && o.as<engine::CheckRequest>().distributed) {
    if (!search::mpiBuiltIn())
      return fail(report::usageError("--distributed: tandem was built without MPI (install "
                                     "libopenmpi-dev and build again)"),
                  commandName(o.command), common.file, o.output.json, out, err);
    if (search::launchedByMpirun()) ranks = search::openMpi();
  }
  std::ostream& to = ranks && ranks->rank() != 0 ? silent : out;
  std::ostream& diag = ranks && ranks->rank() != 0 ? silent : err;
  // Rank 0 exits with the run's status, the others with 0: mpirun passes on the first non-zero
  // status of a rank and ends the job at it, which must not come before rank 0 has written.
  const auto exitStatus = [&](int status) {
    to.flush();
    return ranks && ranks->rank() != 0 ? 0 : status;
  };
  std::unique_ptr<ir::Program> program;
  try {
    std::vector<std::string> testFiles;
    if (o.command == Command::Check && !o.as<engine::CheckRequest>().testsFile.empty())
      testFiles.push_back(o.as<engine::CheckRequest>().testsFile);
    program = engine::loadModel(common.file, common.invariants, testFiles);
  } catch (const report::CommandError& e) {
    if (o.output.chcComp) to << "unknown\n";  // what a competition reads of input it refuses
    return exitStatus(fail(e, commandName(o.command), common.file, o.output.json, to, diag));
  }
  const int status = exitStatus(execute(std::move(o), *program, to, diag, ranks.get()));
  // The expressions of a long run number millions: left to the OS with the rest.
  if (keepMemory(out, err)) (void)program.release();
  return status;
}

int execute(Invocation o, ir::Program& p, std::ostream& out, std::ostream& err,
            search::Transport* ranks) {
  InterruptGuard interrupts;
  engine::Request& r = o.common();
  const std::string file = r.file;
  // The progress line: on a terminal unless --quiet, or wherever --progress asks for it.
  const bool terminal = &err == &std::cerr && isatty(STDERR_FILENO);
  r.progress = !r.quiet && (o.output.progress || terminal) ? &err : nullptr;
  r.diag = &err;
  r.interrupt = interrupts.flag();
  r.keepMemory = keepMemory(out, err);
  if (o.command == Command::Check) o.as<engine::CheckRequest>().ranks = ranks;
  // --check overflow changes what i32/i64 arithmetic does (an error instead of wrapping).
  p.checkOverflow = r.tracked[static_cast<size_t>(ir::ErrorKind::Overflow)];
  try {
    if (o.output.json && o.wasGiven("trace-format"))
      throw report::usageError(
          "--trace-format shapes the text report; with --json the trace is error.trace");
    if (o.output.chcComp && o.output.json)
      throw report::usageError(
          "--format chc-comp and --json are two forms of the report: give one");
    report::Report rep = dispatch(o, p, out);
    // What `replay` needs to re-run the counterexample besides the model.
    if (o.command != Command::Replay) {
      if (!r.entry.empty()) rep.extra["entry"] = r.entry;
      if (!r.invariants.empty()) rep.extra["invariants"] = r.invariants;
      if (!r.checks.empty()) {
        nlohmann::json checks = nlohmann::json::array();
        for (ir::ErrorKind k : r.checks) checks.push_back(ir::errorKindName(k));
        rep.extra["checks"] = checks;
      }
    }
    // --fail-on: CI treats these verdicts as failures (exit 1).
    const auto& failOn = o.output.failOn;
    const bool fails = std::find(failOn.begin(), failOn.end(), rep.verdict) != failOn.end();
    const int code = fails ? 1 : report::exitCode(rep.verdict);
    if (ranks && ranks->rank() != 0) return code;  // --distributed: rank 0 reports for all
    writeFormats(o.output, rep);
    if (o.command == Command::Run && o.output.json) return code;
    if (o.output.json)
      out << rep.toJson().dump(2) << "\n";
    else if (o.output.chcComp)
      out << chcCompAnswer(rep.verdict) << "\n";
    else
      report::printText(out, rep, o.output.text);
    return code;
  } catch (const report::CommandError& e) {
    if (o.output.chcComp) out << "unknown\n";
    return fail(e, commandName(o.command), file, o.output.json, out, err);
  } catch (const symbolic::NotImplemented& e) {
    if (o.output.chcComp) out << "unknown\n";
    return fail(report::inputError(file, e.what()), commandName(o.command), file, o.output.json,
                out, err);
  } catch (const std::bad_alloc&) {
    return abort(o, "memory exhausted (an allocation failed)", out, err);
  } catch (const std::exception& e) {
    return abort(o, std::string("internal error: ") + e.what() + "; please report this bug", out,
                 err);
  }
}

int run(int argc, char** argv) { return run(argc, argv, std::cout, std::cerr); }

}  // namespace tandem::cli
