#include "mc/smt/term_naming.h"

#include "mc/ir/program.h"

namespace tandem::smt {

std::string TermNaming::symbolName(uint32_t id) const {
  return symbol ? symbol(id) : "s" + std::to_string(id);
}
std::string TermNaming::varName(uint32_t id) const {
  return var ? var(id) : "v" + std::to_string(id);
}
std::string TermNaming::calleeName(uint32_t id) const {
  return callee ? callee(id) : "f" + std::to_string(id);
}
std::string TermNaming::leafName(ExprRef leaf) const {
  return leaf->op == Op::Symbol ? symbolName(leaf->payload) : varName(leaf->payload);
}

TermNaming exprNaming(const ExprManager& exprs) {
  TermNaming n;
  n.symbol = [&exprs](uint32_t id) {
    return id < exprs.symbolCount() ? exprs.symbolName(id) : "s" + std::to_string(id);
  };
  return n;
}

TermNaming programNaming(const ir::Program& program) {
  TermNaming n = exprNaming(*program.exprs);
  // Variables of different procedures may share a name; the id keeps the constants apart.
  n.var = [&program](uint32_t id) {
    if (id >= program.vars.size()) return "v" + std::to_string(id);
    return program.vars[id].name + "@" + std::to_string(id);
  };
  n.callee = [&program](uint32_t id) {
    if (id >= program.callees.size()) return "f" + std::to_string(id);
    const ir::Callee& c = program.callees[id];
    if (c.native && c.index < program.natives.size()) return program.natives[c.index].name;
    if (!c.native && c.index < program.cfas.size()) return program.cfas[c.index].name;
    return "f" + std::to_string(id);
  };
  return n;
}

}  // namespace tandem::smt
