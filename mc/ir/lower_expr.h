// Internal to lowering: the shared state of phase 2 (variables, callees, labels) and the
// translation of checked AST expressions to hash-consed IR expressions.
#pragma once

#include <map>
#include <string>
#include <unordered_map>

#include "mc/ir/channels.h"
#include "mc/ir/lower_impl.h"

namespace tandem::lower {

class ExprLowerer {
 public:
  explicit ExprLowerer(ir::Program& p) : prog_(p), em_(*p.exprs) {}

  ExprRef lower(const ast::Expr& e);
  ExprRef lowerConstant(const ast::Expr& e) { return lower(e); }

  // Registration, filled while lowering declarations.
  std::unordered_map<const ast::VarInfo*, ir::VarId> varIds;
  std::map<std::string, uint32_t> processIndex;  // name -> index in processes
  std::map<std::string, std::map<std::string, ir::LocId>> processLabels;  // per process
  std::map<std::string, ir::CfaId> procCfa;                               // procedures by name
  std::map<std::string, std::map<std::string, ir::CfaId>> methodCfa;      // class -> method -> CFA
  std::map<std::string, uint32_t> nativeIndex;  // declared natives by name
  const std::string* currentClass = nullptr;
  const ir::ChannelLowering* channels = nullptr;  // len/empty/full of a channel

  uint32_t calleeFor(bool native, uint32_t index);
  uint32_t nativeFor(const std::string& name, const std::vector<TypeRef>& params, TypeRef ret);

 private:
  ExprRef lowerCall(const ast::Expr& e);
  ExprRef lowerProcessRef(const ast::Expr& base, uint32_t& process);
  ir::Program& prog_;
  ExprManager& em_;
  std::map<std::pair<bool, uint32_t>, uint32_t> callees_;
};

}  // namespace tandem::lower
