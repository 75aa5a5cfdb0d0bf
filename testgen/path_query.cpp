#include "testgen/path_query.h"

#include "mc/symbolic/complex_terms.h"

namespace tandem::testgen {

namespace {

using Subst = std::map<ExprRef, ExprRef>;

class Builder {
 public:
  Builder(Forest& f, Exploration mode, const std::function<bool(Target, ir::CfaId)>& reaches)
      : f_(f), em_(f.exprs()), mode_(mode), reaches_(reaches) {}

  PathQuery build(Target t) {
    Subst& sigma = instance(t.cfa);
    std::vector<ExprRef> parts{pathTo(t.cfa, t.node, sigma, UINT32_MAX, true), context(t.cfa)};
    for (auto& [callee, apps] : apps_)
      for (size_t i = 0; i < apps.size(); ++i)
        for (size_t j = i + 1; j < apps.size(); ++j) parts.push_back(congruence(apps[i], apps[j]));
    PathQuery q;
    for (ExprRef p : parts) symbolic::flattenConjuncts(p, q.conjuncts);
    q.guards = std::move(guardTargets_);
    return q;
  }

 private:
  struct App {
    std::vector<ExprRef> args;
    ExprRef result;
  };

  bool relevant() const { return mode_ == Exploration::Relevant; }

  ExprRef guard(Target d) {
    auto it = guards_.find(d);
    if (it != guards_.end()) return it->second;
    ExprRef g = em_.freshSymbol("G_" + f_.program().cfas[d.cfa].name + "_" + std::to_string(d.node),
                                em_.types().boolType());
    guards_.emplace(d, g);
    guardTargets_.emplace(g, d);
    return g;
  }

  // The query's own copy of a procedure in the context chain (the entry's symbols are the
  // query's inputs; a summarised procedure's parameters are fresh constants).
  Subst& instance(ir::CfaId c) {
    auto [it, fresh] = instances_.try_emplace(c);
    if (fresh && c != f_.entry()) {
      const ir::Cfa& cfa = f_.program().cfas[c];
      for (size_t i = 0; i < cfa.params.size(); ++i) {
        ExprRef x = f_.param(c, i).expr;
        it->second[x] = em_.freshSymbol(em_.symbolName(x->payload) + "'", x->type);
      }
    }
    return it->second;
  }

  // The image of `e`, with the constants the arguments bring folded (a summary instantiated at
  // constant arguments keeps only the paths they can take).
  ExprRef sub(ExprRef e, const Subst& s) {
    if (s.empty()) return e;
    const symbolic::SymEvaluator& sev = f_.evaluator();
    return symbolic::substitute(em_, e, s, [&sev](ExprRef node, std::vector<ExprRef> kids) {
      if (node->op == Op::Select && kids[1]->isConst()) {
        ExprRef a = kids[0];
        const BigInt& i = kids[1]->value;
        while (a->op == Op::Store && a->kid(1)->isConst() && a->kid(1)->value != i) a = a->kid(0);
        if (a->op == Op::Store && a->kid(1)->isConst()) return a->kid(2);
        if (a->op == Op::ArrayLit && i.sign() >= 0 &&
            i < BigInt(static_cast<int64_t>(a->kids.size())))
          return a->kid(static_cast<size_t>(i.toInt64().value_or(0)));
      }
      return sev.mk(node->op, node->type, std::move(kids), node->payload, node->value);
    });
  }

  // The calls at node `n` of `c`'s tree with ordinal below `before`, each with its summary; the
  // results' constants go to `s`.
  ExprRef calls(ir::CfaId c, uint32_t n, Subst& s, uint32_t before) {
    std::vector<ExprRef> out;
    for (const CallSite& site : f_.tree(c).node(n).calls) {
      if (site.ordinal >= before) continue;
      std::vector<ExprRef> args;
      for (ExprRef a : site.args) args.push_back(sub(a, s));
      ExprRef r = nullptr;
      if (site.result) {
        if (c == f_.entry()) {
          r = site.result;  // one execution runs the entry once: its symbols are the query's
        } else {
          r = em_.freshSymbol(em_.symbolName(site.result->payload) + "'", site.result->type);
          s[site.result] = r;
        }
      }
      out.push_back(summary(site.callee, args, r));
    }
    return em_.mkAnd(out);
  }

  // D_g(args, r).
  ExprRef summary(ir::CfaId g, const std::vector<ExprRef>& args, ExprRef r) {
    if (r) {
      bool scalar = true;
      for (ExprRef a : args) scalar = scalar && a->type && a->type->kind != TypeKind::Array;
      if (scalar) apps_[g].push_back(App{args, r});
    }
    Subst s;
    const ir::Cfa& cfa = f_.program().cfas[g];
    for (size_t i = 0; i < cfa.params.size() && i < args.size(); ++i)
      s[f_.param(g, i).expr] = args[i];
    return subtree(g, 0, s, r);
  }

