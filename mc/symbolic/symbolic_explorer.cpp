#include "mc/symbolic/symbolic_explorer.h"

#include "mc/expr/enum_names.h"

#include <ostream>

#include "mc/search/explore/explorer.h"
#include "mc/smt/smt_error.h"
#include "mc/symbolic/concretizer.h"
#include "mc/symbolic/dart_explorer.h"
#include "mc/symbolic/explorer_impl.h"

namespace tandem::symbolic {

namespace {
constexpr EnumName<Solving> kSolvingNames[] = {{Solving::Classic, "classic"},
                                               {Solving::Mixed, "mixed"},
                                               {Solving::Exe, "exe"},
                                               {Solving::Dart, "dart"}};
}  // namespace

const char* solvingName(Solving s) { return enumName(kSolvingNames, s); }

std::optional<Solving> parseSolving(std::string_view name) {
  return enumFromName(kSolvingNames, name);
}

namespace {

std::string plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

Explorer::Explorer(const ir::Program& p, const exec::Evaluator& concrete, smt::Solver& solver,
                   const ExploreOptions& o, Strategy strategy)
    : p_(p),
      em_(*p.exprs),
      concrete_(concrete),
      ev_(p, concrete),
      transfer_(ev_, o.tracked),
      solver_(solver),
      pcs_(*strategy.pathSolver),
      concretizer_(strategy.concretizer),
      symbols_(strategy.symbols),
      o_(o),
      ownBudget_(o.budget ? nullptr : std::make_unique<search::Budget>(o.limits)),
      budget_(o.budget ? *o.budget : *ownBudget_) {
  ev_.setPolicy(concretizer_);
  transfer_.setTrustVerified(o.trustVerified);
  const ir::Cfa& entry = p_.cfas.at(o_.entry);
  classMode_ = entry.kind == ir::CfaKind::ClassInit;
  classIndex_ = entry.classIndex;
}

PcAnswer Explorer::check(const std::vector<ExprRef>& pc, ExprRef extra) {
  std::vector<ExprRef> as = pc;
  if (extra) as.push_back(extra);
  try {
    PcAnswer r = pcs_.check(std::span<const ExprRef>(as));
    if (r.isUnknown() && !r.undecided) noteUnknown(r.reason);
    return r;
  } catch (const smt::SmtUnsupported& e) {
    throw NotImplemented(e.what());
  }
}

void Explorer::noteUnknown(const std::string& reason) { noteUnknownCount(1, reason); }

void Explorer::noteUnknownCount(uint64_t n, const std::string& reason) {
  r_.unknownAnswers += n;
  if (unknownReason_.empty()) unknownReason_ = reason.empty() ? "no reason given" : reason;
}

bool Explorer::feasible(SymState& s) {
  PcAnswer a = check(s.pathCond, nullptr);
  if (a.isSat()) s.certificate = a.certificate;
  return a.isSat();
}

bool Explorer::assume(SymState& s, ExprRef v) {
  if (v->isFalse()) return false;
  s.pathCond.push_back(v);
  return feasible(s);
}

void Explorer::fail(const SymState& s, ExprRef bad, const exec::ExecError& error, ir::EdgeId id) {
  if (!reported_.insert(bad).second) return;
  PcAnswer a = check(s.pathCond, bad);
  if (!a.isSat()) return;
  SymState e = s;
  e.pathCond.push_back(bad);
  e.certificate = a.certificate;
  const bool atEntry = id == ir::kNone;
  endPath(e, error, atEntry ? std::nullopt : std::optional<ir::EdgeId>(id), atEntry);
}

void Explorer::absorb(SymState& s) {
  if (!concretizer_) return;
  for (ExprRef c : concretizer_->takeConstraints()) s.pathCond.push_back(c);
}

void Explorer::successor(SymState&& s, ir::EdgeId id) {
  if (o_.guidance) noteUnverified(s, id);
  if (!invariantsHold(s, false) || !guide(s)) return;
  queue(std::make_unique<SymState>(std::move(s)));
}

void Explorer::noteUnverified(SymState& s, ir::EdgeId id) {
  const ir::Edge& e = p_.edges[id];
  ExprRef now = nullptr;
  if (id < o_.guidance->implicitChecks.size() && o_.guidance->implicitChecks[id]) {
    now = em_.trueExpr();
  } else if (e.kind == ir::EdgeKind::Assert) {
    if (!e.premise) {
      now = em_.trueExpr();
    } else {  // the assertion leaves its frame on top and the premise's names as they were
      std::vector<Obligation> obls;
      now = em_.mkNot(transfer_.evaluator().eval(e.premise, s, obls).expr);
    }
  }
  if (now && !now->isFalse()) s.unverified = s.unverified ? em_.mkOr(s.unverified, now) : now;
}

bool Explorer::guide(SymState& s) {
  const Guidance* g = o_.guidance;
  if (!g || classMode_ || s.frames.size() != 1) return true;
  const ir::LocId l = s.top().pc;
  auto value = [&](ExprRef cond) {
    std::vector<Obligation> obls;  // none: the conditions read boolean locals
    return transfer_.evaluator().eval(cond, s, obls).expr;
  };
  if (ExprRef may = g->assumeAt[l]; may && !(s.unverified && s.unverified->isTrue())) {
    ExprRef v = value(may);
    if (s.unverified) v = em_.mkOr(s.unverified, v);
    if (v->isFalse()) {
      ++r_.guidance.pruned;
      return false;
    }
    if (!v->isTrue()) {
      // The executions where May fails are pruned (counted when there are some); the others go on.
      if (check(s.pathCond, em_.mkNot(v)).isSat()) ++r_.guidance.pruned;
      s.pathCond.push_back(v);
      if (!feasible(s)) return false;
    }
  }
  ExprRef must = g->tryFirstAt[l];
  if (must && !s.resumed && r_.guidance.interrupts < g->maxInterrupts) {
    ExprRef v = value(must);
    if (!v->isTrue()) {
      // The executions on which Must fails are set aside (interrupted) and resumed once the
      // others are done, without `tryfirst` from then on.
      auto later = std::make_unique<SymState>(s);
      later->resumed = true;
      if (!v->isFalse()) later->pathCond.push_back(em_.mkNot(v));
      if (v->isFalse() || feasible(*later)) {
        later->stampPathCond();
        ++r_.guidance.interrupts;
        deferred_.push_back(std::move(later));
      }
      if (!assume(s, v)) return false;
    }
  }
  s.stampPathCond();
  return true;
}

bool Explorer::invariantsHold(SymState& s, bool atEntry) {
  for (const ir::Property& inv : p_.invariants) {
    std::vector<Obligation> obls;
    ExprRef v = transfer_.evaluator().eval(inv.expr, s, obls).expr;
    for (const Obligation& ob : obls)
      if (!ob.ok->isTrue()) throw NotImplemented("an invariant whose evaluation can fail");
    if (v->isTrue()) continue;
    if (o_.tracked[static_cast<size_t>(ir::ErrorKind::Invariant)] &&
        reported_.insert(em_.mkNot(v)).second) {
      PcAnswer a = check(s.pathCond, em_.mkNot(v));
      if (a.isSat()) {
        SymState e = s;
        e.pathCond.push_back(em_.mkNot(v));
        e.certificate = a.certificate;
        endPath(
            e,
            exec::ExecError{ir::ErrorKind::Invariant, inv.loc, exec::invariantMessage(inv), false},
            std::nullopt, atEntry);
        if (stop_) return false;
      }
    }
    if (!assume(s, v)) return false;
  }
  s.stampPathCond();
  return true;
}

// expand() ends such states before it steps them; a bottom frame returning from a location with
// other ways on would end here.
void Explorer::returned(const SymState& s, ir::EdgeId) { boundary(s); }

void Explorer::queue(std::unique_ptr<SymState> n) {
  const ir::LocId pc = n->top().pc;
  const bool novel = seenLocs_.insert(pc).second && search::usesNovelty(o_.search);
  const uint32_t depth = n->depth;
  slots_.push_back(std::move(n));
  searcher_->add(
      search::FrontierEntry{static_cast<search::StateStore::Id>(slots_.size() - 1), depth, novel});
}

void Explorer::expand(const SymState& s) {
  reported_.clear();
  if (transfer_.atBottomExit(s)) {
    boundary(s);
    return;
  }
  const size_t before = slots_.size(), endsBefore = r_.ends.size();
  const uint64_t pathsBefore = r_.paths;  // ended here, kept by the end filter or not
  const uint64_t unknownsBefore = r_.unknownAnswers;
  const uint64_t guidedBefore = r_.guidance.pruned + r_.guidance.interrupts;
  for (ir::EdgeId id : p_.locs[s.top().pc].out) {
    transfer_.step(s, Mover{}, id, *this);
    if (stop_) return;
  }
  // Blocked (every guard infeasible, e.g. a failed `assume`): the path ends here. A path that
  // --guide pruned or set aside is not a test.
  if (slots_.size() == before && r_.paths == pathsBefore && r_.unknownAnswers == unknownsBefore &&
      r_.guidance.pruned + r_.guidance.interrupts == guidedBefore) {
    endPath(s, std::nullopt, std::nullopt);
    if (r_.ends.size() > endsBefore) r_.ends.back().blocked = true;
  }
}

void Explorer::expand(const search::FrontierEntry& e) {
  std::unique_ptr<SymState> s = std::move(slots_[e.id]);
  ++r_.states;
  budget_.chargeState();
  r_.maxDepth = std::max<uint64_t>(r_.maxDepth, s->depth);
  r_.maxCalls = std::max<uint64_t>(r_.maxCalls, s->calls.size());
  expand(*s);
}

bool Explorer::cut(const search::FrontierEntry& e) {
  // A state at the depth bound whose path ends there anyway is a complete path, not a cut.
  std::unique_ptr<SymState> s = std::move(slots_[e.id]);
  if (transfer_.atBottomExit(*s)) {
    ++r_.states;
    expand(*s);
    return false;
  }
  ++r_.depthCuts;
  return true;
}

bool Explorer::refill() {
  if (!deferred_.empty()) {
    r_.guidance.resumed += deferred_.size();
    for (auto& d : deferred_) queue(std::move(d));
    deferred_.clear();
    return true;
  }
  if (nextRound_.empty()) return false;
  // Every sequence of `round_` calls has been explored: on to one call more.
  r_.completedCalls = round_++;
  for (auto& n : nextRound_) queue(std::move(n));
  nextRound_.clear();
  return true;
}

search::ProgressSample Explorer::progress() const {
  std::string detail = std::to_string(r_.paths) + " paths, depth " + std::to_string(r_.maxDepth);
  if (classMode_) detail += ", " + plural(round_, "method call", "method calls");
  detail += ", " + std::to_string(solver_.stats().queries) + " solver queries";
  return {r_.states, "symbolic states", detail};
}

ExploreResult Explorer::run() {
  const double start = budget_.elapsed();
  searcher_ = search::makeSearcher(o_.search, o_.seed);
  if (auto s0 = entryState(); s0 && guide(*s0)) queue(std::move(s0));
  search::Progress quiet(nullptr, budget_);
  const search::DriveResult d =
      search::drive(*searcher_, budget_, o_.progress ? *o_.progress : quiet, *this);
  std::string cut;
  if (d.end == search::DriveEnd::Stopped) cut = budget_.stopped()->reason;
  if (cut.empty() && o_.endFilter) cut = o_.endFilter->enough();
  if (classMode_ && !stop_ && cut.empty()) r_.completedCalls = round_;
  r_.seconds = budget_.elapsed() - start;
  r_.solverQueries = solver_.stats().queries;
  r_.solving = pcs_.stats();
  if (concretizer_) {
    r_.solving.concretizations += concretizer_->concretizations();
    if (uint64_t u = concretizer_->unknownAnswers()) noteUnknownCount(u, "while concretizing");
  }
  if (r_.solving.unknown) noteUnknownCount(r_.solving.unknown, "in mixed-solving tries");
  finish(cut);
  return std::move(r_);
}

// The outcome and, when it is not Complete, why.
void Explorer::finish(const std::string& cut) {
  bool hasError = false;
  for (const PathEnd& pe : r_.ends) hasError = hasError || pe.error.has_value();
  std::string reason;
  if (!cut.empty()) {
    reason = cut;
    if (classMode_ && round_ > 0)
      reason += "; every sequence of at most " +
                plural(r_.completedCalls, "method call", "method calls") +
                " after init was explored";
    if (classMode_ && !o_.maxCalls)
      reason += " (no --max-calls: the number of method calls is unbounded)";
  } else if (r_.depthCuts) {
    reason = search::depthBoundReason(*budget_.limits().maxDepth) + ": " +
             plural(r_.depthCuts, "path", "paths") + " cut";
  } else if (r_.unknownAnswers) {
    reason = search::solverUnknownReason(unknownReason_) + " (" +
             plural(r_.unknownAnswers, "answer", "answers") + ")";
  } else if (r_.solving.undecided) {
    reason = "mixed solving could not decide " + std::to_string(r_.solving.undecided) +
             " path conditions (their paths were dropped)";
  } else if (o_.solving == Solving::Exe && r_.solving.concretizations) {
    reason = "EXE-style concretization fixed inputs " + std::to_string(r_.solving.concretizations) +
             " times (paths may be missing)";
  } else if (ev_.uncheckedCalls()) {
    // Found by scripts/difftest: an `assert` inside a helper called as f(p, q < 3) was never
    // checked, and check said verified.
    reason = std::to_string(ev_.uncheckedCalls()) +
             " calls of procedures inside expressions had symbolic arguments or globals: they were "
             "uninterpreted functions, and errors inside the procedures were not checked";
  } else if (r_.callCuts) {
    reason = "bounded: every sequence of at most " +
             plural(*o_.maxCalls, "method call", "method calls") +
             " after init was explored without a tracked error; longer sequences were not "
             "(--max-calls " +
             std::to_string(*o_.maxCalls) + ")";
  }
  if (hasError) {
    r_.outcome = Outcome::ErrorFound;
    if (!cut.empty()) r_.reason = cut;
  } else if (!reason.empty()) {
    r_.outcome = Outcome::Incomplete;
    r_.reason = reason;
  }
}

ExploreResult runExplorer(const ir::Program& program, const exec::Evaluator& concrete,
                          smt::Solver& solver, const ExploreOptions& options, Strategy strategy) {
  return Explorer(program, concrete, solver, options, strategy).run();
}

ExploreResult exploreSymbolic(const ir::Program& program, const exec::Evaluator& concrete,
                              smt::Solver& solver, const ExploreOptions& options) {
  ExprManager& em = *program.exprs;
  switch (options.solving) {
    case Solving::Classic: {
      auto pcs = makeClassicPathSolver(solver, em);
      return runExplorer(program, concrete, solver, options, Strategy{pcs.get(), nullptr, nullptr});
    }
    case Solving::Mixed: {
      auto pcs = makeMixedPathSolver(solver, concrete, options.mixed);
      return runExplorer(program, concrete, solver, options, Strategy{pcs.get(), nullptr, nullptr});
    }
    case Solving::Exe: {
      auto pcs = makeClassicPathSolver(solver, em);
      ExeConcretizer exe(solver, concrete);
      return runExplorer(program, concrete, solver, options, Strategy{pcs.get(), &exe, nullptr});
    }
    case Solving::Dart:
      return exploreDart(program, concrete, solver, options);
  }
  throw NotImplemented("the solving mode");
}

}  // namespace tandem::symbolic
