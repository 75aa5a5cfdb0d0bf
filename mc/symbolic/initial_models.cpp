#include "mc/symbolic/initial_models.h"

#include "mc/exec/chooser.h"
#include "mc/symbolic/model_state.h"
#include "mc/symbolic/sym_config.h"
#include "mc/symbolic/transfer.h"

namespace tandem::symbolic {

namespace {

// The transfer relation's policy for the initial state: inputs are fresh symbols, and the terms
// whose values tell two initial states apart (scalar inputs, the elements of fixed-length array
// inputs) are collected.
class InputPolicy final : public TransferPolicy {
 public:
  explicit InputPolicy(const SymEvaluator& sev) : sev_(sev) {}
  bool feasible(SymState&) override { return true; }
  // A failing initialiser: the inputs under which it fails.
  void fail(const SymState& s, ExprRef bad, const exec::ExecError& e, ir::EdgeId) override {
    std::vector<ExprRef> when = s.pathCond;
    when.push_back(bad);
    failures.emplace_back(std::move(when), e);
  }
  SymValue input(SymState&, InputKind, TypeRef t, const std::string& name) override {
    ExprRef symbol = nullptr;
    SymValue v = sev_.freshInput(t, name, symbol);
    if (isScalarType(t)) {
      terms.push_back(symbol);
    } else if (t->isFixedArray() && isScalarType(t->elem)) {
      for (int64_t i = 0; i < t->length; ++i)
        terms.push_back(sev_.element(v, sev_.exprs().intConst(BigInt(i)), t->elem).expr);
    } else {
      unsupported = "an input of type " + typeToString(t) + " ('" + name + "')";
    }
    return v;
  }
  void successor(SymState&&, ir::EdgeId) override {}
  void returned(const SymState&, ir::EdgeId) override {}

  std::vector<ExprRef> terms;
  std::string unsupported;
  std::vector<std::pair<std::vector<ExprRef>, exec::ExecError>> failures;

 private:
  const SymEvaluator& sev_;
};

}  // namespace

bool needsInitialModels(const ir::Program& p) {
  if (!p.isClosed()) return false;
  for (const ir::Test& t : p.tests)
    if (t.isState) return false;
  for (ir::VarId g : p.globals) {
    const ir::Variable& v = p.vars[g];
    TypeRef t = v.type->kind == TypeKind::Array ? v.type->elem : v.type;
    if ((!v.init || v.init->op == Op::Star) && t->isIntegral()) return true;
  }
  return false;
}

InitialModels enumerateInitialStates(const ir::Program& p, const exec::Evaluator& ev,
                                     smt::Solver& solver, size_t limit,
                                     std::array<bool, ir::kErrorKinds> tracked) {
  InitialModels out;
  ExprManager& em = *p.exprs;
  SymEvaluator sev(p, ev);
  Transfer transfer(sev, tracked);
  InputPolicy policy(sev);
  SymConfig c;
  const bool starts = transfer.enter(c.st, ir::kNone, policy);
  for (const auto& [when, error] : policy.failures) {
    auto r = solver.check(std::span<const ExprRef>(when));
    if (r.isSat()) {
      out.error = error;
      out.complete = true;
      return out;
    }
    if (!r.isUnsat()) {
      out.reason = "the solver answered unknown about a failing initialiser (" + r.reason + ")";
      return out;
    }
  }
  if (!starts) {
    out.complete = true;  // no initial state: `init` excludes every input
    return out;
  }
  if (!policy.unsupported.empty()) {
    out.reason = policy.unsupported + " in the initial state";
    return out;
  }
  for (const SymThread& th : c.st.threads) c.pcs.push_back(p.cfas[th.cfa].entry);
  exec::ScriptedChooser chooser;
  auto shape = ev.makeInitialState(chooser, exec::Evaluator::Inits::Ignore);
  if (!shape) {
    out.reason = "the initial state: " + shape.error().message;
    return out;
  }
  std::vector<ExprRef> query = c.st.pathCond;
  while (true) {
    auto r = solver.check(std::span<const ExprRef>(query));
    if (r.isUnsat()) {
      out.complete = true;
      return out;
    }
    if (!r.isSat()) {
      out.reason = "the solver answered unknown about the initial states (" + r.reason + ")";
      return out;
    }
    if (out.states.size() == limit) {
      out.reason = "more than " + std::to_string(limit) + " initial states";
      return out;
    }
    const smt::Model& m = solver.model();
    out.states.push_back(concretize(p, c, m, shape.value()));
    // The next model differs in some input.
    ExprRef other = em.falseExpr();
    for (ExprRef x : policy.terms) {
      ExprRef k = sev.fromValue(modelValue(SymValue::scalar(x), x->type, m), x->type).expr;
      other = em.mkOr(other, em.mkNot(em.mkEq(x, k)));
    }
    if (other->isFalse()) {  // no inputs at all: one initial state
      out.complete = true;
      return out;
    }
    query.push_back(other);
  }
}

}  // namespace tandem::symbolic
