#include "testgen/forest.h"

#include <algorithm>

namespace tandem::testgen {

Forest::Forest(symbolic::SymEvaluator& sev, const symbolic::Transfer& transfer,
               search::Budget& budget, ir::CfaId entry, std::vector<bool> summarised)
    : p_(sev.program()),
      em_(sev.exprs()),
      sev_(sev),
      transfer_(transfer),
      budget_(budget),
      entry_(entry),
      summarised_(std::move(summarised)),
      trees_(p_.cfas.size()) {
  summarised_.resize(p_.cfas.size(), false);
  summarised_[entry] = false;
}

bool Forest::anySummarised() const {
  return std::find(summarised_.begin(), summarised_.end(), true) != summarised_.end();
}

ExecTree& Forest::tree(ir::CfaId c) {
  if (!trees_[c]) trees_[c] = std::make_unique<ExecTree>(c);
  return *trees_[c];
}

const symbolic::SymValue& Forest::param(ir::CfaId c, size_t i) {
  auto it = params_.find({c, i});
  if (it != params_.end()) return it->second;
  const ir::Variable& v = p_.vars[p_.cfas[c].params[i]];
  ExprRef symbol = nullptr;
  symbolic::SymValue x = sev_.freshInput(v.type, p_.cfas[c].name + "." + v.name, symbol);
  return params_.emplace(std::make_pair(c, i), std::move(x)).first->second;
}

ExprRef Forest::result(ir::CfaId caller, uint32_t ordinal, ir::EdgeId edge, TypeRef t) {
  auto [it, fresh] = results_.try_emplace({caller, ordinal, edge}, nullptr);
  if (fresh)
    it->second = em_.freshSymbol(p_.cfas[caller].name + ".call" + std::to_string(ordinal + 1), t);
  return it->second;
}

symbolic::SymValue Forest::input(symbolic::InputKind kind, size_t index, const std::string& name,
                                 TypeRef t, ExprRef& symbol) {
  auto it = inputs_.find({kind, index});
  if (it == inputs_.end()) {
    ExprRef s = nullptr;
    symbolic::SymValue v = sev_.freshInput(t, name, s);
    it = inputs_.emplace(std::make_pair(kind, index), std::make_pair(std::move(v), s)).first;
  }
  symbol = it->second.second;
  return it->second.first;
}

std::vector<std::pair<ExprRef, symbolic::SymValue>> Forest::inputs() const {
  std::vector<std::pair<ExprRef, symbolic::SymValue>> out;
  for (const auto& [key, v] : inputs_) out.emplace_back(v.second, v.first);
  return out;
}

}  // namespace tandem::testgen
