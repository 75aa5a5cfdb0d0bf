#include "mc/search/por/por_analysis.h"

#include <algorithm>
#include <optional>

#include "mc/ir/edge_exprs.h"

namespace tandem::search {

namespace {

constexpr uint32_t kCollapse = 256;  // arrays with more cells are one object

using Objects = std::vector<uint32_t>;

void normalize(Objects& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

bool intersects(const Objects& a, const Objects& b) {  // both sorted
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) return true;
    a[i] < b[j] ? ++i : ++j;
  }
  return false;
}

// Cells of a value of type t (scalars 1, fixed arrays their elements'), or nullopt for types
// whose accesses cannot be told apart statically (references, objects, dynamic arrays).
std::optional<uint64_t> cellsOf(TypeRef t) {
  if (!t) return std::nullopt;
  switch (t->kind) {
    case TypeKind::Int:
    case TypeKind::I32:
    case TypeKind::I64:
    case TypeKind::F64:
    case TypeKind::Bool:
    case TypeKind::Enum:
      return 1;
    case TypeKind::Array: {
      if (!t->isFixedArray()) return std::nullopt;
      auto e = cellsOf(t->elem);
      if (!e) return std::nullopt;
      return *e * static_cast<uint64_t>(t->length);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

class PorAnalysis::Builder {
 public:
  Builder(const ir::Program& p, PorAnalysis& a) : p_(p), a_(a) {}

  bool run(std::string& why) {
    if (!p_.isClosed()) return fail("an open system"), report(why);
    threads();
    if (ok_) objects();
    if (ok_) transitions();
    if (ok_) invariants();
    if (ok_) relations();
    return report(why);
  }

 private:
  struct Ctx {
    uint32_t thread = kNone;  // kNone: an invariant (no thread, no pid)
  };
  static constexpr uint32_t kNone = ir::kNone;
  struct Access {
    Objects reads, writes;
  };

  bool report(std::string& why) {
    if (!ok_) why = why_;
    return ok_;
  }
  void fail(const std::string& w) {
    if (ok_) why_ = w;
    ok_ = false;
  }

  void threads() {
    for (ir::CfaId c : p_.processes)
      for (uint32_t i = 0; i < p_.cfas[c].instances; ++i) {
        a_.threadCfa_.push_back(c);
        instance_.push_back(i);
      }
    if (p_.rules != ir::kNone) {
      a_.threadCfa_.push_back(p_.rules);
      instance_.push_back(0);
    }
    threadBase_.assign(p_.cfas.size(), kNone);
    for (uint32_t t = 0; t < a_.threadCfa_.size(); ++t)
      if (threadBase_[a_.threadCfa_[t]] == kNone) threadBase_[a_.threadCfa_[t]] = t;
  }

  void objects() {
    uint32_t next = 0;
    varBase_.assign(p_.vars.size(), kNone);
    varCells_.assign(p_.vars.size(), 1);
    for (ir::VarId g : p_.globals) {
      auto cells = cellsOf(p_.vars[g].type);
      if (!cells) return fail("a global of type " + typeToString(p_.vars[g].type));
      varBase_[g] = next;
      varCells_[g] = *cells <= kCollapse ? static_cast<uint32_t>(*cells) : 1;
      next += varCells_[g];
    }
    // Each thread's locals (one object per variable) and locations.
    a_.locIndex_.assign(p_.locs.size(), kNone);
    localIndex_.assign(p_.vars.size(), kNone);
    for (const ir::Cfa& c : p_.cfas)
      for (size_t i = 0; i < c.locs.size(); ++i) a_.locIndex_[c.locs[i]] = static_cast<uint32_t>(i);
    for (uint32_t t = 0; t < a_.threadCfa_.size(); ++t) {
      const ir::Cfa& c = p_.cfas[a_.threadCfa_[t]];
      localBase_.push_back(next);
      uint32_t k = 0;
      for (const auto* list : {&c.processLocals, &c.locals})
        for (ir::VarId v : *list) {
          if (!cellsOf(p_.vars[v].type))
            return fail("a local of type " + typeToString(p_.vars[v].type));
          localIndex_[v] = k++;
        }
      next += k;
      locBase_.push_back(next);
      next += static_cast<uint32_t>(c.locs.size());
    }
    for (const ir::Channel& ch : p_.channels) {
      chanObject_.push_back(next);
      if (ch.capacity == 0) ++next;
    }
  }

  uint32_t locObject(uint32_t t, ir::LocId l) const { return locBase_[t] + a_.locIndex_[l]; }

  std::optional<int64_t> fold(ExprRef e, Ctx c) const {
    auto two = [&](auto op) -> std::optional<int64_t> {
      auto x = fold(e->kid(0), c), y = fold(e->kid(1), c);
      int64_t r;
      if (!x || !y || op(*x, *y, &r)) return std::nullopt;
      return r;
    };
    switch (e->op) {
      case Op::IntConst:
      case Op::BoolConst:
        if (!e->value.isSmall()) return std::nullopt;
        return e->value.small();
      case Op::EnumConst:
        return static_cast<int64_t>(e->payload);
      case Op::Pid:
        if (c.thread == kNone) return std::nullopt;
        return static_cast<int64_t>(instance_[c.thread]);
      case Op::Cast:
        return fold(e->kid(0), c);
      case Op::Neg: {
        auto x = fold(e->kid(0), c);
        if (!x || *x == INT64_MIN) return std::nullopt;
        return -*x;
      }
      case Op::Add:
        return two(
            [](int64_t x, int64_t y, int64_t* r) { return __builtin_add_overflow(x, y, r); });
      case Op::Sub:
        return two(
            [](int64_t x, int64_t y, int64_t* r) { return __builtin_sub_overflow(x, y, r); });
      case Op::Mul:
        return two(
            [](int64_t x, int64_t y, int64_t* r) { return __builtin_mul_overflow(x, y, r); });
      default:
        return std::nullopt;
    }
  }

  // The threads a process reference (AtLoc, ProcLocal) may name.
  std::pair<uint32_t, uint32_t> instances(ExprRef e, ir::CfaId cfa, Ctx c, Objects& reads) {
    const uint32_t base = cfa < threadBase_.size() ? threadBase_[cfa] : kNone;
    if (base == kNone) {
      fail("a reference to a CFA that is not a process");
      return {0, 0};
    }
    const uint32_t n = p_.cfas[cfa].instances;
    if (e->kids.empty()) return {base, base + 1};
    read(e->kid(0), c, reads);
    auto i = fold(e->kid(0), c);
    if (i && *i >= 0 && *i < n)
      return {base + static_cast<uint32_t>(*i), base + static_cast<uint32_t>(*i) + 1};
    return {base, base + n};
  }

  // The objects of variable v as seen from thread c (the whole variable).
  void variable(ir::VarId v, uint32_t thread, Objects& out) {
    const ir::Variable& var = p_.vars[v];
    if (var.scope == ir::VarScope::Global) {
      for (uint32_t k = 0; k < varCells_[v]; ++k) out.push_back(varBase_[v] + k);
      return;
    }
    if ((var.scope != ir::VarScope::Local && var.scope != ir::VarScope::ProcessLocal) ||
        thread == kNone || localIndex_[v] == kNone || var.owner != a_.threadCfa_[thread])
      return fail("a variable the analysis cannot place (" + var.name + ")");
    out.push_back(localBase_[thread] + localIndex_[v]);
  }

  // The objects an lvalue-shaped expression (a variable or a chain of selects) denotes; the
  // indices are read. A constant index picks one element of a global array.
  void place(ExprRef e, Ctx c, Objects& objs, Objects& reads) {
    std::vector<ExprRef> idx;
    ExprRef b = e;
    while (b->op == Op::Select) {
      idx.push_back(b->kid(1));
      b = b->kid(0);
    }
    std::reverse(idx.begin(), idx.end());
    for (ExprRef i : idx) read(i, c, reads);
    if (b->op == Op::ProcLocal) {
      auto v = static_cast<ir::VarId>(b->value.small());
      auto [lo, hi] = instances(b, p_.vars[v].owner, c, reads);
      for (uint32_t t = lo; t < hi; ++t) variable(v, t, objs);
      return;
    }
    if (b->op != Op::Var) {
      read(b, c, reads);  // an array value (a literal): nothing shared beyond its reads
      return;
    }
    const ir::VarId v = b->payload;
    const ir::Variable& var = p_.vars[v];
    if (var.scope != ir::VarScope::Global || varCells_[v] == 1 || idx.empty())
      return variable(v, c.thread, objs);
    TypeRef t = var.type;
    uint64_t off = 0;
    for (ExprRef i : idx) {
      auto k = fold(i, c);
      if (!t->isFixedArray() || !k || *k < 0 || *k >= t->length) break;
      off += static_cast<uint64_t>(*k) * *cellsOf(t->elem);
      t = t->elem;
    }
    const uint64_t n = *cellsOf(t);
    for (uint64_t k = 0; k < n; ++k) objs.push_back(varBase_[v] + static_cast<uint32_t>(off + k));
  }

  void read(ExprRef e, Ctx c, Objects& out) {
    switch (e->op) {
      case Op::Var:
      case Op::Select:
      case Op::ProcLocal:
        return place(e, c, out, out);
      case Op::AtLoc: {
        auto l = static_cast<ir::LocId>(e->value.small());
        auto [lo, hi] = instances(e, p_.locs[l].cfa, c, out);
        for (uint32_t t = lo; t < hi; ++t) out.push_back(locObject(t, l));
        return;
      }
      case Op::Call:
      case Op::Deref:
      case Op::AddrOf:
      case Op::Field:
      case Op::Old:
      case Op::NewArray:
      case Op::Store:
      case Op::Symbol:
        return fail(std::string("an expression with ") + opName(e->op));
      default:
        for (ExprRef k : e->kids) read(k, c, out);
    }
  }

  // What edge e does when thread t takes it alone (not its atomic continuation).
  Access edgeAccess(uint32_t t, const ir::Edge& e) {
    Access a;
    Ctx c{t};
    if (e.kind == ir::EdgeKind::Call || e.kind == ir::EdgeKind::Return) {
      fail("calls in processes");
      return a;
    }
    if (e.to >= p_.locs.size() || p_.locs[e.to].cfa != p_.locs[e.from].cfa) {
      fail("an edge leaving its CFA");
      return a;
    }
    a.reads.push_back(locObject(t, e.from));
    for (ExprRef x : {e.guard, e.cond, e.chanIndex})
      if (x) read(x, c, a.reads);
    for (ExprRef x : e.args) read(x, c, a.reads);
    for (const ir::Assignment& as : e.assigns) {
      place(as.lhs, c, a.writes, a.reads);
      if (as.rhs) read(as.rhs, c, a.reads);
    }
    if (e.from != e.to) {
      a.writes.push_back(locObject(t, e.from));
      a.writes.push_back(locObject(t, e.to));
    }
    if (e.kind == ir::EdgeKind::Sync && e.channel < chanObject_.size()) {
      a.reads.push_back(chanObject_[e.channel]);
      a.writes.push_back(chanObject_[e.channel]);
    }
    return a;
  }

  void transitions() {
    const uint32_t nt = static_cast<uint32_t>(a_.threadCfa_.size());
    a_.edgeIndex_.assign(p_.edges.size(), kNone);
    for (const ir::Cfa& c : p_.cfas) {
      uint32_t k = 0;
      for (ir::LocId l : c.locs)
        for (ir::EdgeId e : p_.locs[l].out) a_.edgeIndex_[e] = k++;
    }
    a_.outs_.resize(nt);
    for (uint32_t t = 0; t < nt && ok_; ++t) {
      const ir::Cfa& c = p_.cfas[a_.threadCfa_[t]];
      a_.threadFirst_.push_back(static_cast<uint32_t>(a_.trans_.size()));
      a_.outs_[t].resize(c.locs.size());
      std::vector<Access> own;  // by edge index within the CFA
      for (ir::LocId l : c.locs)
        for (ir::EdgeId e : p_.locs[l].out) own.push_back(edgeAccess(t, p_.edges[e]));
      if (!ok_) return;
      for (ir::LocId l : c.locs)
        for (ir::EdgeId e : p_.locs[l].out) {
          const ir::Edge& edge = p_.edges[e];
          TransInfo info;
          info.thread = t;
          info.edge = e;
          info.from = edge.from;
          info.to = edge.to;
          info.sync = edge.kind == ir::EdgeKind::Sync;
          Access acc = own[a_.edgeIndex_[e]];
          // An atomic block is one move: everything its edges may do, and every location it may
          // stop at.
          if (p_.locs[edge.to].atomic) {
            std::vector<char> seen(c.locs.size(), 0);
            std::vector<ir::LocId> todo{edge.to};
            acc.writes.push_back(locObject(t, edge.from));
            while (!todo.empty()) {
              ir::LocId l2 = todo.back();
              todo.pop_back();
              if (seen[a_.locIndex_[l2]]) continue;
              seen[a_.locIndex_[l2]] = 1;
              acc.writes.push_back(locObject(t, l2));
              if (!p_.locs[l2].atomic) continue;
              for (ir::EdgeId f : p_.locs[l2].out) {
                const Access& fa = own[a_.edgeIndex_[f]];
                acc.reads.insert(acc.reads.end(), fa.reads.begin(), fa.reads.end());
                acc.writes.insert(acc.writes.end(), fa.writes.begin(), fa.writes.end());
                todo.push_back(p_.edges[f].to);
              }
            }
          }
          normalize(acc.reads);
          normalize(acc.writes);
          // The guard's conjuncts, each with what it reads (the compiled engine evaluates them).
          std::vector<Objects> conj;
          if (edge.kind == ir::EdgeKind::Command && edge.guard && edge.guard->op != Op::Star &&
              !(edge.guard->op == Op::Not && edge.guard->kid(0)->op == Op::Star)) {
            std::vector<ExprRef> cs;
            ir::conjuncts(edge.guard, cs);
            for (ExprRef g : cs) {
              conj.emplace_back();
              read(g, Ctx{t}, conj.back());
              normalize(conj.back());
            }
          }
          info.conjuncts = static_cast<uint32_t>(conj.size());
          // What may enable it at its location: everything it reads but its own location.
          Objects enabling = acc.reads;
          enabling.erase(std::remove(enabling.begin(), enabling.end(), locObject(t, edge.from)),
                         enabling.end());
          a_.outs_[t][a_.locIndex_[edge.from]].push_back(static_cast<Trans>(a_.trans_.size()));
          a_.trans_.push_back(info);
          access_.push_back(std::move(acc));
          enablingReads_.push_back(std::move(enabling));
          conjReads_.push_back(std::move(conj));
        }
    }
    // Reachability between the locations of each CFA (the enabling sets of a transition whose
    // thread is elsewhere: the thread's moves towards it).
    a_.reach_.assign(p_.locs.size(), {});
    for (ir::CfaId cid : a_.threadCfa_) {
      const ir::Cfa& c = p_.cfas[cid];
      if (!a_.reach_[c.locs.front()].empty()) continue;
      const size_t words = (c.locs.size() + 63) / 64;
      for (ir::LocId l : c.locs) {
        std::vector<uint64_t> bits(words, 0);
        std::vector<ir::LocId> todo{l};
        while (!todo.empty()) {
          ir::LocId x = todo.back();
          todo.pop_back();
          const uint32_t i = a_.locIndex_[x];
          if (bits[i / 64] >> (i % 64) & 1) continue;
          bits[i / 64] |= uint64_t{1} << (i % 64);
          for (ir::EdgeId e : p_.locs[x].out) todo.push_back(p_.edges[e].to);
        }
        a_.reach_[l] = std::move(bits);
      }
    }
  }

  void invariants() {
    for (const ir::Property& inv : p_.invariants) read(inv.expr, Ctx{}, invReads_);
    normalize(invReads_);
  }

  void relations() {
    const size_t n = a_.trans_.size();
    size_t objects = 0;
    for (const Access& a : access_)
      for (const Objects* o : {&a.reads, &a.writes})
        if (!o->empty()) objects = std::max<size_t>(objects, o->back() + 1);
    std::vector<std::vector<Trans>> readers(objects), writers(objects);
    for (Trans x = 0; x < n; ++x) {
      for (uint32_t o : access_[x].reads) readers[o].push_back(x);
      for (uint32_t o : access_[x].writes) writers[o].push_back(x);
    }
    auto collect = [&](const Objects& objs, bool withReaders, Trans self) {
      std::vector<Trans> out;
      for (uint32_t o : objs) {
        if (o >= objects) continue;
        out.insert(out.end(), writers[o].begin(), writers[o].end());
        if (withReaders) out.insert(out.end(), readers[o].begin(), readers[o].end());
      }
      normalize(out);
      out.erase(std::remove(out.begin(), out.end(), self), out.end());
      return out;
    };
    a_.dep_.resize(n);
    a_.nes_.resize(n);
    a_.conjNes_.resize(n);
    for (Trans x = 0; x < n; ++x) {
      std::vector<Trans> d = collect(access_[x].writes, true, x);
      std::vector<Trans> r = collect(access_[x].reads, false, x);
      d.insert(d.end(), r.begin(), r.end());
      normalize(d);
      a_.dep_[x] = std::move(d);
      std::vector<Trans> nes = collect(enablingReads_[x], false, x);
      if (a_.trans_[x].sync) {
        // The partners it lacks: the other direction's ends on its channel, in other threads.
        const ir::Edge& e = p_.edges[a_.trans_[x].edge];
        for (Trans y = 0; y < n; ++y) {
          if (!a_.trans_[y].sync || a_.trans_[y].thread == a_.trans_[x].thread) continue;
          const ir::Edge& f = p_.edges[a_.trans_[y].edge];
          if (f.channel == e.channel && f.syncSend != e.syncSend) nes.push_back(y);
        }
        normalize(nes);
      }
      a_.nes_[x] = std::move(nes);
      // Conjunct k false keeps the guard false until it changes, or until one before it
      // (evaluated first) raises an error instead: the writers of what conjuncts 0..k read.
      Objects prefix;
      for (const Objects& c : conjReads_[x]) {
        prefix.insert(prefix.end(), c.begin(), c.end());
        normalize(prefix);
        a_.conjNes_[x].push_back(collect(prefix, false, x));
      }
      a_.trans_[x].visible = intersects(access_[x].writes, invReads_);
      if (a_.trans_[x].visible) a_.visible_.push_back(x);
    }
    // Local locations: their transitions' dependents (hence also the writers of what they read,
    // their enabling sets) are all of their own thread.
    a_.local_.resize(a_.threadCfa_.size());
    for (uint32_t t = 0; t < a_.threadCfa_.size(); ++t) {
      a_.local_[t].assign(a_.outs_[t].size(), 1);
      for (size_t l = 0; l < a_.outs_[t].size(); ++l)
        for (Trans x : a_.outs_[t][l]) {
          bool own = !a_.trans_[x].visible && !a_.trans_[x].sync;
          for (Trans y : a_.dep_[x]) own = own && a_.trans_[y].thread == t;
          if (!own) a_.local_[t][l] = 0;
        }
    }
  }

  const ir::Program& p_;
  PorAnalysis& a_;
  bool ok_ = true;
  std::string why_;
  std::vector<uint32_t> instance_, threadBase_;
  std::vector<uint32_t> varBase_, varCells_, localIndex_, localBase_, locBase_, chanObject_;
  std::vector<Access> access_;                   // by transition
  std::vector<Objects> enablingReads_;           // by transition
  std::vector<std::vector<Objects>> conjReads_;  // by transition, by conjunct
  Objects invReads_;
};

std::unique_ptr<const PorAnalysis> PorAnalysis::build(const ir::Program& p, std::string* why) {
  std::unique_ptr<PorAnalysis> a(new PorAnalysis());
  std::string w;
  if (!Builder(p, *a).run(w)) {
    if (why) *why = w;
    return nullptr;
  }
  return a;
}

PorAnalysis::Trans PorAnalysis::transition(uint32_t t, ir::EdgeId e) const {
  if (t >= threadFirst_.size() || e >= edgeIndex_.size() || edgeIndex_[e] == ir::kNone)
    return kNoTrans;
  const Trans x = threadFirst_[t] + edgeIndex_[e];
  return x < trans_.size() && trans_[x].thread == t && trans_[x].edge == e ? x : kNoTrans;
}

const std::vector<PorAnalysis::Trans>& PorAnalysis::outOf(uint32_t t, ir::LocId l) const {
  return outs_[t][locIndex_[l]];
}

bool PorAnalysis::reaches(ir::LocId from, ir::LocId to) const {
  const uint32_t i = locIndex_[to];
  return reach_[from][i / 64] >> (i % 64) & 1;
}

}  // namespace tandem::search
