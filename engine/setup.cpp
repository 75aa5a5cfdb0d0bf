#include "engine/setup.h"

#include <algorithm>

#include "engine/report_types.h"
#include "mc/exec/plugin_loader.h"
#include "mc/ir/f64_uses.h"
#include "mc/smt/smt_error.h"
#include "mc/smt/solver_factory.h"
#include "mc/symbolic/sym_state.h"

namespace tandem::engine {

smt::QueryStop queryStop(const search::Budget& b) {
  smt::QueryStop stop;
  stop.deadline = b.deadline();
  if (b.interruptFlag() || b.limits().memoryLimitMb)
    stop.stopNow = [&b] { return b.stopFromWatchdog(); };
  return stop;
}

namespace {

exec::NativeRegistry loadedNatives(const Request& r, const ir::Program& p) {
  exec::NativeRegistry natives;
  loadNatives(r, p, natives);
  return natives;
}

}  // namespace

RunContext::RunContext(const ir::Program& program, const Request& request)
    : p(program),
      r(request),
      rb(request),
      natives(loadedNatives(request, program)),
      ev(program, natives) {}

void loadNatives(const Request& r, const ir::Program& p, exec::NativeRegistry& natives) {
  for (const auto& path : r.natives) {
    exec::PluginLoad load = exec::loadPlugin(path, natives);
    if (!load.ok()) throw inputError(path, load.error);
  }
  std::vector<std::string> problems = natives.checkBindings(p);
  if (problems.empty()) return;
  std::vector<Diagnostic> ds;
  std::string text;
  for (const auto& m : problems) {
    ds.push_back({p.file, 0, 0, m});
    text += p.file + ": error: " + m + "\n";
  }
  throw CommandError(CommandError::Kind::Input, std::move(ds), text);
}

std::unique_ptr<smt::Solver> makeSolver(const Request& r, const ir::Program& p,
                                        const search::Budget& b, ChainNeeds needs) {
  smt::SolverOptions so;
  so.incremental = needs.incremental;
  so.unsatCores = needs.unsatCores;
  so.backend = r.solver.backend;
  so.timeoutMs = r.solver.timeoutMs;
  so.logPath = r.solver.smtLog;
  so.crossCheck = r.solver.crossCheck;
  so.report = r.diag;
  so.stop = queryStop(b);
  try {
    return smt::makeSolver(so, smt::programNaming(p));
  } catch (const smt::SmtError& e) {
    throw inputError(r.file, e.what());
  }
}

void refuseF64(const ir::Program& p, const std::string& what) {
  auto at = ir::firstF64Use(p);
  if (!at) return;
  const std::string message = "f64 is not supported by " + what + " yet";
  std::string where = p.file;
  if (at->valid()) where += ":" + std::to_string(at->line) + ":" + std::to_string(at->col);
  throw CommandError(CommandError::Kind::Input, {Diagnostic{p.file, at->line, at->col, message}},
                     where + ": error: " + message + "\n");
}

ir::CfaId entryOf(const Request& r, const ir::Program& p) {
  if (!r.entry.empty()) {
    ir::CfaId entry = p.findCfaId(r.entry, ir::CfaKind::Proc);
    if (entry == ir::kNone)
      throw usageError("no procedure '" + r.entry + "' in " + r.file + " (--entry)");
    return entry;
  }
  if (p.isClosed() || !r.cls.empty()) return ir::kNone;
  throw usageError(r.file + " is an open system: give --entry PROC" +
                   (p.classes.empty() ? "" : " or --class C"));
}

uint32_t classOf(const Request& r, const ir::Program& p) {
  if (r.cls.empty()) return ir::kNone;
  if (!r.entry.empty())
    throw usageError("--entry and --class exclude each other: give one of them");
  auto it = std::find_if(p.classes.begin(), p.classes.end(),
                         [&](const ir::ClassInfo& c) { return c.name == r.cls; });
  if (it == p.classes.end())
    throw usageError("no class '" + r.cls + "' in " + r.file + " (--class)");
  return static_cast<uint32_t>(it - p.classes.begin());
}

void asInputErrors(const std::string& file, const std::string& prefix,
                   const std::function<void()>& f, const char* unsupportedPrefix) {
  try {
    f();
  } catch (const symbolic::NotImplemented& e) {
    throw inputError(file, prefix + e.what());
  } catch (const smt::SmtUnsupported& e) {
    if (!unsupportedPrefix) throw inputError(file, std::string("solver failure: ") + e.what());
    throw inputError(file, unsupportedPrefix + std::string(e.what()));
  } catch (const smt::SmtError& e) {
    throw inputError(file, std::string("solver failure: ") + e.what());
  }
}

void addRunStats(Stats& stats, const search::Budget& b) {
  stats.time_s = b.elapsed();
  stats.peak_rss_mb = search::peakRssMb();
}

}  // namespace tandem::engine
