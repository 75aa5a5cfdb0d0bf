// Builds small IR programs by hand, for unit tests and benchmarks of the engines (real programs
// come from the lowering). It keeps the bookkeeping the IR expects consistent: variable slots,
// location and edge ids, out-edge lists, entry and exit locations, callee numbering.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mc/expr/expr.h"
#include "mc/ir/program.h"

namespace tandem::exec {

class ProgramBuilder {
 public:
  ProgramBuilder();

  ir::Program& program() { return *program_; }
  TypeTable& types() { return *program_->types; }
  ExprManager& exprs() { return *program_->exprs; }
  std::unique_ptr<ir::Program> take() { return std::move(program_); }

  // --- Declarations. ---
  ir::VarId global(const std::string& name, TypeRef type, ExprRef init = nullptr);
  // A CFA with its entry and exit locations.
  ir::CfaId cfa(const std::string& name, ir::CfaKind kind = ir::CfaKind::Proc,
                TypeRef returnType = nullptr);
  // A process CFA (added to Program::processes) and the rule-set CFA (Program::rules).
  ir::CfaId process(const std::string& name, uint32_t instances = 1);
  ir::CfaId rules();
  // Parameters must be declared before the other locals (they take the first slots).
  ir::VarId param(ir::CfaId cfa, const std::string& name, TypeRef type);
  // The hidden local receiving `return e` (made on first use, after the parameters).
  ir::VarId result(ir::CfaId cfa);
  ir::VarId local(ir::CfaId cfa, const std::string& name, TypeRef type);
  ir::VarId processLocal(ir::CfaId process, const std::string& name, TypeRef type,
                         ExprRef init = nullptr);
  // A class (its type, an init CFA) and its fields and methods.
  uint32_t classDecl(const std::string& name);
  ir::VarId field(uint32_t cls, const std::string& name, TypeRef type, ExprRef init = nullptr);
  ir::CfaId method(uint32_t cls, const std::string& name, TypeRef returnType = nullptr);
  void invariant(const std::string& name, ExprRef e, SourceLoc loc = {});
  // Callee numbers for Op::Call.
  uint32_t nativeCallee(const std::string& name, std::vector<TypeRef> params, TypeRef returnType);
  uint32_t procCallee(ir::CfaId cfa);

  // --- Control flow. ---
  ir::LocId loc(ir::CfaId cfa, const std::string& label = "");
  ir::LocId entry(ir::CfaId cfa) const { return program_->cfas[cfa].entry; }
  ir::LocId exit(ir::CfaId cfa) const { return program_->cfas[cfa].exit; }
  ir::EdgeId command(ir::LocId from, ir::LocId to, ExprRef guard,
                     std::vector<ir::Assignment> assigns = {}, SourceLoc loc = {});
  ir::EdgeId assertion(ir::LocId from, ir::LocId to, ExprRef cond, SourceLoc loc = {},
                       ir::ErrorKind kind = ir::ErrorKind::Assert);
  ir::EdgeId call(ir::LocId from, ir::LocId to, ir::CfaId callee, std::vector<ExprRef> args,
                  ExprRef result = nullptr, SourceLoc loc = {});
  ir::EdgeId ret(ir::CfaId cfa);  // the Return edge leaving the exit location
  // `resultVar := e` then to the exit: what `return e;` lowers to.
  ir::EdgeId returnValue(ir::LocId from, ir::CfaId cfa, ExprRef e, SourceLoc loc = {});

  // --- Expressions (types inferred where the operator determines them). ---
  ExprRef v(ir::VarId var);
  ExprRef num(int64_t value, TypeRef type = nullptr);
  ExprRef big(const BigInt& value, TypeRef type = nullptr);
  ExprRef boolean(bool b) { return exprs().boolConst(b); }
  ExprRef op(Op op, std::vector<ExprRef> kids, uint32_t payload = 0);
  ExprRef callExpr(uint32_t callee, std::vector<ExprRef> args);
  ExprRef star(TypeRef type);

 private:
  std::unique_ptr<ir::Program> program_;
};

}  // namespace tandem::exec
