#include "chc/state_layout.h"

#include <algorithm>
#include <map>
#include <set>

#include "chc/unsupported.h"
#include "mc/symbolic/complex_terms.h"

namespace tandem::chc {

namespace {

using symbolic::SymAddress;
using symbolic::SymValue;

// Arrays up to this length get one argument per element; longer ones are refused rather than
// turned into predicates with thousands of arguments.
constexpr int64_t kMaxElements = 256;
constexpr size_t kMaxArguments = 4096;

bool sameAddress(const SymAddress& a, const SymAddress& b) {
  return a.base == b.base && a.frame == b.frame && a.object == b.object && a.slot == b.slot &&
         a.path == b.path;
}

// Element symbols for the array input `v` (recursively through element-form arrays); the
// selects they replace go into `map`, the array symbols into `arrays`.
SymValue elementInputs(const ir::Program& p, const symbolic::SymEvaluator& sev,
                       const std::string& name, TypeRef t, const SymValue& v,
                       std::map<ExprRef, ExprRef>& map, std::vector<ExprRef>& arrays) {
  if (!t->isFixedArray() || t->length > kMaxElements || v.kind != SymValue::Kind::Array) return v;
  std::vector<SymValue> xs;
  if (v.elems) {
    for (size_t i = 0; i < v.elems->size(); ++i)
      xs.push_back(elementInputs(p, sev, name + "_" + std::to_string(i), t->elem, (*v.elems)[i],
                                 map, arrays));
    return SymValue::array(std::move(xs));
  }
  if (v.expr->op != Op::Symbol || !symbolic::isScalarType(t->elem)) return v;
  arrays.push_back(v.expr);
  for (int64_t i = 0; i < t->length; ++i) {
    ExprRef e = p.exprs->freshSymbol(name + "_" + std::to_string(i), t->elem);
    map[sev.element(v, p.exprs->intConst(BigInt(i)), t->elem).expr] = e;
    xs.push_back(SymValue::scalar(e));
  }
  return SymValue::array(std::move(xs));
}

// An old() snapshot with the arrays it shares with the globals `before` element form (each
// became `after`) shared again; arrays of its own get element symbols by `form`. Two conversions
// of one array would give two symbol sets, and lose that old(A) is A on the procedure's entry.
template <class Form>
std::shared_ptr<const symbolic::SymSnapshot> oldIn(const ir::Program& p,
                                                   const symbolic::SymSnapshot& old,
                                                   const std::vector<SymValue>& before,
                                                   const std::vector<SymValue>& after, Form form) {
  symbolic::SymSnapshot out = old;
  for (ir::VarId id : p.globals) {
    const ir::Variable& v = p.vars[id];
    if (v.slot >= out.globals.size()) continue;
    SymValue& x = out.globals[v.slot];
    if (v.slot < before.size() && v.slot < after.size() && x.kind == SymValue::Kind::Array &&
        before[v.slot].kind == SymValue::Kind::Array && x.expr == before[v.slot].expr &&
        x.elems == before[v.slot].elems)
      x = after[v.slot];
    else
      x = form("old_" + v.name, v.type, x);
  }
  return std::make_shared<const symbolic::SymSnapshot>(std::move(out));
}

// `P[1].` for the names of a thread's process locals.
std::string threadPrefix(const ir::Program& p, const symbolic::SymThread& th) {
  const ir::Cfa& cfa = p.cfas[th.cfa];
  return cfa.name + (cfa.instances > 1 ? "[" + std::to_string(th.instance) + "]" : "") + ".";
}

}  // namespace

void inputsToElementForm(const ir::Program& p, const symbolic::SymEvaluator& sev, SymConfig& c,
                         std::vector<ExprRef>& conds) {
  std::map<ExprRef, ExprRef> map;
  std::vector<ExprRef> arrays;
  const std::vector<SymValue> before = c.st.globals;
  for (ir::VarId id : p.globals) {
    const ir::Variable& v = p.vars[id];
    if (v.slot < c.st.globals.size())
      c.st.globals[v.slot] =
          elementInputs(p, sev, v.name, v.type, c.st.globals[v.slot], map, arrays);
  }
  for (symbolic::SymFrame& f : c.st.frames) {
    for (ir::VarId id : p.cfas[f.cfa].locals) {
      const ir::Variable& v = p.vars[id];
      if (v.slot < f.locals.size())
        f.locals[v.slot] = elementInputs(p, sev, v.name, v.type, f.locals[v.slot], map, arrays);
    }
    auto form = [&](const std::string& n, TypeRef t, const SymValue& x) {
      return elementInputs(p, sev, n, t, x, map, arrays);
    };
    if (f.old) f.old = oldIn(p, *f.old, before, c.st.globals, form);
  }
  for (symbolic::SymThread& th : c.st.threads)
    for (ir::VarId id : p.cfas[th.cfa].processLocals) {
      const ir::Variable& v = p.vars[id];
      if (v.slot < th.locals.size())
        th.locals[v.slot] = elementInputs(p, sev, threadPrefix(p, th) + v.name, v.type,
                                          th.locals[v.slot], map, arrays);
    }
  if (map.empty()) return;
  std::vector<ExprRef> symbols;
  for (ExprRef& x : conds) {
    x = symbolic::substitute(*p.exprs, x, map);
    symbolic::collectSymbols(x, symbols);
  }
  const std::set<ExprRef> left(symbols.begin(), symbols.end());
  for (const auto& [select, element] : map)
    if (left.count(select->kid(0))) conds.push_back(p.exprs->mkEq(element, select));
}

StateLayout::StateLayout(const ir::Program& p, const symbolic::SymEvaluator& sev,
                         std::vector<SymConfig>& pres)
    : p_(p), sev_(sev) {
  for (SymConfig& c : pres) toElementForm(c);
  bool first = true;
  for (const SymConfig& c : pres) {
    std::vector<Slot> ss = slots(c);
    size_t ref = 0;
    for (const Slot& s : ss) {
      if (first) {
        names_.push_back(s.name);
        types_.push_back(s.type->kind == TypeKind::Ref ? p.exprs->types().intType() : s.type);
      }
      if (s.type->kind != TypeKind::Ref) continue;
      if (first) refCodes_.emplace_back();
      std::vector<SymAddress>& codes = refCodes_[ref++];
      if (s.value.isNull()) continue;
      const SymAddress& a = *s.value.addr;
      if (!a.path.empty() || a.base == exec::AddressBase::Field)
        throw Unsupported("references to array elements or fields ('" + s.name + "')");
      auto same = [&](const SymAddress& b) { return sameAddress(a, b); };
      if (std::none_of(codes.begin(), codes.end(), same)) codes.push_back(a);
    }
    first = false;
  }
}

std::vector<ExprRef> StateLayout::args(const SymConfig& c) const {
  ExprManager& em = *p_.exprs;
  std::vector<Slot> ss = slots(c);
  if (ss.size() != types_.size()) throw Unsupported("a state whose shape changes at a cutpoint");
  std::vector<ExprRef> out;
  size_t ref = 0;
  for (const Slot& s : ss) {
    if (s.type->kind != TypeKind::Ref) {
      out.push_back(s.value.expr);
      continue;
    }
    const std::vector<SymAddress>& codes = refCodes_[ref++];
    uint64_t code = 0;
    if (!s.value.isNull()) {
      auto same = [&](const SymAddress& b) { return sameAddress(*s.value.addr, b); };
      auto it = std::find_if(codes.begin(), codes.end(), same);
      if (it == codes.end())
        throw Unsupported("a value of reference '" + s.name + "' that its prestates do not give");
      code = static_cast<uint64_t>(it - codes.begin()) + 1;
    }
    out.push_back(em.intConst(BigInt(code)));
  }
  return out;
}

std::vector<StateLayout::Slot> StateLayout::slots(const SymConfig& c) const {
  if (!c.st.heap.empty()) throw Unsupported("objects");
  std::vector<Slot> out;
  for (ir::VarId id : p_.globals) {
    const ir::Variable& v = p_.vars[id];
    if (v.slot >= c.st.globals.size()) throw Unsupported("a global without a value");
    slotsOf(v.name, v.type, c.st.globals[v.slot], out);
  }
  for (const symbolic::SymThread& th : c.st.threads) {  // closed systems: process locals
    const ir::Cfa& cfa = p_.cfas[th.cfa];
    for (ir::VarId id : cfa.processLocals) {
      const ir::Variable& v = p_.vars[id];
      if (v.slot >= th.locals.size()) throw Unsupported("a process local without a value");
      slotsOf(threadPrefix(p_, th) + v.name, v.type, th.locals[v.slot], out);
    }
  }
  if (!p_.isClosed()) {  // closed systems keep only the stepping thread's frame: no state there
    for (const symbolic::SymFrame& f : c.st.frames) {
      const ir::Cfa& cfa = p_.cfas[f.cfa];
      for (ir::VarId id : cfa.locals) {
        const ir::Variable& v = p_.vars[id];
        if (v.slot >= f.locals.size()) throw Unsupported("a local without a value");
        slotsOf(cfa.name + "." + v.name, v.type, f.locals[v.slot], out);
      }
      // old(): the globals' values on the procedure's entry are state too. Left out, a query
      // over old(G) would have G's entry value free, and a solver would find a counterexample
      // that no run has.
      if (!f.old) continue;
      for (ir::VarId id : p_.globals) {
        const ir::Variable& v = p_.vars[id];
        if (v.slot >= f.old->globals.size()) throw Unsupported("an old() value without a global");
        slotsOf(cfa.name + ".old_" + v.name, v.type, f.old->globals[v.slot], out);
      }
    }
  }
  if (out.size() > kMaxArguments)
    throw Unsupported("states of more than " + std::to_string(kMaxArguments) + " scalars");
  return out;
}

void StateLayout::slotsOf(const std::string& name, TypeRef t, const SymValue& v,
                          std::vector<Slot>& out) const {
  if (symbolic::isScalarType(t)) {
    if (v.kind != SymValue::Kind::Scalar) throw Unsupported("a non-scalar value of '" + name + "'");
    out.push_back(Slot{name, t, v});
    return;
  }
  if (t->kind == TypeKind::Ref) {
    if (v.kind != SymValue::Kind::Ref) throw Unsupported("objects ('" + name + "')");
    out.push_back(Slot{name, t, v});
    return;
  }
  if (!t->isFixedArray())
    throw Unsupported("variables of type " + typeToString(t) + " ('" + name + "')");
  if (t->length > kMaxElements)
    throw Unsupported("arrays longer than " + std::to_string(kMaxElements) + " ('" + name + "')");
  for (int64_t i = 0; i < t->length; ++i) {
    const std::string elem = name + "[" + std::to_string(i) + "]";
    if (v.elems) {
      if (static_cast<size_t>(i) >= v.elems->size())
        throw Unsupported("an array shorter than its type");
      slotsOf(elem, t->elem, (*v.elems)[static_cast<size_t>(i)], out);
    } else {
      ExprRef index = p_.exprs->intConst(BigInt(i));
      slotsOf(elem, t->elem, sev_.element(v, index, t->elem), out);
    }
  }
}

SymValue StateLayout::elementForm(const std::string& name, TypeRef t, const SymValue& v) const {
  if (!t->isFixedArray() || t->length > kMaxElements || v.kind != SymValue::Kind::Array) return v;
  std::vector<SymValue> xs;
  for (int64_t i = 0; i < t->length; ++i) {
    const std::string elem = name + "_" + std::to_string(i);
    if (v.elems) {
      if (static_cast<size_t>(i) >= v.elems->size()) return v;
      xs.push_back(elementForm(elem, t->elem, (*v.elems)[static_cast<size_t>(i)]));
    } else if (symbolic::isScalarType(t->elem)) {
      xs.push_back(SymValue::scalar(p_.exprs->freshSymbol(elem, t->elem)));
    } else {
      return v;
    }
  }
  return SymValue::array(std::move(xs));
}

void StateLayout::toElementForm(SymConfig& c) const {
  const std::vector<SymValue> before = c.st.globals;
  for (ir::VarId id : p_.globals) {
    const ir::Variable& v = p_.vars[id];
    if (v.slot < c.st.globals.size())
      c.st.globals[v.slot] = elementForm(v.name, v.type, c.st.globals[v.slot]);
  }
  for (symbolic::SymFrame& f : c.st.frames) {
    for (ir::VarId id : p_.cfas[f.cfa].locals) {
      const ir::Variable& v = p_.vars[id];
      if (v.slot < f.locals.size())
        f.locals[v.slot] = elementForm(v.name, v.type, f.locals[v.slot]);
    }
    auto form = [&](const std::string& n, TypeRef t, const SymValue& x) {
      return elementForm(n, t, x);
    };
    if (f.old) f.old = oldIn(p_, *f.old, before, c.st.globals, form);
  }
  for (symbolic::SymThread& th : c.st.threads)
    for (ir::VarId id : p_.cfas[th.cfa].processLocals) {
      const ir::Variable& v = p_.vars[id];
      if (v.slot < th.locals.size())
        th.locals[v.slot] = elementForm(threadPrefix(p_, th) + v.name, v.type, th.locals[v.slot]);
    }
}

}  // namespace tandem::chc
