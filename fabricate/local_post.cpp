#include "fabricate/local_post.h"

#include <algorithm>

#include "mc/expr/expr_walk.h"
#include "mc/ir/edge_exprs.h"

namespace tandem::fabricate {

namespace {

using abstraction::AbstractState;
using abstraction::Scope;
using abstraction::Truth;

void appendWord(std::string& key, uint64_t w) {
  key.append(reinterpret_cast<const char*>(&w), sizeof w);
}

uint64_t ptrWord(const void* p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }

ir::VarId rootVar(ExprRef lv) {
  while (lv->op == Op::Select) lv = lv->kid(0);
  return lv->op == Op::Var ? lv->payload : ir::kNone;
}

}  // namespace

LocalPosts::LocalPosts(const ir::Program& p, const abstraction::Abstraction& abs)
    : p_(p), abs_(abs) {
  if (!p.isClosed()) return;
  bool names = false;
  for (const ir::Edge& e : p.edges)
    ir::forEachExpr(e, [&](ExprRef x) {
      names = names || mentionsOp(x, Op::AtLoc) || mentionsOp(x, Op::ProcLocal);
    });
  // A rendezvous fragment moves two threads (its edges are the sender's and the receiver's),
  // which the read and write sets below, qualified by one thread, do not describe.
  usable_ = !names && !p.hasRendezvous();
}

LocalPosts::QVar LocalPosts::qualify(ir::VarId v, uint32_t thread) const {
  if (p_.vars[v].scope != ir::VarScope::ProcessLocal) return v;
  return (static_cast<uint64_t>(thread) + 1) << 32 | v;
}

const std::vector<LocalPosts::QVar>& LocalPosts::varsOf(ExprRef e, uint32_t thread) {
  auto [it, isNew] = vars_.try_emplace({e, thread});
  if (isNew) {
    // A predicate that names locations (`P@L`) changes with every step.
    if (mentionsOp(e, Op::AtLoc)) it->second.push_back(kLocations);
    for (uint32_t v : freeVars(e)) it->second.push_back(qualify(v, thread));
    std::sort(it->second.begin(), it->second.end());
  }
  return it->second;
}

const LocalPosts::ReadWrite& LocalPosts::readWriteOf(const symbolic::FragmentEnd& end) {
  auto [it, isNew] = rw_.try_emplace({end.thread, end.edges});
  if (!isNew) return it->second;
  ReadWrite& rw = it->second;
  for (ir::EdgeId id : end.edges) {
    const ir::Edge& e = p_.edges[id];
    ir::forEachExpr(e, [&](ExprRef x) {
      for (uint32_t v : freeVars(x)) rw.touched.push_back(qualify(v, end.thread));
    });
    for (const ir::Assignment& a : e.assigns)
      if (ir::VarId v = rootVar(a.lhs); v != ir::kNone)
        rw.written.push_back(qualify(v, end.thread));
  }
  rw.touched.push_back(kLocations);
  rw.written.push_back(kLocations);
  for (auto* xs : {&rw.touched, &rw.written}) {
    std::sort(xs->begin(), xs->end());
    xs->erase(std::unique(xs->begin(), xs->end()), xs->end());
  }
  return rw;
}

bool LocalPosts::meets(const std::vector<QVar>& vars, const std::vector<QVar>& set) const {
  for (QVar v : vars)
    if (std::binary_search(set.begin(), set.end(), v)) return true;
  return false;
}

bool LocalPosts::errorExcluded(const AbstractState& pre,
                               const abstraction::Abstraction::Valuation& preVal,
                               const symbolic::FragmentEnd& end, const Check& check) {
  if (end.edges.empty()) return false;
  const Scope& sp = abs_.scopeAt(pre.pcs);
  const ReadWrite& rw = readWriteOf(end);
  const QVar mine = (static_cast<uint64_t>(end.thread) + 1) << 32;
  // Entries over the thread's own locals alone, all of them touched by the path.
  auto ownTouched = [&](const std::vector<QVar>& vars) {
    if (vars.empty()) return false;
    for (QVar v : vars)
      if ((v >> 32) != (mine >> 32) || !std::binary_search(rw.touched.begin(), rw.touched.end(), v))
        return false;
    return true;
  };
  std::string key = "E";
  appendWord(key, end.thread);
  appendWord(key, end.edges.size());
  for (ir::EdgeId e : end.edges) appendWord(key, e);
  std::vector<ExprRef> lits;
  for (size_t k = 0; k < sp.preds.size(); ++k) {
    if (!ownTouched(varsOf(sp.preds[k].expr, sp.preds[k].thread))) continue;
    appendWord(key, ptrWord(sp.preds[k].expr));
    appendWord(key, pre.truth[k]);
    lits.push_back(abs_.literal(preVal.defined[k], preVal.value[k], pre.truth[k]));
  }
  for (size_t k = 0; k < sp.exact.size(); ++k) {
    if (!ownTouched(varsOf(sp.exact[k].expr, sp.exact[k].thread))) continue;
    appendWord(key, ptrWord(sp.exact[k].expr));
    appendWord(key, pre.exact[k]);
    lits.push_back(abs_.exactLiteral(preVal.exact[k], sp.exact[k].expr->type, pre.exact[k]));
  }
  if (lits.empty()) return false;
  auto it = excluded_.find(key);
  if (it != excluded_.end()) {
    ++hits_;
    return it->second;
  }
  lits.insert(lits.end(), end.pathCond.begin(), end.pathCond.end());
  const bool unsat = check(std::move(lits)).isUnsat();
  excluded_.emplace(std::move(key), unsat);
  return unsat;
}

std::optional<std::vector<AbstractState>> LocalPosts::candidates(
    const AbstractState& pre, const abstraction::Abstraction::Valuation& preVal,
    const symbolic::FragmentEnd& end, const abstraction::Abstraction::Valuation& postVal,
    const smt::Solver& solver, const Check& check) {
  if (end.edges.empty()) return std::nullopt;
  const Scope& sp = abs_.scopeAt(pre.pcs);
  const Scope& sq = abs_.scopeAt(end.post.pcs);
  const ReadWrite& rw = readWriteOf(end);
  ExprManager& em = *p_.exprs;

  // The key: the path, the pre-state's entries over what it touches (identity and value), and
  // the post-state's entries it can change (identity).
  std::string key;
  appendWord(key, end.thread);
  appendWord(key, end.edges.size());
  for (ir::EdgeId e : end.edges) appendWord(key, e);
  std::vector<size_t> relPreds, relExact;
  for (size_t k = 0; k < sp.preds.size(); ++k) {
    if (!meets(varsOf(sp.preds[k].expr, sp.preds[k].thread), rw.touched)) continue;
    relPreds.push_back(k);
    appendWord(key, ptrWord(sp.preds[k].expr));
    appendWord(key, (uint64_t{sp.preds[k].thread} << 32) | pre.truth[k]);
  }
  for (size_t k = 0; k < sp.exact.size(); ++k) {
    if (!meets(varsOf(sp.exact[k].expr, sp.exact[k].thread), rw.touched)) continue;
    relExact.push_back(k);
    appendWord(key, ptrWord(sp.exact[k].expr));
    appendWord(key, (uint64_t{sp.exact[k].thread} << 32) | pre.exact[k]);
  }
  // Post entries: the pre-state's index of each, or -1 where the path can change it.
  std::map<std::tuple<ExprRef, uint32_t, uint32_t>, size_t> preIndex, preExactIndex;
  for (size_t k = 0; k < sp.preds.size(); ++k)
    preIndex[{sp.preds[k].expr, sp.preds[k].thread, sp.preds[k].frame}] = k;
  for (size_t k = 0; k < sp.exact.size(); ++k)
    preExactIndex[{sp.exact[k].expr, sp.exact[k].thread, sp.exact[k].frame}] = k;
  std::vector<int64_t> fromPre(sq.preds.size(), -1), fromPreExact(sq.exact.size(), -1);
  std::vector<size_t> affPreds, affExact;
  appendWord(key, UINT64_MAX);
  for (size_t k = 0; k < sq.preds.size(); ++k) {
    auto it = preIndex.find({sq.preds[k].expr, sq.preds[k].thread, sq.preds[k].frame});
    if (it != preIndex.end() && !meets(varsOf(sq.preds[k].expr, sq.preds[k].thread), rw.written)) {
      fromPre[k] = static_cast<int64_t>(it->second);
      continue;
    }
    affPreds.push_back(k);
    appendWord(key, ptrWord(sq.preds[k].expr));
    appendWord(key, sq.preds[k].thread);
  }
  for (size_t k = 0; k < sq.exact.size(); ++k) {
    auto it = preExactIndex.find({sq.exact[k].expr, sq.exact[k].thread, sq.exact[k].frame});
    if (it != preExactIndex.end() &&
        !meets(varsOf(sq.exact[k].expr, sq.exact[k].thread), rw.written)) {
      fromPreExact[k] = static_cast<int64_t>(it->second);
      continue;
    }
    affExact.push_back(k);
    appendWord(key, ptrWord(sq.exact[k].expr));
    appendWord(key, sq.exact[k].thread);
  }

  auto literal = [&](ExprRef defined, ExprRef value, uint32_t truth) {
    return abs_.literal(defined, value, static_cast<uint8_t>(truth));
  };
  auto exactLiteral = [&](ExprRef value, TypeRef t, uint32_t code) {
    return abs_.exactLiteral(value, t, code);
  };

  auto found = cache_.find(key);
  if (found != cache_.end()) {
    ++hits_;
  } else {
    // Enumerate the changed entries' values over the pre-state's entries that matter.
    std::vector<ExprRef> base;
    for (size_t k : relPreds)
      base.push_back(literal(preVal.defined[k], preVal.value[k], pre.truth[k]));
    for (size_t k : relExact)
      base.push_back(exactLiteral(preVal.exact[k], sp.exact[k].expr->type, pre.exact[k]));
    base.insert(base.end(), end.pathCond.begin(), end.pathCond.end());
    Entry entry;
    constexpr size_t kMaxCandidates = 64;
    for (;;) {
      smt::CheckResult r = check(base);
      if (r.isUnsat()) break;
      if (!r.isSat() || entry.values.size() == kMaxCandidates) return std::nullopt;
      const smt::Model& m = solver.model();
      std::vector<uint32_t> vals;
      ExprRef cube = em.trueExpr();
      for (size_t k : affPreds) {
        auto d = m.evalBool(postVal.defined[k]);
        if (!d) return std::nullopt;
        uint32_t truth = static_cast<uint32_t>(Truth::Undefined);
        if (*d) {
          auto v = m.evalBool(postVal.value[k]);
          if (!v) return std::nullopt;
          truth = static_cast<uint32_t>(*v ? Truth::True : Truth::False);
        }
        vals.push_back(truth);
        cube = em.mkAnd(cube, literal(postVal.defined[k], postVal.value[k], truth));
      }
      for (size_t k : affExact) {
        auto v = m.evalInt(postVal.exact[k]);
        if (!v || !v->toInt64()) return std::nullopt;
        const auto code = static_cast<uint32_t>(*v->toInt64());
        vals.push_back(code);
        cube = em.mkAnd(cube, exactLiteral(postVal.exact[k], sq.exact[k].expr->type, code));
      }
      entry.values.push_back(std::move(vals));
      base.push_back(em.mkNot(cube));
    }
    found = cache_.emplace(std::move(key), std::move(entry)).first;
  }

  std::vector<AbstractState> out;
  for (const std::vector<uint32_t>& vals : found->second.values) {
    AbstractState a;
    a.pcs = end.post.pcs;
    size_t next = 0;
    a.truth.resize(sq.preds.size());
    a.exact.resize(sq.exact.size());
    for (size_t k : affPreds) a.truth[k] = static_cast<uint8_t>(vals[next++]);
    for (size_t k : affExact) a.exact[k] = vals[next++];
    for (size_t k = 0; k < sq.preds.size(); ++k)
      if (fromPre[k] >= 0) a.truth[k] = pre.truth[static_cast<size_t>(fromPre[k])];
    for (size_t k = 0; k < sq.exact.size(); ++k)
      if (fromPreExact[k] >= 0) a.exact[k] = pre.exact[static_cast<size_t>(fromPreExact[k])];
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace tandem::fabricate
