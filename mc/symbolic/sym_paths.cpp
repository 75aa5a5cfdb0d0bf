// Ended paths: a minimised model of the path condition gives the concrete inputs (entry or
// initialiser arguments, input globals, havocs, method-call arguments) that replay the path.
#include "mc/smt/minimize_model.h"
#include "mc/smt/smt_error.h"
#include "mc/symbolic/explorer_impl.h"
#include "mc/symbolic/model_state.h"

namespace tandem::symbolic {

namespace {

bool hasCall(ExprRef e) {
  if (e->op == Op::Call) return true;
  for (ExprRef k : e->kids)
    if (hasCall(k)) return true;
  return false;
}

}  // namespace

exec::Value Explorer::modelValue(const smt::Model& m, ExprRef sym) const {
  TypeRef t = sym->type;
  if (t->kind != TypeKind::Array) return modelScalar(t, m.evalInt(sym).value_or(BigInt(0)));
  auto a = m.evalArray(sym);
  BigInt n = a ? a->length : BigInt(0);
  if (t->isFixedArray()) n = BigInt(t->length);
  // Longer only on a path that exceeds the limits (its replay stops there anyway).
  const uint64_t limit = concrete_.limits().maxArrayLength;
  const uint64_t len = n.sign() <= 0 ? 0 : n > BigInt(limit) ? limit : n.toInt64().value_or(0);
  std::vector<exec::Value> xs;
  xs.reserve(len);
  for (uint64_t i = 0; i < len; ++i)
    xs.push_back(modelScalar(t->elem, a ? a->at(BigInt(i)) : BigInt(0)));
  return exec::Value::array(std::move(xs));
}

void Explorer::endPath(const SymState& s, std::optional<exec::ExecError> error,
                       std::optional<ir::EdgeId> lastEdge, bool atEntry) {
  std::vector<ExprRef> terms = paramSyms_;
  for (auto& [name, sym] : globalSyms_) terms.push_back(sym);
  for (ExprRef h : s.havocs) terms.push_back(h);
  for (const SymCall& c : s.calls) terms.insert(terms.end(), c.args.begin(), c.args.end());
  smt::MinimizedModel mm;
  bool exceeds = false;
  try {
    // Inputs a replay can use, within the evaluator's limits, if there are any.
    if (!s.limits.empty()) {
      std::vector<ExprRef> within = s.certificate ? *s.certificate : s.pathCond;
      within.insert(within.end(), s.limits.begin(), s.limits.end());
      mm = minimizeOver(solver_, em_, within, terms, pcs_.knownModel(within).get());
      exceeds = !mm.model;
    }
    if (!mm.model) mm = pcs_.inputs(s.pathCond, s.certificate, terms);
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
    end.args.push_back(modelValue(*mm.model, paramSyms_[i]));
    end.inputs.emplace_back(p_.vars[cfa.params[i]].name, end.args.back());
  }
  for (auto& [name, sym] : globalSyms_) {
    end.script.push_back(modelValue(*mm.model, sym));
    end.inputs.emplace_back(name, end.script.back());
  }
  for (size_t i = 0; i < s.havocs.size(); ++i) {
    end.script.push_back(modelValue(*mm.model, s.havocs[i]));
    end.inputs.emplace_back("havoc#" + std::to_string(i + 1), end.script.back());
  }
  for (const SymCall& c : s.calls) {
    CallInputs ci{c.method, {}, c.pathStart};
    for (ExprRef a : c.args) ci.args.push_back(modelValue(*mm.model, a));
    end.calls.push_back(std::move(ci));
  }
  for (ExprRef c : s.pathCond) end.usesUninterpreted = end.usesUninterpreted || hasCall(c);
  end.exceedsLimits = exceeds;
  end.pathCond = s.pathCond;
  end.pathCondAt = s.pathCondAt;
  end.pathCondAt.resize(end.pathCond.size(), static_cast<uint32_t>(s.path.size()));
  end.error = std::move(error);
  end.errorAtEntry = atEntry && end.error.has_value();
  if (o_.endFilter && !o_.endFilter->keep(end)) return;
  const bool isError = end.error.has_value();
  r_.ends.push_back(std::move(end));
  if (isError && o_.stopAtError) stop_ = true;
  if (o_.endFilter && !o_.endFilter->enough().empty()) stop_ = true;
}

}  // namespace tandem::symbolic
