#include "mc/ir/channels.h"

namespace tandem::ir {

bool Program::hasRendezvous() const {
  for (const Edge& e : edges)
    if (e.kind == EdgeKind::Sync) return true;
  return false;
}

bool Program::endLabelled(LocId l) const {
  if (locs[l].validEnd) return true;
  for (const std::string& s : locs[l].labels)
    if (s.rfind("end", 0) == 0) return true;
  return false;
}

uint32_t ChannelLowering::declare(Channel c) {
  TypeTable& tt = *p_.types;
  auto addGlobal = [&](const std::string& name, TypeRef t, ExprRef init) {
    const VarId id =
        p_.addVariable(name, t, VarScope::Global, kNone, static_cast<uint32_t>(p_.globals.size()));
    p_.vars[id].init = init;
    p_.vars[id].loc = c.loc;
    p_.globals.push_back(id);
    return id;
  };
  auto arrayOf = [&](TypeRef elem, uint32_t n, ExprRef value) {
    std::vector<ExprRef> kids(n, value);
    TypeRef t = tt.arrayOf(elem, n);
    return std::make_pair(t, p_.exprs->mk(Op::ArrayLit, t, std::move(kids)));
  };
  if (c.capacity > 0) {
    ExprRef zero = p_.exprs->intConst(BigInt(0));
    if (c.isArray) {
      auto [t, init] = arrayOf(tt.intType(), c.count, zero);
      c.length = addGlobal(c.name + ".len", t, init);
    } else {
      c.length = addGlobal(c.name + ".len", tt.intType(), zero);
    }
    for (size_t f = 0; f < c.fields.size(); ++f) {
      auto [t, init] = arrayOf(c.fields[f], c.count * c.capacity, fieldDefault(c.fields[f]));
      std::string name =
          c.name + (c.fields.size() == 1 ? ".msgs" : ".msgs" + std::to_string(f + 1));
      c.slots.push_back(addGlobal(name, t, init));
    }
  }
  p_.channels.push_back(std::move(c));
  return static_cast<uint32_t>(p_.channels.size() - 1);
}

ExprRef ChannelLowering::fieldDefault(TypeRef t) const {
  switch (t->kind) {
    case TypeKind::Bool:
      return p_.exprs->boolConst(false);
    case TypeKind::Enum:
      return p_.exprs->enumConst(t, 0);
    default:
      return p_.exprs->intConst(BigInt(0), t);
  }
}

namespace {

ExprRef asInt(ExprManager& em, ExprRef e) {
  TypeRef it = em.types().intType();
  return e->type == it ? e : em.mk(Op::Cast, it, {e});
}

// a + b over int, folding zeros (a single channel's slots start at 0).
ExprRef plus(ExprManager& em, ExprRef a, ExprRef b) {
  if (a->op == Op::IntConst && a->value == BigInt(0)) return b;
  if (b->op == Op::IntConst && b->value == BigInt(0)) return a;
  if (a->op == Op::IntConst && b->op == Op::IntConst) return em.intConst(a->value + b->value);
  return em.mk(Op::Add, em.types().intType(), {a, b});
}

}  // namespace

ExprRef ChannelLowering::lengthRef(const Channel& c, ExprRef index) const {
  ExprRef len = p_.exprs->var(c.length, p_.vars[c.length].type);
  if (!c.isArray) return len;
  return p_.exprs->mk(Op::Select, p_.types->intType(), {len, asInt(*p_.exprs, index)});
}

ExprRef ChannelLowering::slot(const Channel& c, size_t field, ExprRef index, ExprRef offset) const {
  ExprManager& em = *p_.exprs;
  ExprRef base = em.intConst(BigInt(0));
  if (c.isArray)
    base = em.mk(Op::Mul, em.types().intType(),
                 {asInt(em, index), em.intConst(BigInt(static_cast<int64_t>(c.capacity)))});
  VarId v = c.slots[field];
  return em.mk(Op::Select, c.fields[field], {em.var(v, p_.vars[v].type), plus(em, base, offset)});
}

ExprRef ChannelLowering::length(uint32_t ch, ExprRef index) const {
  const Channel& c = p_.channels[ch];
  if (c.capacity == 0) return p_.exprs->intConst(BigInt(0));
  return lengthRef(c, index);
}

ExprRef ChannelLowering::empty(uint32_t ch, ExprRef index) const {
  const Channel& c = p_.channels[ch];
  if (c.capacity == 0) return p_.exprs->trueExpr();  // a rendezvous channel holds no message
  return p_.exprs->mkEq(lengthRef(c, index), p_.exprs->intConst(BigInt(0)));
}

ExprRef ChannelLowering::full(uint32_t ch, ExprRef index) const {
  const Channel& c = p_.channels[ch];
  if (c.capacity == 0) return p_.exprs->falseExpr();
  return p_.exprs->mkEq(lengthRef(c, index),
                        p_.exprs->intConst(BigInt(static_cast<int64_t>(c.capacity))));
}

ExprRef ChannelLowering::addGuard(ExprRef guard, ExprRef cond) const {
  return guard ? p_.exprs->mkAnd(guard, cond) : cond;
}

void ChannelLowering::rendezvous(uint32_t ch, ExprRef index, bool send, Edge& e) {
  e.kind = EdgeKind::Sync;
  e.channel = ch;
  e.syncSend = send;
  e.chanIndex = index;
}

void ChannelLowering::send(uint32_t ch, ExprRef index, const std::vector<ExprRef>& items,
                           Edge& e) const {
  const Channel& c = p_.channels[ch];
  ExprManager& em = *p_.exprs;
  if (c.capacity == 0) {
    rendezvous(ch, index, true, e);
    e.args = items;
    return;
  }
  ExprRef len = lengthRef(c, index);
  TypeRef it = em.types().intType();
  // Not full; then the message goes to slot `len` and `len` grows. The length is read before it
  // is written, so the assignments are right in parallel and one after another alike.
  ExprRef guard = em.mk(Op::Lt, em.types().boolType(),
                        {len, em.intConst(BigInt(static_cast<int64_t>(c.capacity)))});
  std::vector<Assignment> as;
  for (size_t f = 0; f < items.size(); ++f) as.push_back({slot(c, f, index, len), items[f]});
  as.push_back({len, em.mk(Op::Add, it, {len, em.intConst(BigInt(1))})});
  e.guard = addGuard(e.guard, guard);
  e.assigns.insert(e.assigns.begin(), as.begin(), as.end());
}

void ChannelLowering::receive(uint32_t ch, ExprRef index, const std::vector<ExprRef>& items,
                              const std::vector<bool>& match, Edge& e) const {
  const Channel& c = p_.channels[ch];
  ExprManager& em = *p_.exprs;
  if (c.capacity == 0) {
    rendezvous(ch, index, false, e);
    std::vector<Assignment> as;
    for (size_t f = 0; f < items.size(); ++f) {
      ExprRef field = em.mk(Op::Received, c.fields[f], {}, static_cast<uint32_t>(f));
      if (f < match.size() && match[f])
        e.guard = addGuard(e.guard, em.mkEq(field, items[f]));
      else
        as.push_back({items[f], field});
    }
    e.assigns.insert(e.assigns.begin(), as.begin(), as.end());
    return;
  }
  ExprRef len = lengthRef(c, index);
  TypeRef it = em.types().intType();
  ExprRef zero = em.intConst(BigInt(0));
  // Not empty, and the head carries every matched constant; then the head goes to the targets,
  // the other messages move up one slot, the last slot returns to its default, `len` shrinks.
  // Targets first: one after another (DVE effects), the shift must not overwrite the head before.
  ExprRef guard = em.mk(Op::Gt, em.types().boolType(), {len, zero});
  std::vector<Assignment> as;
  for (size_t f = 0; f < items.size(); ++f) {
    ExprRef head = slot(c, f, index, zero);
    if (f < match.size() && match[f])
      guard = em.mkAnd(guard, em.mkEq(head, items[f]));
    else
      as.push_back({items[f], head});
  }
  for (size_t f = 0; f < c.fields.size(); ++f) {
    for (uint32_t k = 0; k + 1 < c.capacity; ++k)
      as.push_back({slot(c, f, index, em.intConst(BigInt(static_cast<int64_t>(k)))),
                    slot(c, f, index, em.intConst(BigInt(static_cast<int64_t>(k + 1))))});
    as.push_back({slot(c, f, index, em.intConst(BigInt(static_cast<int64_t>(c.capacity - 1)))),
                  fieldDefault(c.fields[f])});
  }
  as.push_back({len, em.mk(Op::Sub, it, {len, em.intConst(BigInt(1))})});
  e.guard = addGuard(e.guard, guard);
  e.assigns.insert(e.assigns.begin(), as.begin(), as.end());
}

}  // namespace tandem::ir
