#include "mc/search/compiled/compiled_compiler.h"

#include <algorithm>
#include <cstdint>

#include "mc/ir/edge_exprs.h"

namespace tandem::search {

namespace {

bool isScalar(TypeRef t) {
  return t && (t->kind == TypeKind::Int || t->kind == TypeKind::Bool || t->kind == TypeKind::Enum);
}
bool isInt(TypeRef t) { return t && t->kind == TypeKind::Int; }

// Where an lvalue lives: a slot known at compile time (absolute, or relative to the running
// thread's base), or one computed at run time and left on the stack.
struct Addr {
  enum Kind { Abs, Rel, Dyn } kind = Abs;
  int64_t off = 0;
};

class Compiler {
 public:
  Compiler(const ir::Program& p, const SlotLayout& l, CompiledProgram& out)
      : p_(p), l_(l), out_(out) {}

  // Code that pushes the value of scalar `e`, run by a thread of `cfa` (kNone: no thread).
  bool value(ExprRef e, ir::CfaId cfa, Code& c);
  // Code for the assignments of `edge`, run by a thread of `cfa`.
  bool effects(const ir::Edge& edge, ir::CfaId cfa, Code& c);
  void finish(Code& c) {
    emit(c, Opc::Ret);
    out_.maxStack = std::max(out_.maxStack, c.maxStack);
    depth_ = 0;
    jumpTarget_ = SIZE_MAX;
  }
  std::string why;

 private:
  bool fail(const std::string& w) {
    if (why.empty()) why = w;
    return false;
  }
  bool address(ExprRef e, ir::CfaId cfa, Code& c, Addr& a);
  void materialize(const Addr& a, Code& c);
  bool instance(ExprRef e, ir::CfaId process, ir::CfaId cfa, Code& c, Addr& a, int64_t off);
  bool binary(ExprRef e, ir::CfaId cfa, Code& c, Opc op);
  bool table(ExprRef e, ir::CfaId cfa, Code& c);  // a literal table indexed by a value
  size_t emit(Code& c, Opc op, int32_t a = 0, int64_t b = 0);
  void patch(Code& c, size_t at) {
    c.ins[at].a = static_cast<int32_t>(c.ins.size());
    jumpTarget_ = c.ins.size();
  }

