#include "mc/horn/lower.h"

#include <cctype>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "mc/horn/substitution.h"
#include "mc/ir/ir_printer.h"
#include "mc/lang/scanner.h"

namespace tandem::horn {

namespace {

// Identifiers for labels and variables: SMT-LIB symbols may hold any character (`|main@%_1|`).
class Names {
 public:
  std::string unique(const std::string& raw) {
    std::string s;
    for (char c : raw) s += isIdentChar(c) ? c : '_';
    if (s.empty() || isDigit(s[0])) s = "_" + s;
    std::string name = s;
    for (int i = 2; !used_.insert(name).second; ++i) name = s + "_" + std::to_string(i);
    return name;
  }

 private:
  std::set<std::string> used_;
};

// A symbol as SMT-LIB writes it: quoted (`|main@%_1|`) unless it is a simple symbol.
std::string smtSymbol(const std::string& raw) {
  static constexpr std::string_view kExtra = "~!@$%^&*_-+=<>.?/";
  bool simple = !raw.empty() && !isDigit(raw[0]);
  for (char c : raw)
    simple = simple && (std::isalnum(static_cast<unsigned char>(c)) ||
                        kExtra.find(c) != std::string_view::npos);
  return simple ? raw : "|" + raw + "|";
}

struct Predicate {
  ir::LocId loc = ir::kNone;
  std::vector<ir::VarId> args;
  std::vector<z3::expr> argConsts;  // the constants that stand for the args in the clauses
};

class Lowerer {
 public:
  Lowerer(z3::context& ctx, const Clauses& cs, const CommandPositions& at, ir::Program& p)
      : ctx_(ctx), cs_(cs), at_(at), p_(p), tt_(*p.types), em_(*p.exprs) {}

  void run() {
    cfa_ = static_cast<ir::CfaId>(p_.cfas.size());
    ir::Cfa c;
    c.name = "chc";
    c.kind = ir::CfaKind::Process;
    p_.cfas.push_back(std::move(c));
    p_.processes.push_back(cfa_);
    names_.unique("chc");
    init_ = location("init", {});
    p_.cfas[cfa_].entry = init_;
    p_.locs[init_].isEntry = true;
    error_ = location("error", {});
    for (const z3::func_decl& d : cs_.predicates) declare(d);
    const ir::LocId halt = location("", {});
    ir::Edge fail;
    fail.kind = ir::EdgeKind::Assert;
    fail.from = error_;
    fail.to = halt;
    fail.cond = em_.falseExpr();
    fail.errorKind = ir::ErrorKind::Assert;
    fail.text = "false (a query clause holds)";
    p_.edges.push_back(std::move(fail));
    for (const Clause& cl : cs_.clauses) lower(cl);
    ir::linkEdges(p_);
  }

 private:
  ir::LocId location(const std::string& label, SourceLoc loc) {
    ir::Location l;
    l.id = static_cast<ir::LocId>(p_.locs.size());
    l.cfa = cfa_;
    if (!label.empty()) l.labels.push_back(names_.unique(label));
    l.loc = loc;
    l.validEnd = true;  // a derivation may end anywhere: never a deadlock
    p_.cfas[cfa_].locs.push_back(l.id);
    p_.locs.push_back(std::move(l));
    return p_.locs.back().id;
  }

  TypeRef typeOf(const z3::sort& s) { return s.is_bool() ? tt_.boolType() : tt_.intType(); }

  ir::VarId local(const std::string& name, TypeRef type, SourceLoc loc) {
    ir::Cfa& c = p_.cfas[cfa_];
    const ir::VarId v = p_.addVariable(names_.unique(name), type, ir::VarScope::ProcessLocal, cfa_,
                                       static_cast<uint32_t>(c.processLocals.size()));
    p_.vars[v].loc = loc;
    p_.cfas[cfa_].processLocals.push_back(v);
    return v;
  }

  void declare(const z3::func_decl& d) {
    const std::string name = d.name().str();
    const SourceLoc at = at_.declarationOf(name);
    Predicate pr;
    pr.loc = location(name, at);
    p_.locs[pr.loc].keepCutpoint = true;
    ir::Program::HornPredicate hp{smtSymbol(name), {}, pr.loc, {}};
    for (unsigned i = 0; i < d.arity(); ++i) {
      const ir::VarId v = local(name + "_" + std::to_string(i), typeOf(d.domain(i)), at);
      pr.args.push_back(v);
      hp.sorts.push_back(d.domain(i).is_bool() ? "Bool" : "Int");
      hp.args.push_back(v);
      z3::expr k(ctx_, Z3_mk_fresh_const(ctx_, p_.vars[v].name.c_str(), d.domain(i)));
      vars_.emplace(k.decl().id(), v);
      pr.argConsts.push_back(k);
    }
    p_.hornPredicates.push_back(std::move(hp));
    preds_.emplace(d.id(), std::move(pr));
  }

