#include "mc/search/compiled/compiled_layout.h"

#include <cassert>

namespace tandem::search {

bool slotType(TypeRef t) {
  if (!t) return false;
  switch (t->kind) {
    case TypeKind::Int:
    case TypeKind::Bool:
    case TypeKind::Enum:
      return true;
    case TypeKind::Array:
      return t->length >= 0 && slotType(t->elem);
    default:
      return false;
  }
}

uint32_t slotCount(TypeRef t) {
  if (t->kind != TypeKind::Array) return 1;
  return static_cast<uint32_t>(t->length) * slotCount(t->elem);
}

SlotLayout::SlotLayout(const ir::Program& p)
    : p_(p), cfas_(p.cfas.size()), varOff_(p.vars.size(), 0), locIndex_(p.locs.size(), 0) {
  for (const ir::Cfa& c : p.cfas)
    for (size_t i = 0; i < c.locs.size(); ++i) locIndex_[c.locs[i]] = static_cast<uint32_t>(i);
  for (ir::VarId g : p.globals) {
    varOff_[g] = static_cast<uint32_t>(slots_);
    markUnsigned(p.vars[g].type, slots_);
    slots_ += slotCount(p.vars[g].type);
  }
  auto addCfa = [&](ir::CfaId id, uint32_t instances) {
    const ir::Cfa& c = p.cfas[id];
    CfaInfo& info = cfas_[id];
    info.instances = instances;
    info.firstThread = static_cast<uint32_t>(threads_.size());
    uint32_t off = 1;  // the pc
    for (const auto* vars : {&c.processLocals, &c.locals})
      for (ir::VarId v : *vars) {
        varOff_[v] = off;
        off += slotCount(p.vars[v].type);
      }
    info.size = off;
    for (uint32_t i = 0; i < instances; ++i) {
      threads_.push_back({id, i, static_cast<uint32_t>(slots_)});
      unsigned_.resize(slots_ + off, 0);
      unsigned_[slots_] = 1;
      for (const auto* vars : {&c.processLocals, &c.locals})
        for (ir::VarId v : *vars) markUnsigned(p.vars[v].type, slots_ + varOff_[v]);
      slots_ += off;
    }
  };
  for (ir::CfaId id : p.processes) addCfa(id, p.cfas[id].instances);
  if (p.rules != ir::kNone) addCfa(p.rules, 1);
  unsigned_.resize(slots_, 0);
}

void SlotLayout::markUnsigned(TypeRef t, size_t at) {
  uint32_t n = slotCount(t);
  if (unsigned_.size() < at + n) unsigned_.resize(at + n, 0);
  TypeRef e = t;
  while (e->kind == TypeKind::Array) e = e->elem;
  if (e->kind == TypeKind::Int) return;
  for (uint32_t i = 0; i < n; ++i) unsigned_[at + i] = 1;
}

exec::Value SlotLayout::toValue(TypeRef t, const int64_t*& p) const {
  switch (t->kind) {
    case TypeKind::Bool:
      return exec::Value::boolean(*p++ != 0);
    case TypeKind::Enum:
      return exec::Value::enumMember(t, static_cast<uint32_t>(*p++));
    case TypeKind::Array: {
      std::vector<exec::Value> elems;
      elems.reserve(static_cast<size_t>(t->length));
      for (int64_t i = 0; i < t->length; ++i) elems.push_back(toValue(t->elem, p));
      return exec::Value::array(std::move(elems));
    }
    default:
      return exec::Value::integer(BigInt(*p++));
  }
}

bool SlotLayout::fromValue(TypeRef t, const exec::Value& v, int64_t*& p, std::string& why) const {
  switch (t->kind) {
    case TypeKind::Bool:
      if (v.kind() != exec::ValueKind::Bool) break;
      *p++ = v.asBool() ? 1 : 0;
      return true;
    case TypeKind::Enum:
      if (v.kind() != exec::ValueKind::Enum) break;
      *p++ = v.enumIndex();
      return true;
    case TypeKind::Array:
      if (v.kind() != exec::ValueKind::Array || v.length() != static_cast<size_t>(t->length)) break;
      for (const exec::Value& e : v.elements())
        if (!fromValue(t->elem, e, p, why)) return false;
      return true;
    case TypeKind::Int: {
      if (v.kind() != exec::ValueKind::Int) break;
      auto small = v.asInt().toInt64();
      if (!small) {
        why = "the value " + v.asInt().toString() +
              " does not fit in 64 bits, which the compiled engine stores";
        return false;
      }
      *p++ = *small;
      return true;
    }
    default:
      break;
  }
  why = "a value of kind " + std::string(exec::valueKindName(v.kind())) + " where " +
        typeToString(t) + " was expected";
  return false;
}

exec::State SlotLayout::toExec(const int64_t* slots) const {
  exec::State s;
  const int64_t* p = slots;
  for (ir::VarId g : p_.globals) s.globals.push_back(toValue(p_.vars[g].type, p));
  for (const ThreadInfo& ti : threads_) {
    const ir::Cfa& c = p_.cfas[ti.cfa];
    exec::Thread th;
    th.cfa = ti.cfa;
    th.instance = ti.instance;
    exec::Frame f;
    f.cfa = ti.cfa;
    f.pc = locAt(ti.cfa, *p++);
    for (ir::VarId v : c.processLocals) th.processLocals.push_back(toValue(p_.vars[v].type, p));
    for (ir::VarId v : c.locals) f.locals.push_back(toValue(p_.vars[v].type, p));
    th.frames.push_back(std::move(f));
    s.threads.push_back(std::move(th));
  }
  assert(p == slots + slots_ && "slot layout size mismatch");
  return s;
}

bool SlotLayout::fromExec(const exec::State& s, int64_t* slots, std::string& why) const {
  if (s.globals.size() != p_.globals.size() || s.threads.size() != threads_.size() ||
      !s.heap.empty()) {
    why = "the state does not have the shape of the compiled layout";
    return false;
  }
  int64_t* p = slots;
  for (size_t i = 0; i < s.globals.size(); ++i)
    if (!fromValue(p_.vars[p_.globals[i]].type, s.globals[i], p, why)) return false;
  for (size_t t = 0; t < threads_.size(); ++t) {
    const exec::Thread& th = s.threads[t];
    const ir::Cfa& c = p_.cfas[threads_[t].cfa];
    if (th.cfa != threads_[t].cfa || th.instance != threads_[t].instance || th.frames.size() != 1 ||
        th.frames[0].cfa != th.cfa || th.processLocals.size() != c.processLocals.size() ||
        th.frames[0].locals.size() != c.locals.size() || th.frames[0].pc >= p_.locs.size() ||
        p_.locs[th.frames[0].pc].cfa != th.cfa) {
      why = "thread " + std::to_string(t) + " does not have the shape of the compiled layout";
      return false;
    }
    *p++ = locIndex_[th.frames[0].pc];
    for (size_t i = 0; i < th.processLocals.size(); ++i)
      if (!fromValue(p_.vars[c.processLocals[i]].type, th.processLocals[i], p, why)) return false;
    for (size_t i = 0; i < c.locals.size(); ++i)
      if (!fromValue(p_.vars[c.locals[i]].type, th.frames[0].locals[i], p, why)) return false;
  }
  return true;
}

// Nibbles are written low half first; a value takes one nibble when it is 0..14.
size_t SlotLayout::encode(const int64_t* slots, uint8_t* out) const {
  uint64_t acc = 0;
  unsigned bits = 0;
  size_t n = 0;
  auto put = [&](uint64_t nib) {
    acc |= nib << bits;
    bits += 4;
    if (bits == 64) {
      for (int i = 0; i < 8; ++i) out[n++] = static_cast<uint8_t>(acc >> (8 * i));
      acc = 0;
      bits = 0;
    }
  };
  for (size_t i = 0; i < slots_; ++i) {
    int64_t v = slots[i];
    if (v >= 0 && v < 15) {
      put(static_cast<uint64_t>(v));
      continue;
    }
    put(15);
    uint64_t u;
    if (unsigned_[i])
      u = static_cast<uint64_t>(v) - 15;
    else if (v >= 15)
      u = (static_cast<uint64_t>(v) - 15) << 1;
    else  // v < 0: -(v + 1) cannot overflow
      u = (static_cast<uint64_t>(-(v + 1)) << 1) | 1;
    while (u >= 8) {
      put((u & 7) | 8);
      u >>= 3;
    }
    put(u);
  }
  for (unsigned b = 0; b < bits; b += 8) out[n++] = static_cast<uint8_t>(acc >> b);
  return n;
}

void SlotLayout::decode(std::string_view bytes, int64_t* slots) const {
  const auto* b = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t pos = 0;  // in nibbles
  auto get = [&]() -> uint64_t {
    assert(pos / 2 < bytes.size() && "truncated compiled state");
    uint64_t nib = (b[pos >> 1] >> ((pos & 1) * 4)) & 15;
    ++pos;
    return nib;
  };
  for (size_t i = 0; i < slots_; ++i) {
    uint64_t nib = get();
    if (nib != 15) {
      slots[i] = static_cast<int64_t>(nib);
      continue;
    }
    uint64_t u = 0;
    for (unsigned shift = 0;; shift += 3) {
      nib = get();
      u |= (nib & 7) << shift;
      if (!(nib & 8)) break;
    }
    if (unsigned_[i])
      slots[i] = static_cast<int64_t>(u + 15);
    else if (u & 1)
      slots[i] = -static_cast<int64_t>(u >> 1) - 1;
    else
      slots[i] = static_cast<int64_t>((u >> 1) + 15);
  }
}

}  // namespace tandem::search
