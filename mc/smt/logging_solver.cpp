#include "mc/smt/logging_solver.h"

#include <fstream>

#include "mc/smt/smt_error.h"
#include "mc/smt/smtlib_translate.h"
#include "mc/smt/solver_decorator.h"

namespace tandem::smt {

namespace {

class LoggingSolver final : public MirroringDecorator {
 public:
  LoggingSolver(std::unique_ptr<Solver> inner, const std::string& path, TermNaming naming)
      : MirroringDecorator(std::move(inner)),
        out_(path, std::ios::trunc),
        text_(std::move(naming)) {
    if (!out_) throw SmtError("cannot write the SMT log '" + path + "'");
    out_ << "; Tandem SMT query log: standalone SMT-LIB 2 scripts separated by (reset).\n";
  }

  std::string name() const override { return wrappedName("log"); }

 protected:
  CheckResult doCheck(std::span<const ExprRef> assumptions) override {
    ++logged_;
    // Written and flushed first, so a query that crashes or hangs the solver is in the log.
    out_ << "; query " << logged_ << " (" << inner().name() << ")\n"
         << text_.script(assertions().with(assumptions)) << std::flush;
    CheckResult r = inner().check(assumptions);
    out_ << "; answer: " << r.toString() << "\n(reset)\n" << std::flush;
    return r;
  }

  void addChainStats(SolverStats& into) const override {
    MirroringDecorator::addChainStats(into);
    into.loggedQueries += logged_;
  }

 private:
  std::ofstream out_;
  SmtLibTranslator text_;
  uint64_t logged_ = 0;
};

}  // namespace

std::unique_ptr<Solver> makeLoggingSolver(std::unique_ptr<Solver> inner, const std::string& path,
                                          TermNaming naming) {
  return std::make_unique<LoggingSolver>(std::move(inner), path, std::move(naming));
}

}  // namespace tandem::smt