  // The process local that holds clause variable `v` where it is havocked: one per name and
  // sort, shared by the clauses (each havocks it before it reads it).
  ir::VarId clauseVar(const z3::expr& v, SourceLoc at) {
    const std::string name = v.decl().name().str();
    const std::string base = name.substr(0, name.rfind('!'));  // Z3's fresh constants: `A!3`
    auto key = std::make_pair(base, v.is_bool());
    auto it = clauseVars_.find(key);
    if (it == clauseVars_.end())
      it = clauseVars_.emplace(key, local(base, typeOf(v.get_sort()), at)).first;
    return it->second;
  }

  void lower(const Clause& cl) {
    clause_ = cl.assertion;
    const SourceLoc at = at_.assertAt(cl.assertion);
    Substitution sub(ctx_, cl.vars);
    std::vector<std::pair<z3::expr, z3::expr>> argEqs;  // (the body's local, its term)
    ir::LocId from = init_;
    if (cl.body) {
      const Predicate& pr = preds_.at(cl.body->decl().id());
      from = pr.loc;
      for (unsigned i = 0; i < cl.body->num_args(); ++i) {
        const z3::expr t = cl.body->arg(i);
        if (!sub.bind(t, pr.argConsts[i])) argEqs.emplace_back(pr.argConsts[i], t);
      }
    }
    std::vector<z3::expr> guard = cl.constraint;
    for (auto& [k, t] : argEqs) guard.push_back(k == t);
    std::vector<z3::expr> heads;
    if (cl.head)
      for (unsigned i = 0; i < cl.head->num_args(); ++i) heads.push_back(cl.head->arg(i));
    sub.eliminate(guard, heads);
    // What is left of the clause's variables is havocked.
    std::map<unsigned, ir::VarId> havocked;
    for (const z3::expr& v : sub.freeVars(guard, heads))
      havocked.emplace(v.decl().id(), clauseVar(v, at));
    for (auto& [id, var] : havocked) vars_[id] = var;
    // The guard's conjuncts that read no havocked variable go before the havoc.
    std::vector<ExprRef> early, late;
    for (const z3::expr& g : guard) (sub.reads(g, havocked) ? late : early).push_back(term(g));
    std::vector<ir::Assignment> assigns;
    ir::LocId to = error_;
    if (cl.head) {
      const Predicate& pr = preds_.at(cl.head->decl().id());
      to = pr.loc;
      for (size_t i = 0; i < heads.size(); ++i) {
        ExprRef rhs = term(heads[i]);
        ExprRef lhs = em_.var(pr.args[i], p_.vars[pr.args[i]].type);
        if (rhs != lhs) assigns.push_back({lhs, rhs});
      }
    }
    const std::string name = "clause " + std::to_string(cl.assertion + 1) + ":";
    if (!havocked.empty()) {
      const ir::LocId mid = location("clause" + std::to_string(cl.assertion + 1), at);
      std::vector<ir::Assignment> havoc;
      for (auto& [id, var] : havocked) havoc.push_back({em_.var(var, p_.vars[var].type), nullptr});
      edge(from, mid, em_.mkAnd(std::span<const ExprRef>(early)), std::move(havoc), at, name);
      early.clear();
      from = mid;
    }
    early.insert(early.end(), late.begin(), late.end());
    edge(from, to, em_.mkAnd(std::span<const ExprRef>(early)), std::move(assigns), at, name);
  }

  void edge(ir::LocId from, ir::LocId to, ExprRef guard, std::vector<ir::Assignment> assigns,
            SourceLoc at, std::string text) {
    ir::Edge e;
    e.kind = ir::EdgeKind::Command;
    e.from = from;
    e.to = to;
    e.guard = guard->isTrue() ? nullptr : guard;
    e.assigns = std::move(assigns);
    e.loc = at;
    if (e.guard) text += " [" + ir::exprToString(p_, e.guard) + "]";
    // The havocs (a clause's first edge) as `havoc a, b`, else the parallel assignment.
    const bool havoc = !e.assigns.empty() && !e.assigns[0].rhs;
    if (havoc) text += " havoc";
    for (size_t i = 0; i < e.assigns.size(); ++i) {
      const ir::Assignment& a = e.assigns[i];
      text += (i == 0 ? " " : ", ") + ir::exprToString(p_, a.lhs);
      if (!havoc) text += " := " + ir::exprToString(p_, a.rhs);
    }
    e.text = std::move(text);
    p_.edges.push_back(std::move(e));
  }

  [[noreturn]] void unsupported(const std::string& what) {
    throw Unsupported(clause_, "", what + " is not supported");
  }