  const ir::Program& p_;
  const SlotLayout& l_;
  CompiledProgram& out_;
  int depth_ = 0;                 // stack depth at the end of the code emitted so far
  size_t jumpTarget_ = SIZE_MAX;  // the last position a jump was made to land on
};

size_t Compiler::emit(Code& c, Opc op, int32_t a, int64_t b) {
  // `Const k; op` becomes `opK k` unless a jump lands between them.
  static constexpr std::pair<Opc, Opc> kFold[] = {
      {Opc::Add, Opc::AddK}, {Opc::Sub, Opc::SubK}, {Opc::Mul, Opc::MulK},
      {Opc::Eq, Opc::EqK},   {Opc::Ne, Opc::NeK},   {Opc::Lt, Opc::LtK},
      {Opc::Le, Opc::LeK},   {Opc::Gt, Opc::GtK},   {Opc::Ge, Opc::GeK}};
  if (!c.ins.empty() && c.ins.back().op == Opc::Const && jumpTarget_ != c.ins.size())
    for (auto [from, to] : kFold)
      if (from == op) {
        c.ins.back().op = to;
        --depth_;
        return c.ins.size() - 1;
      }
  switch (op) {
    case Opc::Const:
    case Opc::Load:
    case Opc::LoadMsg:
    case Opc::LoadT:
    case Opc::AddrT:
    case Opc::Pid:
    case Opc::PcEq:
      ++depth_;
      break;
    case Opc::AddU:
    case Opc::IndexAdd:
    case Opc::Drop:
    case Opc::StoreA:
    case Opc::StoreT:
    case Opc::Add:
    case Opc::Sub:
    case Opc::Mul:
    case Opc::Div:
    case Opc::Mod:
    case Opc::Min:
    case Opc::Max:
    case Opc::Eq:
    case Opc::Ne:
    case Opc::Lt:
    case Opc::Le:
    case Opc::Gt:
    case Opc::Ge:
    case Opc::Jz:
    case Opc::JzKeep:  // falling through pops; the jump keeps what the other path pushes
    case Opc::JnzKeep:
      --depth_;
      break;
    case Opc::Store:
      depth_ -= 2;
      break;
    case Opc::StoreN:
      depth_ -= 2 * a;
      break;
    default:
      break;
  }
  c.maxStack = std::max(c.maxStack, static_cast<unsigned>(std::max(depth_, 0)) + 1);
  c.ins.push_back(Ins{op, a, b});
  return c.ins.size() - 1;
}

void Compiler::materialize(const Addr& a, Code& c) {
  if (a.kind == Addr::Abs) emit(c, Opc::Const, 0, a.off);
  if (a.kind == Addr::Rel) emit(c, Opc::AddrT, static_cast<int32_t>(a.off));
}

// The thread of instance `e` (null: 0) of `process`, as Abs (constant in range) or Dyn, with
// `off` added: the reference's processRef, including its bound check.
bool Compiler::instance(ExprRef e, ir::CfaId process, ir::CfaId cfa, Code& c, Addr& a,
                        int64_t off) {
  const SlotLayout::CfaInfo& info = l_.cfa(process);
  if (info.instances == 0 || process == p_.rules)
    return fail("a process operator on a non-process");
  const int64_t base = l_.thread(info.firstThread).base + off;
  if (!e) {
    a = {Addr::Abs, base};
    return true;
  }
  if (!isInt(e->type)) return fail("a process instance that is not an int");
  if (e->op == Op::IntConst) {
    auto k = e->value.toInt64();
    if (k && *k >= 0 && *k < info.instances) {
      a = {Addr::Abs, base + *k * info.size};
      return true;
    }
  }
  if (!value(e, cfa, c)) return false;
  out_.names.push_back(p_.cfas[process].name);
  emit(c, Opc::Inst, static_cast<int32_t>(info.instances),
       static_cast<int64_t>(out_.names.size() - 1));
  emit(c, Opc::SlotMulK, 0, info.size);
  emit(c, Opc::SlotAddK, 0, base);
  a = {Addr::Dyn, 0};
  return true;
}

bool Compiler::address(ExprRef e, ir::CfaId cfa, Code& c, Addr& a) {
  switch (e->op) {
    case Op::Var: {
      if (e->payload >= p_.vars.size()) return fail("an unknown variable");
      const ir::Variable& v = p_.vars[e->payload];
      if (v.scope == ir::VarScope::Global) {
        a = {Addr::Abs, l_.offsetOf(e->payload)};
        return true;
      }
      if ((v.scope == ir::VarScope::ProcessLocal || v.scope == ir::VarScope::Local) &&
          cfa != ir::kNone && v.owner == cfa) {
        a = {Addr::Rel, l_.offsetOf(e->payload)};
        return true;
      }
      return fail("variable '" + v.name + "' outside its process");
    }
    case Op::ProcLocal: {
      auto id = e->value.toInt64();
      if (!id || *id < 0 || static_cast<size_t>(*id) >= p_.vars.size())
        return fail("a bad process-local variable");
      const ir::Variable& v = p_.vars[static_cast<size_t>(*id)];
      if (v.scope != ir::VarScope::ProcessLocal) return fail("P.v of a non-process variable");
      return instance(e->kids.empty() ? nullptr : e->kid(0), v.owner, cfa, c, a,
                      l_.offsetOf(static_cast<ir::VarId>(*id)));
    }
    case Op::Select: {
      TypeRef at = e->kid(0)->type;
      if (!at || !at->isFixedArray() || !slotType(at)) return fail("indexing a non-fixed array");
      if (!isInt(e->kid(1)->type)) return fail("an index that is not an int");
      Addr base;
      if (!address(e->kid(0), cfa, c, base)) return false;
      const int64_t stride = slotCount(at->elem);
      ExprRef idx = e->kid(1);
      if (base.kind != Addr::Dyn && idx->op == Op::IntConst) {
        auto k = idx->value.toInt64();
        if (k && *k >= 0 && *k < at->length) {
          a = {base.kind, base.off + *k * stride};
          return true;
        }
      }
      materialize(base, c);
      if (!value(idx, cfa, c)) return false;
      emit(c, Opc::IndexAdd, static_cast<int32_t>(at->length), stride);
      a = {Addr::Dyn, 0};
      return true;
    }
    default:
      return fail(std::string("operator ") + opName(e->op) + " as an array or lvalue");
  }
}

bool Compiler::table(ExprRef e, ir::CfaId cfa, Code& c) {
  // A literal table indexed by a value: only 2^0, 2^1, ..., which the DVE import builds for
  // shifts by a variable amount (mc/dve/lower_bits.cpp).
  const auto& xs = e->kid(0)->kids;
  if (xs.empty() || xs.size() > 62) return fail("indexing an array literal");
  for (size_t k = 0; k < xs.size(); ++k)
    if (xs[k]->op != Op::IntConst || xs[k]->value != BigInt(int64_t{1} << k))
      return fail("indexing an array literal other than 2^0, 2^1, ...");
  if (!isInt(e->kid(1)->type)) return fail("an index that is not an int");
  if (!value(e->kid(1), cfa, c)) return false;
  emit(c, Opc::Pow2, static_cast<int32_t>(xs.size()));
  return true;
}

bool Compiler::binary(ExprRef e, ir::CfaId cfa, Code& c, Opc op) {
  if (!value(e->kid(0), cfa, c) || !value(e->kid(1), cfa, c)) return false;
  emit(c, op);
  return true;
}

bool Compiler::value(ExprRef e, ir::CfaId cfa, Code& c) {
  if (!isScalar(e->type)) return fail("a value of type " + typeToString(e->type));
  switch (e->op) {
    case Op::IntConst: {
      auto v = e->value.toInt64();
      if (!v) return fail("a constant beyond 64 bits");
      emit(c, Opc::Const, 0, *v);
      return true;
    }
    case Op::BoolConst:
      emit(c, Opc::Const, 0, e->value.sign() != 0 ? 1 : 0);
      return true;
    case Op::EnumConst:
      emit(c, Opc::Const, 0, e->payload);
      return true;
    case Op::Received:
      emit(c, Opc::LoadMsg, static_cast<int32_t>(e->payload));
      return true;
    case Op::Select:
      if (e->kid(0)->op == Op::ArrayLit) return table(e, cfa, c);
      [[fallthrough]];
    case Op::Var:
    case Op::ProcLocal: {
      Addr a;
      if (!address(e, cfa, c, a)) return false;
      if (a.kind == Addr::Abs) emit(c, Opc::Load, static_cast<int32_t>(a.off));
      if (a.kind == Addr::Rel) emit(c, Opc::LoadT, static_cast<int32_t>(a.off));
      if (a.kind == Addr::Dyn) emit(c, Opc::LoadDyn);
      return true;
    }
    case Op::Pid:
      if (cfa == ir::kNone || !isInt(e->type)) return fail("pid outside a process");
      emit(c, Opc::Pid);
      return true;
    case Op::AtLoc: {
      auto loc = e->value.toInt64();
      if (!loc || *loc < 0 || static_cast<size_t>(*loc) >= p_.locs.size())
        return fail("a bad location");
      const ir::Location& l = p_.locs[static_cast<size_t>(*loc)];
      Addr a;
      if (!instance(e->kids.empty() ? nullptr : e->kid(0), l.cfa, cfa, c, a, 0)) return false;
      const int64_t idx = l_.locIndex(l.id);
      if (a.kind == Addr::Abs) {
        emit(c, Opc::PcEq, static_cast<int32_t>(a.off), idx);
      } else {
        emit(c, Opc::LoadDyn);
        emit(c, Opc::Const, 0, idx);
        emit(c, Opc::Eq);
      }
      return true;
    }
    case Op::Len: {
      TypeRef at = e->kid(0)->type;
      if (!at || !at->isFixedArray() || !isInt(e->type)) return fail("len of a non-fixed array");
      Addr a;  // evaluated for its errors (an index out of bounds on the way)
      if (!address(e->kid(0), cfa, c, a)) return false;
      if (a.kind == Addr::Dyn) emit(c, Opc::Drop);
      emit(c, Opc::Const, 0, at->length);
      return true;
    }
    case Op::Not:
      if (!value(e->kid(0), cfa, c)) return false;
      emit(c, Opc::Not);
      return true;
    case Op::Neg:
    case Op::Abs:
      if (!isInt(e->type) || !value(e->kid(0), cfa, c)) return fail("- or abs of a non-int");
      emit(c, e->op == Op::Neg ? Opc::Neg : Opc::Abs);
      return true;
    case Op::Cast:
      if (!isInt(e->type) || !isInt(e->kid(0)->type)) return fail("a cast to or from i32/i64");
      return value(e->kid(0), cfa, c);
    case Op::And:
    case Op::Or:
    case Op::Implies: {
      if (!value(e->kid(0), cfa, c)) return false;
      if (e->op == Op::Implies) emit(c, Opc::Not);
      size_t j = emit(c, e->op == Op::And ? Opc::JzKeep : Opc::JnzKeep);
      if (!value(e->kid(1), cfa, c)) return false;
      patch(c, j);
      return true;
    }
    case Op::Ite: {
      if (!value(e->kid(0), cfa, c)) return false;
      size_t jElse = emit(c, Opc::Jz);
      const int d = depth_;
      if (!value(e->kid(1), cfa, c)) return false;
      size_t jEnd = emit(c, Opc::Jmp);
      patch(c, jElse);
      depth_ = d;
      if (!value(e->kid(2), cfa, c)) return false;
      patch(c, jEnd);
      return true;
    }
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Mod:
    case Op::Min:
    case Op::Max: {
      if (!isInt(e->kid(0)->type) || !isInt(e->kid(1)->type)) return fail("arithmetic on non-int");
      static constexpr std::pair<Op, Opc> kOps[] = {
          {Op::Add, Opc::Add}, {Op::Sub, Opc::Sub}, {Op::Mul, Opc::Mul}, {Op::Div, Opc::Div},
          {Op::Mod, Opc::Mod}, {Op::Min, Opc::Min}, {Op::Max, Opc::Max}};
      for (auto [op, opc] : kOps)
        if (op == e->op) return binary(e, cfa, c, opc);
      return fail("arithmetic");
    }
    case Op::Eq:
    case Op::Ne:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: {
      TypeRef a = e->kid(0)->type, b = e->kid(1)->type;
      if (!isScalar(a) || !isScalar(b) || a->kind != b->kind)
        return fail("a comparison of non-scalars or of different kinds");
      static constexpr std::pair<Op, Opc> kOps[] = {{Op::Eq, Opc::Eq}, {Op::Ne, Opc::Ne},
                                                    {Op::Lt, Opc::Lt}, {Op::Le, Opc::Le},
                                                    {Op::Gt, Opc::Gt}, {Op::Ge, Opc::Ge}};
      for (auto [op, opc] : kOps)
        if (op == e->op) return binary(e, cfa, c, opc);
      return fail("comparison");
    }
    default:
      return fail(std::string("operator ") + opName(e->op));
  }
}

bool Compiler::effects(const ir::Edge& edge, ir::CfaId cfa, Code& c) {
  for (const ir::Assignment& as : edge.assigns) {
    if (!as.rhs || as.rhs->op == Op::Star) return fail("a nondeterministic assignment");
    if (!isScalar(as.lhs->type) || !isScalar(as.rhs->type) ||
        as.lhs->type->kind != as.rhs->type->kind)
      return fail("an assignment of a non-scalar or between kinds");
    Addr a;
    if (!address(as.lhs, cfa, c, a)) return false;
    // A static slot needs no address on the stack when the store follows at once.
    if (edge.sequential && a.kind != Addr::Dyn) {
      if (!value(as.rhs, cfa, c)) return false;
      emit(c, a.kind == Addr::Abs ? Opc::StoreA : Opc::StoreT, static_cast<int32_t>(a.off));
      continue;
    }
    materialize(a, c);
    if (!value(as.rhs, cfa, c)) return false;
    if (edge.sequential) emit(c, Opc::Store);
  }
  if (!edge.sequential && !edge.assigns.empty())
    emit(c, Opc::StoreN, static_cast<int32_t>(edge.assigns.size()));
  return true;
}

bool starGuard(ExprRef g) {
  return !g || g->op == Op::Star || (g->op == Op::Not && g->kid(0)->op == Op::Star);
}

bool compileCfa(const ir::Program& p, ir::CfaId id, const SlotLayout& layout, Compiler& comp,
                CompiledProgram& out) {
  const ir::Cfa& cfa = p.cfas[id];
  for (ir::LocId l : cfa.locs)
    for (ir::EdgeId eid : p.locs[l].out) {
      const ir::Edge& e = p.edges[eid];
      EdgeCode ec;
      ec.id = eid;
      ec.kind = e.kind;
      if (e.to >= p.locs.size() || p.locs[e.to].cfa != id) {
        comp.why = "an edge leaving its CFA";
        return false;
      }
      ec.to = layout.locIndex(e.to);
      ec.toAtomic = p.locs[e.to].atomic;
      if (e.kind == ir::EdgeKind::Sync) {
        ec.channel = e.channel;
        ec.send = e.syncSend;
      }
      switch (e.kind) {
        case ir::EdgeKind::Command:
          if (!starGuard(e.guard) && !comp.value(e.guard, id, ec.guard)) return false;
          if (!ec.guard.ins.empty()) {  // else: always enabled
            comp.finish(ec.guard);
            std::vector<ExprRef> cs;
            ir::conjuncts(e.guard, cs);
            for (ExprRef g : cs) {
              ec.conjuncts.emplace_back();
              if (!comp.value(g, id, ec.conjuncts.back())) return false;
              comp.finish(ec.conjuncts.back());
            }
          }
          if (!comp.effects(e, id, ec.effects)) return false;
          comp.finish(ec.effects);
          break;
        case ir::EdgeKind::Assert:
          if (!comp.value(e.cond, id, ec.guard)) return false;
          comp.finish(ec.guard);
          ec.failMessage = (e.text.empty() ? "assertion" : "'" + e.text + "'") + " failed";
          break;
        case ir::EdgeKind::Assumed:  // a := a && e, as the concrete step does
          if (!comp.effects(e, id, ec.effects)) return false;
          comp.finish(ec.effects);
          break;
        case ir::EdgeKind::Sync: {
          for (TypeRef f : p.channels[e.channel].fields)
            if (!isScalar(f)) {
              comp.why = "a rendezvous message field of type " + typeToString(f);
              return false;
            }
          if (e.guard && !comp.value(e.guard, id, ec.guard)) return false;
          if (!ec.guard.ins.empty()) comp.finish(ec.guard);
          if (!comp.effects(e, id, ec.effects)) return false;
          comp.finish(ec.effects);
          for (ExprRef v : e.args) {
            ec.values.emplace_back();
            if (!comp.value(v, id, ec.values.back())) return false;
            comp.finish(ec.values.back());
          }
          if (e.chanIndex) {
            if (!comp.value(e.chanIndex, id, ec.index)) return false;
            comp.finish(ec.index);
          }
          break;
        }
        default:
          comp.why = "a call or return edge";
          return false;
      }
      out.out[l].push_back(static_cast<uint32_t>(out.edges.size()));
      out.edges.push_back(std::move(ec));
    }
  return true;
}

}  // namespace

bool layoutFits(const ir::Program& p, std::string& why) {
  if (!p.isClosed()) {
    why = "not a closed system";
    return false;
  }
  auto check = [&](ir::VarId v) {
    if (slotType(p.vars[v].type)) return true;
    why = "variable '" + p.vars[v].name + "' of type " + typeToString(p.vars[v].type);
    return false;
  };
  for (ir::VarId g : p.globals)
    if (!check(g)) return false;
  std::vector<ir::CfaId> threads = p.processes;
  if (p.rules != ir::kNone) threads.push_back(p.rules);
  for (ir::CfaId c : threads) {
    const ir::Cfa& cfa = p.cfas[c];
    if (cfa.usesOld || cfa.entry == ir::kNone) {
      why = "process '" + cfa.name + "' uses old() or has no entry";
      return false;
    }
    for (const auto* vars : {&cfa.processLocals, &cfa.locals})
      for (ir::VarId v : *vars)
        if (!check(v)) return false;
  }
  return true;
}

std::unique_ptr<CompiledProgram> compileProgram(const ir::Program& p, const SlotLayout& layout,
                                                std::string& why) {
  auto out = std::make_unique<CompiledProgram>();
  out->out.resize(p.locs.size());
  out->rendezvous = p.hasRendezvous();
  Compiler comp(p, layout, *out);
  std::vector<ir::CfaId> threads = p.processes;
  if (p.rules != ir::kNone) threads.push_back(p.rules);
  for (ir::CfaId c : threads)
    if (!compileCfa(p, c, layout, comp, *out)) {
      why = comp.why.empty() ? "an edge of '" + p.cfas[c].name + "'" : comp.why;
      return nullptr;
    }
  for (const ir::Property& inv : p.invariants) {
    Code code;
    if (!comp.value(inv.expr, ir::kNone, code)) {
      why = comp.why;
      return nullptr;
    }
    comp.finish(code);
    out->invariants.push_back(std::move(code));
  }
  return out;
}

}  // namespace tandem::search