  // The returning paths below node `n` of g's tree (its condition excluded).
  ExprRef subtree(ir::CfaId g, uint32_t n, Subst s, ExprRef r) {
    const ExecTree& t = f_.tree(g);
    const TreeNode& node = t.node(n);
    std::vector<ExprRef> here{calls(g, n, s, UINT32_MAX)};
    std::vector<ExprRef> ways;
    if (node.returned)
      ways.push_back(r && node.ret ? em_.mkEq(r, sub(node.ret, s)) : em_.trueExpr());
    if (node.cut && relevant()) ways.push_back(guard(Target{g, n}));
    for (uint32_t k : node.kids) {
      const TreeNode& kid = t.node(k);
      if (kid.error || (!kid.explored && !(relevant() && kid.dangling()))) continue;
      // Constant arguments fold many conditions: a subtree behind a false one is left out.
      ExprRef cond = sub(kid.cond, s);
      if (cond->isFalse()) continue;
      if (kid.explored)  // (an explored error branch fails: no return)
        ways.push_back(em_.mkAnd(cond, subtree(g, k, s, r)));
      else
        ways.push_back(em_.mkAnd(guard(Target{g, k}), cond));
    }
    ExprRef any = em_.falseExpr();
    for (ExprRef w : ways) any = em_.mkOr(any, w);
    here.push_back(any);
    return em_.mkAnd(here);
  }

  // Node `n` of c's tree is reached: the conditions from the root, the calls at every node
  // before it, and at `n` the calls with ordinal below `before`.
  ExprRef pathTo(ir::CfaId c, uint32_t n, Subst& s, uint32_t before, bool withCond) {
    const ExecTree& t = f_.tree(c);
    std::vector<uint32_t> chain;
    for (uint32_t m = n; m != kNoNode; m = t.node(m).parent) chain.push_back(m);
    std::vector<ExprRef> out;
    for (size_t i = chain.size(); i-- > 0;) {
      const uint32_t m = chain[i];
      if (m != 0 && (m != n || withCond)) out.push_back(sub(t.node(m).cond, s));
      out.push_back(calls(c, m, s, m == n ? before : UINT32_MAX));
    }
    return em_.mkAnd(out);
  }

  // C_f over the parameters of f's instance.
  ExprRef context(ir::CfaId fcfa) {
    if (fcfa == f_.entry()) return em_.trueExpr();
    auto memo = contexts_.find(fcfa);
    if (memo != contexts_.end()) return memo->second;
    contexts_[fcfa] = em_.falseExpr();  // no cycles of summarised calls, but be safe
    const ir::Program& p = f_.program();
    const ir::Cfa& callee = p.cfas[fcfa];
    std::vector<ExprRef> params;
    for (size_t i = 0; i < callee.params.size(); ++i)
      params.push_back(instance(fcfa).at(f_.param(fcfa, i).expr));
    ExprRef any = em_.falseExpr();
    for (ir::CfaId h = 0; h < p.cfas.size(); ++h) {
      const ExecTree* t = f_.treeOf(h);
      if (!t || h == fcfa) continue;
      std::vector<ExprRef> ways;
      for (uint32_t n = 0; n < t->size(); ++n) {
        const TreeNode& node = t->node(n);
        for (const CallSite& site : node.calls) {
          if (site.callee != fcfa) continue;
          Subst s = instance(h);
          std::vector<ExprRef> w{pathTo(h, n, s, site.ordinal, true)};
          for (size_t i = 0; i < params.size() && i < site.args.size(); ++i)
            w.push_back(em_.mkEq(params[i], sub(site.args[i], s)));
          ways.push_back(em_.mkAnd(w));
        }
        if (relevant() && node.dangling() && !node.error && reaches_(Target{h, n}, fcfa)) {
          Subst s = instance(h);
          ways.push_back(em_.mkAnd(guard(Target{h, n}), pathTo(h, n, s, UINT32_MAX, true)));
        }
      }
      if (ways.empty()) continue;
      ExprRef some = em_.falseExpr();
      for (ExprRef w : ways) some = em_.mkOr(some, w);
      any = em_.mkOr(any, em_.mkAnd(some, context(h)));
    }
    contexts_[fcfa] = any;
    return any;
  }

  ExprRef congruence(const App& a, const App& b) {
    std::vector<ExprRef> same;
    for (size_t i = 0; i < a.args.size() && i < b.args.size(); ++i)
      same.push_back(em_.mkEq(a.args[i], b.args[i]));
    return em_.mkOr(em_.mkNot(em_.mkAnd(same)), em_.mkEq(a.result, b.result));
  }

  Forest& f_;
  ExprManager& em_;
  Exploration mode_;
  const std::function<bool(Target, ir::CfaId)>& reaches_;
  std::map<ir::CfaId, Subst> instances_;
  std::map<ir::CfaId, ExprRef> contexts_;
  std::map<Target, ExprRef> guards_;
  std::map<ExprRef, Target> guardTargets_;
  std::map<ir::CfaId, std::vector<App>> apps_;
};

}  // namespace

PathQuery buildQuery(Forest& forest, Target t, Exploration mode,
                     const std::function<bool(Target, ir::CfaId)>& reaches) {
  return Builder(forest, mode, reaches).build(t);
}

}  // namespace tandem::testgen
