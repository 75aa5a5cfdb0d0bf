// `tandem export-chc FILE`: the system as SMT-LIB2 Horn clauses (chc/horn_export.h), on stdout
// or into `-o FILE`; `--json` prints the report (with the clauses under "smtlib" when there is no
// -o). Shapes outside the export are refused with exit status 2.
#include <chrono>
#include <fstream>
#include <ostream>

#include "chc/horn_export.h"
#include "chc/unsupported.h"
#include "mc/cli/check_setup.h"
#include "mc/cli/commands.h"
#include "mc/cli/report.h"
#include "mc/search/explorer.h"
#include "mc/smt/smt_error.h"
#include "mc/symbolic/sym_state.h"

namespace tandem::cli {

namespace {

// The parts of the options the export reads; false after printing a usage error.
bool hornOptions(const Options& o, const ir::Program& p, chc::HornOptions& h, std::ostream& err) {
  if (!o.cls.empty()) {
    err << "tandem: error: export-chc --class is not implemented yet\n";
    return false;
  }
  auto tracked = trackedKinds(o, err);
  if (!tracked) return false;
  h.tracked = *tracked;
  auto mode = cutpointMode(o, err);
  if (!mode) return false;
  h.cutpoints = *mode;
  return entryProcedure(o, p, h.entry, err);
}

}  // namespace

int runExportChcCommand(const Options& o, const ir::Program& p, Io io) {
  chc::HornOptions h;
  if (!hornOptions(o, p, h, io.err)) return 2;
  exec::NativeRegistry natives;
  if (!loadNativePlugins(o, natives, io.err) || !checkNatives(p, natives, io.err)) return 2;
  exec::Evaluator ev(p, natives);
  const auto start = std::chrono::steady_clock::now();
  chc::HornSystem hs;
  try {
    hs = chc::exportHorn(p, ev, h);
  } catch (const chc::Unsupported& e) {
    io.err << "tandem: error: export-chc: " << e.what() << "\n";
    return 2;
  } catch (const symbolic::NotImplemented& e) {
    io.err << "tandem: error: export-chc: " << e.what() << "\n";
    return 2;
  } catch (const smt::SmtError& e) {
    io.err << "tandem: error: export-chc: " << e.what() << "\n";
    return 2;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!o.output.empty()) {
    std::ofstream f(o.output);
    if (!(f << hs.text)) {
      io.err << "tandem: error: cannot write '" << o.output << "'\n";
      return 2;
    }
  }
  Report rep;
  rep.command = "export-chc";
  rep.file = o.file;
  rep.verdict = Verdict::Completed;
  rep.stats["predicates"] = hs.predicates;
  rep.stats["clauses"] = hs.clauses;
  rep.stats["init_clauses"] = hs.initClauses;
  rep.stats["step_clauses"] = hs.stepClauses;
  rep.stats["query_clauses"] = hs.queryClauses;
  rep.stats["max_arity"] = hs.maxArity;
  rep.stats["time_s"] = seconds;
  rep.stats["peak_rss_mb"] = search::peakRssMb();
  rep.extra["cutpoints"] = o.cutpoints;
  if (!o.output.empty()) rep.extra["output"] = o.output;
  if (o.json) {
    if (o.output.empty()) rep.extra["smtlib"] = hs.text;
    printJson(io.out, rep);
    return 0;
  }
  if (o.output.empty()) {
    io.out << hs.text;
    return 0;
  }
  io.out << o.output << ": " << hs.predicates << " predicates, " << hs.clauses << " clauses ("
         << hs.initClauses << " initial, " << hs.stepClauses << " steps, " << hs.queryClauses
         << " queries)\n";
  if (o.stats) io.out << rep.stats.dump(2) << "\n";
  return 0;
}

}  // namespace tandem::cli