  ExprRef term(const z3::expr& e) {
    if (e.is_numeral()) {
      if (!e.is_int()) unsupported("a numeral of sort " + e.get_sort().to_string());
      return em_.intConst(*BigInt::parse(Z3_get_numeral_string(e.ctx(), e)));
    }
    if (!e.is_app()) unsupported("the term " + e.to_string());
    if (!supportedSort(e.get_sort())) unsupported("a term of sort " + e.get_sort().to_string());
    const Z3_decl_kind k = e.decl().decl_kind();
    if (k == Z3_OP_UNINTERPRETED) {
      auto it = e.num_args() == 0 ? vars_.find(e.decl().id()) : vars_.end();
      if (it == vars_.end())
        unsupported("the uninterpreted " + std::string(e.num_args() ? "function" : "constant") +
                    " '" + e.decl().name().str() + "' (not a predicate)");
      return em_.var(it->second, p_.vars[it->second].type);
    }
    std::vector<ExprRef> a;
    for (unsigned i = 0; i < e.num_args(); ++i) a.push_back(term(e.arg(i)));
    const TypeRef b = tt_.boolType(), n = tt_.intType();
    auto fold = [&](Op op, TypeRef t) {
      ExprRef r = a.at(0);
      for (size_t i = 1; i < a.size(); ++i) r = em_.mk(op, t, {r, a[i]});
      return r;
    };
    switch (k) {
      case Z3_OP_TRUE:
        return em_.trueExpr();
      case Z3_OP_FALSE:
        return em_.falseExpr();
      case Z3_OP_AND:
        return em_.mkAnd(std::span<const ExprRef>(a));
      case Z3_OP_OR:
        return fold(Op::Or, b);
      case Z3_OP_NOT:
        return em_.mkNot(a.at(0));
      case Z3_OP_IMPLIES:
        return em_.mk(Op::Implies, b, {a.at(0), a.at(1)});
      case Z3_OP_XOR:
        return fold(Op::Ne, b);
      case Z3_OP_EQ:
      case Z3_OP_IFF: {
        std::vector<ExprRef> eqs;  // (= a b c): a = b and b = c
        for (size_t i = 1; i < a.size(); ++i) eqs.push_back(em_.mk(Op::Eq, b, {a[i - 1], a[i]}));
        return em_.mkAnd(std::span<const ExprRef>(eqs));
      }
      case Z3_OP_DISTINCT: {
        std::vector<ExprRef> ne;
        for (size_t i = 0; i < a.size(); ++i)
          for (size_t j = i + 1; j < a.size(); ++j) ne.push_back(em_.mk(Op::Ne, b, {a[i], a[j]}));
        return em_.mkAnd(std::span<const ExprRef>(ne));
      }
      case Z3_OP_ITE:
        return em_.mk(Op::Ite, a.at(1)->type, {a.at(0), a.at(1), a.at(2)});
      case Z3_OP_LE:
        return em_.mk(Op::Le, b, {a.at(0), a.at(1)});
      case Z3_OP_LT:
        return em_.mk(Op::Lt, b, {a.at(0), a.at(1)});
      case Z3_OP_GE:
        return em_.mk(Op::Ge, b, {a.at(0), a.at(1)});
      case Z3_OP_GT:
        return em_.mk(Op::Gt, b, {a.at(0), a.at(1)});
      case Z3_OP_ADD:
        return fold(Op::Add, n);
      case Z3_OP_SUB:
        return fold(Op::Sub, n);
      case Z3_OP_MUL:
        return fold(Op::Mul, n);
      case Z3_OP_UMINUS:
        return em_.mk(Op::Neg, n, {a.at(0)});
      case Z3_OP_IDIV:
      case Z3_OP_MOD:
        // SMT-LIB's div and mod are Euclidean, as the IR's; by zero they are unspecified
        // (any value), the IR's an error: only nonzero constant divisors agree.
        if (!e.arg(1).is_numeral() || std::string(Z3_get_numeral_string(e.ctx(), e.arg(1))) == "0")
          unsupported(std::string(k == Z3_OP_MOD ? "mod" : "div") + " by a non-constant or zero");
        return em_.mk(k == Z3_OP_MOD ? Op::Mod : Op::Div, n, {a.at(0), a.at(1)});
      default:
        unsupported("the operator '" + e.decl().name().str() + "'");
    }
  }

  z3::context& ctx_;
  const Clauses& cs_;
  const CommandPositions& at_;
  ir::Program& p_;
  TypeTable& tt_;
  ExprManager& em_;
  Names names_;
  ir::CfaId cfa_ = ir::kNone;
  ir::LocId init_ = ir::kNone, error_ = ir::kNone;
  size_t clause_ = 0;
  std::map<unsigned, Predicate> preds_;  // by Z3 declaration id
  std::map<unsigned, ir::VarId> vars_;   // Z3 constant's declaration id -> local
  std::map<std::pair<std::string, bool>, ir::VarId> clauseVars_;  // (name, is Bool)
};

}  // namespace

void lowerClauses(z3::context& ctx, const Clauses& clauses, const CommandPositions& at,
                  ir::Program& prog) {
  Lowerer(ctx, clauses, at, prog).run();
}

}  // namespace tandem::horn
