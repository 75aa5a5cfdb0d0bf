#include "mc/exec/program_builder.h"

#include <cassert>

namespace tandem::exec {

ProgramBuilder::ProgramBuilder() : program_(std::make_unique<ir::Program>()) {
  program_->file = "<built>";
  program_->types = std::make_unique<TypeTable>();
  program_->exprs = std::make_unique<ExprManager>(*program_->types);
}

ir::VarId ProgramBuilder::global(const std::string& name, TypeRef type, ExprRef init) {
  const auto slot = static_cast<uint32_t>(program_->globals.size());
  ir::VarId id = program_->addVariable(name, type, ir::VarScope::Global, ir::kNone, slot);
  program_->vars[id].init = init;
  program_->globals.push_back(id);
  return id;
}

ir::CfaId ProgramBuilder::cfa(const std::string& name, ir::CfaKind kind, TypeRef returnType) {
  const ir::CfaId id = static_cast<ir::CfaId>(program_->cfas.size());
  ir::Cfa c;
  c.name = name;
  c.kind = kind;
  c.returnType = returnType;
  program_->cfas.push_back(std::move(c));
  ir::LocId en = loc(id), ex = loc(id);
  program_->cfas[id].entry = en;
  program_->cfas[id].exit = ex;
  program_->locs[en].isEntry = true;
  program_->locs[ex].isExit = true;
  return id;
}

ir::CfaId ProgramBuilder::process(const std::string& name, uint32_t instances) {
  ir::CfaId id = cfa(name, ir::CfaKind::Process);
  program_->cfas[id].instances = instances;
  program_->processes.push_back(id);
  return id;
}

ir::CfaId ProgramBuilder::rules() {
  ir::CfaId id = cfa("rules", ir::CfaKind::Rules);
  program_->rules = id;
  return id;
}

ir::VarId ProgramBuilder::param(ir::CfaId c, const std::string& name, TypeRef type) {
  [[maybe_unused]] ir::Cfa& cfa = program_->cfas[c];
  assert(cfa.locals.size() == cfa.params.size() &&
         "ProgramBuilder: declare parameters first (before locals and the result)");
  ir::VarId id = local(c, name, type);
  program_->vars[id].isParam = true;
  program_->cfas[c].params.push_back(id);
  return id;
}

ir::VarId ProgramBuilder::result(ir::CfaId c) {
  if (program_->cfas[c].resultVar != ir::kNone) return program_->cfas[c].resultVar;
  assert(program_->cfas[c].returnType && "ProgramBuilder::result of a CFA without a return type");
  ir::VarId r = local(c, "result", program_->cfas[c].returnType);
  program_->vars[r].hidden = true;
  program_->cfas[c].resultVar = r;
  return r;
}

ir::VarId ProgramBuilder::local(ir::CfaId c, const std::string& name, TypeRef type) {
  const auto slot = static_cast<uint32_t>(program_->cfas[c].locals.size());
  ir::VarId id = program_->addVariable(name, type, ir::VarScope::Local, c, slot);
  program_->cfas[c].locals.push_back(id);
  return id;
}

ir::VarId ProgramBuilder::processLocal(ir::CfaId p, const std::string& name, TypeRef type,
                                       ExprRef init) {
  const auto slot = static_cast<uint32_t>(program_->cfas[p].processLocals.size());
  ir::VarId id = program_->addVariable(name, type, ir::VarScope::ProcessLocal, p, slot);
  program_->vars[id].init = init;
  program_->cfas[p].processLocals.push_back(id);
  return id;
}

uint32_t ProgramBuilder::classDecl(const std::string& name) {
  const uint32_t index = static_cast<uint32_t>(program_->classes.size());
  ir::ClassInfo info;
  info.name = name;
  info.type = types().classType(name);
  program_->classes.push_back(std::move(info));
  ir::CfaId init = cfa(name + ".init", ir::CfaKind::ClassInit);
  program_->cfas[init].classIndex = index;
  program_->classes[index].init = init;
  return index;
}

ir::VarId ProgramBuilder::field(uint32_t cls, const std::string& name, TypeRef type, ExprRef init) {
  ir::ClassInfo& info = program_->classes[cls];
  Type* t = types().classType(info.name);
  t->fields.emplace_back(name, type);
  const auto slot = static_cast<uint32_t>(info.fields.size());
  ir::VarId id = program_->addVariable(name, type, ir::VarScope::Field, cls, slot);
  program_->vars[id].init = init;
  program_->classes[cls].fields.push_back(id);
  return id;
}

ir::CfaId ProgramBuilder::method(uint32_t cls, const std::string& name, TypeRef returnType) {
  ir::CfaId id = cfa(program_->classes[cls].name + "." + name, ir::CfaKind::Method, returnType);
  program_->cfas[id].classIndex = cls;
  program_->classes[cls].methods.push_back(id);
  return id;
}

void ProgramBuilder::invariant(const std::string& name, ExprRef e, SourceLoc loc) {
  program_->invariants.push_back(ir::Property{name, e, loc});
}

uint32_t ProgramBuilder::nativeCallee(const std::string& name, std::vector<TypeRef> params,
                                      TypeRef returnType) {
  ir::Native n;
  n.name = name;
  n.params = std::move(params);
  n.returnType = returnType;
  program_->natives.push_back(std::move(n));
  program_->callees.push_back(
      ir::Callee{true, static_cast<uint32_t>(program_->natives.size() - 1)});
  return static_cast<uint32_t>(program_->callees.size() - 1);
}

uint32_t ProgramBuilder::procCallee(ir::CfaId c) {
  program_->callees.push_back(ir::Callee{false, c});
  return static_cast<uint32_t>(program_->callees.size() - 1);
}

ir::LocId ProgramBuilder::loc(ir::CfaId c, const std::string& label) {
  ir::Location l;
  l.id = static_cast<ir::LocId>(program_->locs.size());
  l.cfa = c;
  if (!label.empty()) l.labels.push_back(label);
  program_->locs.push_back(std::move(l));
  program_->cfas[c].locs.push_back(program_->locs.back().id);
  return program_->locs.back().id;
}

namespace {
ir::EdgeId addEdge(ir::Program& p, ir::Edge e) {
  const ir::EdgeId id = static_cast<ir::EdgeId>(p.edges.size());
  p.locs[e.from].out.push_back(id);
  p.edges.push_back(std::move(e));
  return id;
}

ir::Edge edgeOf(ir::EdgeKind kind, ir::LocId from, ir::LocId to, SourceLoc loc) {
  ir::Edge e;
  e.kind = kind;
  e.from = from;
  e.to = to;
  e.loc = loc;
  return e;
}
}  // namespace

ir::EdgeId ProgramBuilder::command(ir::LocId from, ir::LocId to, ExprRef guard,
                                   std::vector<ir::Assignment> assigns, SourceLoc loc) {
  ir::Edge e = edgeOf(ir::EdgeKind::Command, from, to, loc);
  e.guard = guard;
  e.assigns = std::move(assigns);
  return addEdge(*program_, std::move(e));
}

ir::EdgeId ProgramBuilder::assertion(ir::LocId from, ir::LocId to, ExprRef cond, SourceLoc loc,
                                     ir::ErrorKind kind) {
  ir::Edge e = edgeOf(ir::EdgeKind::Assert, from, to, loc);
  e.cond = cond;
  e.errorKind = kind;
  return addEdge(*program_, std::move(e));
}

ir::EdgeId ProgramBuilder::call(ir::LocId from, ir::LocId to, ir::CfaId callee,
                                std::vector<ExprRef> args, ExprRef result, SourceLoc loc) {
  ir::Edge e = edgeOf(ir::EdgeKind::Call, from, to, loc);
  e.callee = callee;
  e.args = std::move(args);
  e.result = result;
  program_->locs[from].callSite = true;
  program_->locs[to].afterCall = true;
  return addEdge(*program_, std::move(e));
}

ir::EdgeId ProgramBuilder::ret(ir::CfaId c) {
  ir::Edge e;
  e.kind = ir::EdgeKind::Return;
  e.from = exit(c);
  return addEdge(*program_, std::move(e));
}

ir::EdgeId ProgramBuilder::returnValue(ir::LocId from, ir::CfaId c, ExprRef value, SourceLoc loc) {
  return command(from, exit(c), nullptr, {{v(result(c)), value}}, loc);
}

ExprRef ProgramBuilder::v(ir::VarId var) { return exprs().var(var, program_->vars[var].type); }

ExprRef ProgramBuilder::num(int64_t value, TypeRef type) { return big(BigInt(value), type); }

ExprRef ProgramBuilder::big(const BigInt& value, TypeRef type) {
  return exprs().intConst(value, type);
}

ExprRef ProgramBuilder::op(Op o, std::vector<ExprRef> kids, uint32_t payload) {
  TypeRef t = kids.empty() ? types().intType() : kids[0]->type;
  if (isConnective(o) || isComparison(o))
    return exprs().mk(o, types().boolType(), std::move(kids), payload);
  switch (o) {
    case Op::NoOverflowAdd:
    case Op::NoOverflowMul:
    case Op::AtLoc:
      t = types().boolType();
      break;
    case Op::Len:
      t = types().intType();
      break;
    case Op::Select:
    case Op::Deref:
      t = kids[0]->type->elem;
      break;
    case Op::AddrOf:
      t = types().refTo(kids[0]->type);
      break;
    case Op::Field:
      t = kids[0]->type->fields[payload].second;
      break;
    case Op::Ite:
      t = kids[1]->type;
      break;
    case Op::ArrayLit:
      t = types().arrayOf(kids[0]->type, static_cast<int64_t>(kids.size()));
      break;
    default:
      break;
  }
  return exprs().mk(o, t, std::move(kids), payload);
}

ExprRef ProgramBuilder::callExpr(uint32_t callee, std::vector<ExprRef> args) {
  const ir::Callee& c = program_->callees[callee];
  TypeRef t = c.native ? program_->natives[c.index].returnType : program_->cfas[c.index].returnType;
  return exprs().mk(Op::Call, t, std::move(args), callee);
}

ExprRef ProgramBuilder::star(TypeRef type) { return exprs().mk(Op::Star, type, {}); }

}  // namespace tandem::exec
