#include "mc/symbolic/symbolic_explorer.h"

#include <chrono>
#include <memory>
#include <unordered_set>

#include "mc/search/searcher.h"
#include "mc/smt/minimize_model.h"
#include "mc/smt/smt_error.h"
#include "mc/symbolic/concretizer.h"
#include "mc/symbolic/dart_explorer.h"
#include "mc/symbolic/sym_eval.h"

namespace tandem::symbolic {

const char* solvingName(Solving s) {
  switch (s) {
    case Solving::Classic:
      return "classic";
    case Solving::Mixed:
      return "mixed";
    case Solving::Exe:
      return "exe";
    case Solving::Dart:
      return "dart";
  }
  return "?";
}

std::optional<Solving> parseSolving(std::string_view name) {
  for (Solving s : {Solving::Classic, Solving::Mixed, Solving::Exe, Solving::Dart})
    if (name == solvingName(s)) return s;
  return std::nullopt;
}

namespace {

using Clock = std::chrono::steady_clock;

bool hasCall(ExprRef e) {
  if (e->op == Op::Call) return true;
  for (ExprRef k : e->kids)
    if (hasCall(k)) return true;
  return false;
}

class Explorer {
 public:
  Explorer(const ir::Program& p, const exec::Evaluator& concrete, smt::Solver& solver,
           const ExploreOptions& o, Strategy strategy)
      : p_(p),
        em_(*p.exprs),
        ev_(p, concrete),
        solver_(solver),
        pcs_(*strategy.pathSolver),
        concretizer_(strategy.concretizer),
        symbols_(strategy.symbols),
        o_(o) {
    ev_.setPolicy(concretizer_);
  }

  ExploreResult run();

 private:
  std::unique_ptr<SymState> entryState();
  void expand(const SymState& s);
  // Executes edge `id` on a copy of `s`; queues the successor if it is feasible.
  void step(const SymState& s, ir::EdgeId id);
  // Forks the tracked errors of `obls` off `n` (once per state and obligation) and assumes the
  // obligations hold. False when `n` became infeasible or undecided.
  bool require(SymState& n, const std::vector<Obligation>& obls, ir::EdgeId id);
  // Adds `cond` to the path condition; false when that is infeasible or undecided.
  bool assume(SymState& n, ExprRef cond);
  // The path condition `pc` (and `extra`) decided by the mode's path solver; on sat, the answer
  // certifies the inputs of the path.
  PcAnswer check(const std::vector<ExprRef>& pc, ExprRef extra);
  void noteUnknown(const std::string& reason);
  void noteUnknownCount(uint64_t n, const std::string& reason);
  // Evaluation on `n`; constraints the concretizer made (EXE's pins) join n's path condition.
  SymValue eval(SymState& n, ExprRef e, std::vector<Obligation>& obls);
  SymLvalue lvalue(SymState& n, ExprRef e, std::vector<Obligation>& obls);
  void absorb(SymState& n);
  void endPath(const SymState& s, std::optional<exec::ExecError> error,
               std::optional<ir::EdgeId> lastEdge);
  void queue(std::unique_ptr<SymState> n);
  ExprRef input(SymbolPool::Input kind, size_t index, TypeRef t, const std::string& name);
  void runAssignments(SymState& n, const std::vector<ir::Assignment>& as, bool parallel,
                      ir::EdgeId id, bool& ok);
  std::optional<exec::Value> modelValue(const smt::Model& m, ExprRef sym) const;

