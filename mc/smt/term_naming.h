// How the SMT layer names the free constants and functions it declares: symbolic values by their
// ExprManager names, variables (Op::Var) and callees (Op::Call) by callbacks the caller provides,
// since only the IR knows what a variable or callee id means.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "mc/expr/expr.h"

namespace tandem::ir {
struct Program;
}

namespace tandem::smt {

struct TermNaming {
  std::function<std::string(uint32_t)> symbol;  // Op::Symbol payload; default "s<id>"
  std::function<std::string(uint32_t)> var;     // Op::Var payload; default "v<id>"
  std::function<std::string(uint32_t)> callee;  // Op::Call payload; default "f<id>"

  std::string symbolName(uint32_t id) const;
  std::string varName(uint32_t id) const;
  std::string calleeName(uint32_t id) const;
  // The name of a Symbol or Var leaf.
  std::string leafName(ExprRef leaf) const;
};

// Symbols named by `exprs` (which must outlive the naming); variables "v<id>", callees "f<id>".
TermNaming exprNaming(const ExprManager& exprs);
// As exprNaming(*program.exprs), with variables named "<name>@<id>" and callees by the native's or
// procedure's name. The program must outlive the naming.
TermNaming programNaming(const ir::Program& program);

}  // namespace tandem::smt