  const ir::Program& p_;
  ExprManager& em_;
  SymEvaluator ev_;
  smt::Solver& solver_;
  PathSolver& pcs_;
  Concretizer* concretizer_;
  SymbolPool* symbols_;
  const ExploreOptions& o_;
  ExploreResult r_;
  std::unique_ptr<search::Searcher> searcher_;
  std::vector<std::unique_ptr<SymState>> slots_;
  std::unordered_set<ir::LocId> seenLocs_;
  std::unordered_set<ExprRef> reported_;  // obligations forked to errors from the current state
  std::vector<ExprRef> paramSyms_;
  std::vector<std::pair<std::string, ExprRef>> globalSyms_;
  bool stop_ = false;
  std::string unknownReason_;
};

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

SymValue Explorer::eval(SymState& n, ExprRef e, std::vector<Obligation>& obls) {
  SymValue v = ev_.eval(e, n, obls);
  absorb(n);
  return v;
}

SymLvalue Explorer::lvalue(SymState& n, ExprRef e, std::vector<Obligation>& obls) {
  SymLvalue lv = ev_.lvalue(e, n, obls);
  absorb(n);
  return lv;
}

void Explorer::absorb(SymState& n) {
  if (!concretizer_) return;
  for (ExprRef c : concretizer_->takeConstraints()) n.pathCond.push_back(c);
}

bool Explorer::assume(SymState& n, ExprRef cond) {
  if (cond->isTrue()) return true;
  if (cond->isFalse()) return false;
  n.pathCond.push_back(cond);
  PcAnswer a = check(n.pathCond, nullptr);
  if (a.isSat()) n.certificate = a.certificate;
  return a.isSat();
}

bool Explorer::require(SymState& n, const std::vector<Obligation>& obls, ir::EdgeId id) {
  bool added = false;
  for (const Obligation& ob : obls) {
    if (ob.ok->isTrue()) continue;
    if (o_.tracked[static_cast<size_t>(ob.kind)] && reported_.insert(ob.ok).second) {
      ExprRef bad = em_.mkNot(ob.ok);
      if (PcAnswer a = check(n.pathCond, bad); a.isSat()) {
        SymState e = n;
        e.pathCond.push_back(bad);
        e.certificate = a.certificate;
        const ir::Edge& edge = p_.edges[id];
        endPath(e, exec::ExecError{ob.kind, edge.loc, ob.message, false}, id);
        if (stop_) return false;
      }
    }
    if (ob.ok->isFalse()) return false;  // the path fails here (an untracked error ends it)
    n.pathCond.push_back(ob.ok);
    added = true;
  }
  if (!added) return true;
  PcAnswer a = check(n.pathCond, nullptr);
  if (a.isSat()) n.certificate = a.certificate;
  return a.isSat();
}

ExprRef Explorer::input(SymbolPool::Input kind, size_t index, TypeRef t, const std::string& name) {
  if (!t || !(t->isIntegral() || t->kind == TypeKind::Bool || t->kind == TypeKind::Enum))
    throw NotImplemented("symbolic values of type " + (t ? typeToString(t) : std::string("?")));
  if (symbols_) return symbols_->symbol(kind, index, name, t);
  return em_.freshSymbol(name, t);
}

std::unique_ptr<SymState> Explorer::entryState() {
  auto s = std::make_unique<SymState>();
  std::vector<Obligation> obls;
  for (ir::VarId id : p_.globals) {
    const ir::Variable& v = p_.vars[id];
    if (v.slot >= s->globals.size()) s->globals.resize(v.slot + 1);
    s->globals[v.slot] = ev_.fromValue(exec::defaultValue(v.type), v.type);
  }
  for (ir::VarId id : p_.globals) {
    const ir::Variable& v = p_.vars[id];
    if (!v.init || v.init->op == Op::Star) {
      ExprRef sym = input(SymbolPool::Input::Global, globalSyms_.size(), v.type, v.name);
      globalSyms_.emplace_back(v.name, sym);
      s->globals[v.slot] = SymValue::scalar(sym);
    } else {
      s->frames.clear();
      s->globals[v.slot] = ev_.coerce(eval(*s, v.init, obls), v.type);
    }
  }
  const ir::Cfa& cfa = p_.cfas[o_.entry];
  SymFrame f{o_.entry, cfa.entry, {}, ir::kNone, nullptr};
  for (ir::VarId id : cfa.locals) {
    const ir::Variable& v = p_.vars[id];
    if (v.slot >= f.locals.size()) f.locals.resize(v.slot + 1);
    f.locals[v.slot] = ev_.fromValue(exec::defaultValue(v.type), v.type);
  }
  for (ir::VarId id : cfa.params) {
    const ir::Variable& v = p_.vars[id];
    ExprRef sym = input(SymbolPool::Input::Param, paramSyms_.size(), v.type, v.name);
    paramSyms_.push_back(sym);
    f.locals[v.slot] = SymValue::scalar(sym);
  }
  if (cfa.usesOld) f.oldGlobals = std::make_shared<const std::vector<SymValue>>(s->globals);
  s->frames.push_back(std::move(f));
  for (ExprRef init : p_.inits) {
    SymValue b = eval(*s, init, obls);
    if (!b.expr->isTrue()) s->pathCond.push_back(b.expr);
  }
  for (const Obligation& ob : obls)
    if (!ob.ok->isTrue()) s->pathCond.push_back(ob.ok);
  bool ok = true;
  runAssignments(*s, cfa.entryInits, false, ir::kNone, ok);
  if (!ok) return nullptr;
  s->pathCondAt.assign(s->pathCond.size(), 0);
  if (!s->pathCond.empty()) {
    PcAnswer a = check(s->pathCond, nullptr);
    if (!a.isSat()) return nullptr;
    s->certificate = a.certificate;
  }
  return s;
}

// Assignments in parallel (a command) or one after another (entry declarations): lvalues and
// right-hand sides in the pre-state, then the havocs in order, then the stores.
void Explorer::runAssignments(SymState& n, const std::vector<ir::Assignment>& as, bool parallel,
                              ir::EdgeId id, bool& ok) {
  struct Pending {
    SymLvalue lv;
    std::optional<SymValue> value;
    TypeRef type;
  };
  std::vector<Pending> pending;
  std::vector<Obligation> obls;
  auto finish = [&] {
    if (!obls.empty()) {
      if (id == ir::kNone) {
        for (const Obligation& ob : obls)
          if (!ob.ok->isTrue()) n.pathCond.push_back(ob.ok);
      } else if (!require(n, obls, id)) {
        ok = false;
        return;
      }
      obls.clear();
    }
    for (Pending& pd : pending) {
      if (!pd.value) {
        ExprRef sym = input(SymbolPool::Input::Havoc, n.havocs.size(), pd.type, "havoc");
        n.havocs.push_back(sym);
        pd.value = SymValue::scalar(sym);
      }
    }
    for (Pending& pd : pending) ev_.store(n, pd.lv, std::move(*pd.value));
    pending.clear();
  };
  for (const ir::Assignment& a : as) {
    Pending pd{lvalue(n, a.lhs, obls), std::nullopt, a.lhs->type};
    if (a.rhs && a.rhs->op != Op::Star) pd.value = ev_.coerce(eval(n, a.rhs, obls), a.lhs->type);
    pending.push_back(std::move(pd));
    if (!parallel) {
      finish();
      if (!ok) return;
    }
  }
  finish();
}

void Explorer::queue(std::unique_ptr<SymState> n) {
  const ir::LocId pc = n->top().pc;
  const bool novel = seenLocs_.insert(pc).second;
  const uint32_t depth = n->depth;
  slots_.push_back(std::move(n));
  searcher_->add(
      search::FrontierEntry{static_cast<search::StateStore::Id>(slots_.size() - 1), depth, novel});
}

void Explorer::step(const SymState& s, ir::EdgeId id) {
  const ir::Edge& edge = p_.edges[id];
  auto n = std::make_unique<SymState>(s);
  std::vector<Obligation> obls;
  switch (edge.kind) {
    case ir::EdgeKind::Command: {
      ExprRef g = edge.guard ? eval(*n, edge.guard, obls).expr : em_.trueExpr();
      if (!require(*n, obls, id) || stop_) return;
      if (!assume(*n, g)) return;
      bool ok = true;
      runAssignments(*n, edge.assigns, !edge.sequential, id, ok);
      if (!ok || stop_) return;
      n->top().pc = edge.to;
      break;
    }
    case ir::EdgeKind::Assert: {
      ExprRef c = eval(*n, edge.cond, obls).expr;
      if (!require(*n, obls, id) || stop_) return;
      if (o_.tracked[static_cast<size_t>(edge.errorKind)] && !c->isTrue()) {
        ExprRef bad = em_.mkNot(c);
        if (PcAnswer a = check(n->pathCond, bad); a.isSat()) {
          SymState e = *n;
          e.pathCond.push_back(bad);
          e.certificate = a.certificate;
          std::string what = edge.text.empty() ? "assertion" : "'" + edge.text + "'";
          endPath(e, exec::ExecError{edge.errorKind, edge.loc, what + " failed", false}, id);
          if (stop_) return;
        }
      }
      if (!assume(*n, c)) return;
      n->top().pc = edge.to;
      break;
    }
    case ir::EdgeKind::Assumed:
      n->top().pc = edge.to;
      break;
    case ir::EdgeKind::Call: {
      const ir::Cfa& callee = p_.cfas[edge.callee];
      if (callee.kind != ir::CfaKind::Proc)
        throw NotImplemented("calls of methods and constructors");
      std::vector<SymValue> args;
      for (ExprRef a : edge.args) args.push_back(eval(*n, a, obls));
      if (!require(*n, obls, id) || stop_) return;
      n->top().pc = edge.from;  // stays at the call site until the callee returns
      SymFrame f{edge.callee, callee.entry, {}, id, nullptr};
      for (ir::VarId v : callee.locals) {
        const ir::Variable& var = p_.vars[v];
        if (var.slot >= f.locals.size()) f.locals.resize(var.slot + 1);
        f.locals[var.slot] = ev_.fromValue(exec::defaultValue(var.type), var.type);
      }
      for (size_t i = 0; i < callee.params.size() && i < args.size(); ++i) {
        const ir::Variable& var = p_.vars[callee.params[i]];
        f.locals[var.slot] = ev_.coerce(args[i], var.type);
      }
      if (callee.usesOld) f.oldGlobals = std::make_shared<const std::vector<SymValue>>(n->globals);
      n->frames.push_back(std::move(f));
      bool ok = true;
      runAssignments(*n, callee.entryInits, false, id, ok);
      if (!ok || stop_) return;
      break;
    }
    case ir::EdgeKind::Return: {
      if (n->frames.size() == 1) return;  // the bottom frame ends the path (expand)
      const ir::Cfa& cfa = p_.cfas[n->top().cfa];
      std::optional<SymValue> result;
      if (cfa.resultVar != ir::kNone) result = n->top().locals[p_.vars[cfa.resultVar].slot];
      const ir::Edge& call = p_.edges[n->top().callEdge];
      n->frames.pop_back();
      if (call.result && result) {
        SymLvalue lv = lvalue(*n, call.result, obls);
        if (!require(*n, obls, id) || stop_) return;
        ev_.store(*n, lv, ev_.coerce(*result, call.result->type));
      }
      n->top().pc = call.to;
      break;
    }
  }
  n->pathCondAt.resize(n->pathCond.size(), static_cast<uint32_t>(n->path.size()));
  n->path.push_back(id);
  ++n->depth;
  queue(std::move(n));
}

std::optional<exec::Value> Explorer::modelValue(const smt::Model& m, ExprRef sym) const {
  TypeRef t = sym->type;
  auto v = m.evalInt(sym);
  BigInt x = v ? *v : BigInt(0);
  if (t->kind == TypeKind::Bool) return exec::Value::boolean(x.sign() != 0);
  if (t->kind == TypeKind::Enum)
    return exec::Value::enumMember(t, static_cast<uint32_t>(x.toInt64().value_or(0)));
  return exec::integralValue(t, x);
}

void Explorer::endPath(const SymState& s, std::optional<exec::ExecError> error,
                       std::optional<ir::EdgeId> lastEdge) {
  std::vector<ExprRef> terms = paramSyms_;
  for (auto& [name, sym] : globalSyms_) terms.push_back(sym);
  for (ExprRef h : s.havocs) terms.push_back(h);
  smt::MinimizedModel mm;
  try {
    mm = pcs_.inputs(s.pathCond, s.certificate, terms);
  } catch (const smt::SmtUnsupported& e) {
    throw NotImplemented(e.what());
  }
  if (!mm.model) {
    if (mm.result.isUnknown()) noteUnknown(mm.result.reason);
    return;
  }
  ++r_.paths;
  PathEnd end;
  end.path = s.path;
  if (lastEdge) end.path.push_back(*lastEdge);
  const ir::Cfa& cfa = p_.cfas[o_.entry];
  for (size_t i = 0; i < paramSyms_.size(); ++i) {
    end.args.push_back(*modelValue(*mm.model, paramSyms_[i]));
    end.inputs.emplace_back(p_.vars[cfa.params[i]].name, end.args.back());
  }
  for (auto& [name, sym] : globalSyms_) {
    end.script.push_back(*modelValue(*mm.model, sym));
    end.inputs.emplace_back(name, end.script.back());
  }
  for (size_t i = 0; i < s.havocs.size(); ++i) {
    end.script.push_back(*modelValue(*mm.model, s.havocs[i]));
    end.inputs.emplace_back("havoc#" + std::to_string(i + 1), end.script.back());
  }
  for (ExprRef c : s.pathCond) end.usesUninterpreted = end.usesUninterpreted || hasCall(c);
  end.pathCond = s.pathCond;
  end.pathCondAt = s.pathCondAt;
  end.pathCondAt.resize(end.pathCond.size(), static_cast<uint32_t>(s.path.size()));
  end.error = std::move(error);
  const bool isError = end.error.has_value();
  r_.ends.push_back(std::move(end));
  if (isError && o_.stopAtError) stop_ = true;
}

void Explorer::expand(const SymState& s) {
  const ir::Location& loc = p_.locs[s.top().pc];
  bool onlyReturns = true;
  for (ir::EdgeId id : loc.out)
    onlyReturns = onlyReturns && p_.edges[id].kind == ir::EdgeKind::Return;
  if (s.frames.size() == 1 && onlyReturns) {
    endPath(s, std::nullopt, std::nullopt);
    return;
  }
  if (o_.maxDepth && s.depth >= *o_.maxDepth) {
    ++r_.depthCuts;
    return;
  }
  reported_.clear();
  const size_t before = slots_.size(), endsBefore = r_.ends.size();
  const uint64_t unknownsBefore = r_.unknownAnswers;
  for (ir::EdgeId id : loc.out) {
    step(s, id);
    if (stop_) return;
  }
  // Blocked (every guard infeasible, e.g. a failed `assume`): the path ends here.
  if (slots_.size() == before && r_.ends.size() == endsBefore &&
      r_.unknownAnswers == unknownsBefore)
    endPath(s, std::nullopt, std::nullopt);
}

ExploreResult Explorer::run() {
  const auto start = Clock::now();
  searcher_ = search::makeSearcher(o_.search, o_.seed);
  if (!searcher_) throw NotImplemented("the search strategy '" + o_.search + "'");
  std::string cut;
  if (auto s0 = entryState()) queue(std::move(s0));
  while (!searcher_->empty() && !stop_) {
    if (o_.timeoutSeconds &&
        std::chrono::duration<double>(Clock::now() - start).count() > *o_.timeoutSeconds) {
      cut = "timeout reached";
      break;
    }
    if (o_.maxStates && r_.states >= *o_.maxStates) {
      cut = "state bound reached (--max-states " + std::to_string(*o_.maxStates) + ")";
      break;
    }
    search::FrontierEntry e = searcher_->next();
    std::unique_ptr<SymState> s = std::move(slots_[e.id]);
    ++r_.states;
    r_.maxDepth = std::max<uint64_t>(r_.maxDepth, s->depth);
    expand(*s);
  }
  r_.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r_.solverQueries = solver_.stats().queries;
  r_.solving = pcs_.stats();
  if (concretizer_) {
    r_.solving.concretizations += concretizer_->concretizations();
    if (uint64_t u = concretizer_->unknownAnswers()) noteUnknownCount(u, "while concretizing");
  }
  if (r_.solving.unknown) noteUnknownCount(r_.solving.unknown, "in mixed-solving tries");
  bool hasError = false;
  for (const PathEnd& pe : r_.ends) hasError = hasError || pe.error.has_value();
  if (hasError) {
    r_.outcome = Outcome::ErrorFound;
  } else if (!cut.empty()) {
    r_.outcome = Outcome::Incomplete;
    r_.reason = cut;
  } else if (r_.depthCuts) {
    r_.outcome = Outcome::Incomplete;
    r_.reason = "depth bound reached on " + std::to_string(r_.depthCuts) + " paths (--max-depth " +
                std::to_string(*o_.maxDepth) + ")";
  } else if (r_.unknownAnswers) {
    r_.outcome = Outcome::Incomplete;
    r_.reason = "the solver answered unknown " + std::to_string(r_.unknownAnswers) + " times (" +
                unknownReason_ + ")";
  } else if (r_.solving.undecided) {
    r_.outcome = Outcome::Incomplete;
    r_.reason = "mixed solving could not decide " + std::to_string(r_.solving.undecided) +
                " path conditions (their paths were dropped)";
  } else if (o_.solving == Solving::Exe && r_.solving.concretizations) {
    r_.outcome = Outcome::Incomplete;
    r_.reason = "EXE-style concretization fixed inputs " +
                std::to_string(r_.solving.concretizations) + " times (paths may be missing)";
  }
  if (r_.outcome == Outcome::ErrorFound && !cut.empty()) r_.reason = cut;
  return std::move(r_);
}

}  // namespace

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
