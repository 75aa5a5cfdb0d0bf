#include "mc/smt/smtlib_translate.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>

#include "mc/expr/expr_walk.h"
#include "mc/smt/encoder.h"

namespace tandem::smt {

std::string scalarSortText(ScalarSort s) {
  switch (s) {
    case ScalarSort::Bool:
      return "Bool";
    case ScalarSort::Int:
      return "Int";
    case ScalarSort::F64:
      return "Float64";
    default:
      return "(_ BitVec " + std::to_string(bvWidthOf(s)) + ")";
  }
}

namespace {

// A term as text, kept as a DAG so that printing can share subterms: a script names a subterm
// with define-fun when it is used twice, or every kNameDepth levels so printing never recurses
// deeply.
struct TextNode {
  enum class Kind : uint8_t { Atom, Const, Fun, App, Forall };
  Kind kind = Kind::Atom;
  uint32_t id = 0;       // creation order: declarations are printed in it
  std::string head;      // Atom: the literal; Const/Fun: the (quoted) name; App: the operator
  std::string sort;      // sort of the value (Fun: of its result)
  std::string elemSort;  // arrays: sort of the elements
  unsigned width = 0;    // bit-vectors: width; arrays: element width
  unsigned depth = 0;
  std::vector<const TextNode*> kids;  // App: arguments; Forall: bound constants, then the body
  const TextNode* fun = nullptr;      // App of an uninterpreted function
  std::string declaration;            // Const, Fun
};

constexpr unsigned kNameDepth = 32;

bool isSimpleSymbol(const std::string& s) {
  static const char* const kReserved[] = {
      "true",    "false",  "and",    "or",          "not",       "ite",         "let",
      "forall",  "exists", "assert", "as",          "par",       "match",       "distinct",
      "select",  "store",  "div",    "mod",         "abs",       "declare-fun", "define-fun",
      "_",       "!",      "=>",     "=",           "check-sat", "set-logic",   "NUMERAL",
      "DECIMAL", "STRING", "BINARY", "HEXADECIMAL",
  };
  if (s.empty() || (s[0] >= '0' && s[0] <= '9') || s[0] == '@' || s[0] == '.') return false;
  for (const char* r : kReserved)
    if (s == r) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("~!@$%^&*_-+=<>.?/").find(c) != std::string_view::npos;
  });
}

std::string quoteSymbol(const std::string& s) { return isSimpleSymbol(s) ? s : "|" + s + "|"; }

std::string arraySortText(const std::string& elem) { return "(Array Int " + elem + ")"; }

struct TextBuilder {
  using Term = const TextNode*;
  using Fun = const TextNode*;

  std::deque<TextNode> nodes;

  TextNode& make(TextNode::Kind kind, std::string head, std::string sort) {
    TextNode& n = nodes.emplace_back();
    n.kind = kind;
    n.id = static_cast<uint32_t>(nodes.size() - 1);
    n.head = std::move(head);
    n.sort = std::move(sort);
    return n;
  }

  Term boolVal(bool b) { return &make(TextNode::Kind::Atom, b ? "true" : "false", "Bool"); }
  Term intVal(const BigInt& v) {
    const std::string text = v.sign() < 0 ? "(- " + (-v).toString() + ")" : v.toString();
    return &make(TextNode::Kind::Atom, text, "Int");
  }
  Term bvVal(int64_t v, unsigned width) {
    uint64_t bits = static_cast<uint64_t>(v);
    if (width < 64) bits &= (uint64_t{1} << width) - 1;
    TextNode& n = make(TextNode::Kind::Atom,
                       "(_ bv" + std::to_string(bits) + " " + std::to_string(width) + ")",
                       "(_ BitVec " + std::to_string(width) + ")");
    n.width = width;
    return &n;
  }
  Term fpVal(uint64_t bits) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string text = "((_ to_fp 11 53) #x";
    for (int shift = 60; shift >= 0; shift -= 4) text += hex[(bits >> shift) & 15];
    return &make(TextNode::Kind::Atom, text + ")", "Float64");
  }
  Term constant(const std::string& name, SmtSort s) {
    const std::string elem = scalarSortText(s.elem);
    TextNode& n =
        make(TextNode::Kind::Const, quoteSymbol(name), s.array ? arraySortText(elem) : elem);
    n.width = bvWidthOf(s.elem);
    if (s.array) n.elemSort = elem;
    n.declaration = "(declare-fun " + n.head + " () " + n.sort + ")";
    return &n;
  }
  Term constArray(ScalarSort elem, Term fill) {
    const std::string e = scalarSortText(elem);
    TextNode& n =
        make(TextNode::Kind::App, "(as const " + arraySortText(e) + ")", arraySortText(e));
    n.elemSort = e;
    n.width = bvWidthOf(elem);
    n.kids = {fill};
    n.depth = fill->depth + 1;
    return &n;
  }
  Fun function(const std::string& name, const std::vector<ScalarSort>& domain, ScalarSort range) {
    TextNode& n = make(TextNode::Kind::Fun, quoteSymbol(name), scalarSortText(range));
    n.width = bvWidthOf(range);
    std::string d;
    for (ScalarSort s : domain) d += (d.empty() ? "" : " ") + scalarSortText(s);
    n.declaration = "(declare-fun " + n.head + " (" + d + ") " + n.sort + ")";
    return &n;
  }
  Term apply(Fun f, const std::vector<Term>& args) {
    TextNode& n = app(f->head, f->sort, args);
    n.fun = f;
    n.width = f->width;
    return &n;
  }
  Term forall(const std::vector<Term>& consts, Term body) {
    TextNode& n = make(TextNode::Kind::Forall, "forall", "Bool");
    n.kids = consts;
    n.kids.push_back(body);
    n.depth = body->depth + 1;
    return &n;
  }

  TextNode& app(std::string head, std::string sort, const std::vector<Term>& args) {
    TextNode& n = make(TextNode::Kind::App, std::move(head), std::move(sort));
    n.kids = args;
    for (Term k : args) n.depth = std::max(n.depth, k->depth + 1);
    return n;
  }
  Term boolApp(const char* head, const std::vector<Term>& a) { return &app(head, "Bool", a); }
  Term likeFirst(const char* head, const std::vector<Term>& a, size_t model = 0) {
    TextNode& n = app(head, a[model]->sort, a);
    n.width = a[model]->width;
    n.elemSort = a[model]->elemSort;
    return &n;
  }
  Term bv(std::string head, const std::vector<Term>& a, unsigned width) {
    TextNode& n = app(std::move(head), "(_ BitVec " + std::to_string(width) + ")", a);
    n.width = width;
    return &n;
  }

  Term op(SmtOp op, const std::vector<Term>& a, unsigned param = 0) {
    switch (op) {
      case SmtOp::Not:
        return boolApp("not", a);
      case SmtOp::And:
        return boolApp("and", a);
      case SmtOp::Or:
        return boolApp("or", a);
      case SmtOp::Implies:
        return boolApp("=>", a);
      case SmtOp::Ite:
        return likeFirst("ite", a, 1);
      case SmtOp::Eq:
        return boolApp("=", a);
      case SmtOp::Neg:
        return likeFirst("-", a);
      case SmtOp::Add:
        return likeFirst("+", a);
      case SmtOp::Sub:
        return likeFirst("-", a);
      case SmtOp::Mul:
        return likeFirst("*", a);
      case SmtOp::IntDiv:
        return likeFirst("div", a);
      case SmtOp::IntMod:
        return likeFirst("mod", a);
      case SmtOp::Lt:
        return boolApp("<", a);
      case SmtOp::Le:
        return boolApp("<=", a);
      case SmtOp::Gt:
        return boolApp(">", a);
      case SmtOp::Ge:
        return boolApp(">=", a);
      case SmtOp::BvNeg:
        return likeFirst("bvneg", a);
      case SmtOp::BvAdd:
        return likeFirst("bvadd", a);
      case SmtOp::BvSub:
        return likeFirst("bvsub", a);
      case SmtOp::BvMul:
        return likeFirst("bvmul", a);
      case SmtOp::BvSdiv:
        return likeFirst("bvsdiv", a);
      case SmtOp::BvSrem:
        return likeFirst("bvsrem", a);
      case SmtOp::BvSlt:
        return boolApp("bvslt", a);
      case SmtOp::BvSle:
        return boolApp("bvsle", a);
      case SmtOp::BvSgt:
        return boolApp("bvsgt", a);
      case SmtOp::BvSge:
        return boolApp("bvsge", a);
      case SmtOp::Select: {
        TextNode& n = app("select", a[0]->elemSort, a);
        n.width = a[0]->width;
        return &n;
      }
      case SmtOp::Store:
        return likeFirst("store", a);
      case SmtOp::IntToBv:
        return bv("(_ int2bv " + std::to_string(param) + ")", a, param);
      case SmtOp::BvToNat:
        return &app("bv2nat", "Int", a);
      case SmtOp::SignExtend:
        return bv("(_ sign_extend " + std::to_string(param) + ")", a, a[0]->width + param);
      case SmtOp::Extract:
        return bv("(_ extract " + std::to_string(param) + " 0)", a, param + 1);
      case SmtOp::FpNeg:
        return likeFirst("fp.neg", a);
      case SmtOp::FpAdd:
        return likeFirst("fp.add RNE", a);
      case SmtOp::FpSub:
        return likeFirst("fp.sub RNE", a);
      case SmtOp::FpMul:
        return likeFirst("fp.mul RNE", a);
      case SmtOp::FpDiv:
        return likeFirst("fp.div RNE", a);
      case SmtOp::FpEq:
        return boolApp("fp.eq", a);
      case SmtOp::FpLt:
        return boolApp("fp.lt", a);
      case SmtOp::FpLe:
        return boolApp("fp.leq", a);
      case SmtOp::FpGt:
        return boolApp("fp.gt", a);
      case SmtOp::FpGe:
        return boolApp("fp.geq", a);
      case SmtOp::IntToFp:
        return &app("(_ to_fp 11 53) RNE", "Float64", {&app("to_real", "Real", a)});
      case SmtOp::BvToFp:
        return &app("(_ to_fp 11 53) RNE", "Float64", a);
      case SmtOp::FpToInt: {
        Term whole = &app("fp.roundToIntegral RTZ", "Float64", a);
        return &app("to_int", "Int", {&app("fp.to_real", "Real", {whole})});
      }
      case SmtOp::FpToSbv:
        return bv("(_ fp.to_sbv " + std::to_string(param) + ") RTZ", a, param);
    }
    throw SmtError("smt-lib: unknown SMT operator");
  }
};

// Prints one script (declarations, definitions, assertions), or the same as pieces.
class ScriptPrinter {
 public:
  std::string print(const std::vector<const TextNode*>& roots) {
    countUses(roots);
    collectDeclarations(roots);
    std::string out = "(set-logic ALL)\n";
    for (const TextNode* d : declarations_) out += d->declaration + "\n";
    for (const TextNode* n : postOrder_) {
      if (!isNamed(n)) continue;
      std::string body;
      printInline(n, body, false);
      names_[n] = "_d" + std::to_string(names_.size());
      out += "(define-fun " + names_[n] + " () " + n->sort + " " + body + ")\n";
    }
    for (const TextNode* r : roots) {
      std::string t;
      print(r, t, false);
      out += "(assert " + t + ")\n";
    }
    out += "(check-sat)\n";
    return out;
  }

  // The first `sides` roots are side constraints, the others the caller's roots.
  SmtLibTerms pieces(const std::vector<const TextNode*>& roots, size_t sides) {
    countUses(roots);
    collectDeclarations(roots);
    SmtLibTerms out;
    for (const TextNode* d : declarations_) {
      if (d->kind == TextNode::Kind::Fun) throw SmtUnsupported("uninterpreted function " + d->head);
      out.constants.emplace_back(d->head, d->sort);
    }
    for (const TextNode* n : postOrder_) {
      if (n->kind == TextNode::Kind::Forall) throw SmtUnsupported("a quantifier in a term");
      if (!isNamed(n)) continue;
      std::string body;
      printInline(n, body, false);
      names_[n] = "_d" + std::to_string(names_.size());
      out.definitions.emplace_back(names_[n], std::move(body));
    }
    for (size_t i = 0; i < roots.size(); ++i) {
      std::string t;
      print(roots[i], t, false);
      (i < sides ? out.sides : out.roots).push_back(std::move(t));
    }
    return out;
  }

 private:
  bool isNamed(const TextNode* n) const {
    if (n->kind != TextNode::Kind::App && n->kind != TextNode::Kind::Forall) return false;
    auto it = uses_.find(n);
    return (it != uses_.end() && it->second >= 2) || n->depth % kNameDepth == 0;
  }

  // Uses outside quantifier bodies (inside them everything prints inline: a subterm may mention
  // the bound variable there), and a post-order for the definitions.
  void countUses(const std::vector<const TextNode*>& roots) {
    auto kidsOf = [](const TextNode* n) {
      return n->kind == TextNode::Kind::App ? std::span(n->kids)
                                            : std::span<const TextNode* const>();
    };
    std::unordered_set<const TextNode*> seen;
    postOrder(
        roots, kidsOf, [&](const TextNode* n) { return seen.count(n) > 0; },
        [&](const TextNode* n) {
          seen.insert(n);
          for (const TextNode* k : kidsOf(n)) ++uses_[k];
          postOrder_.push_back(n);
        },
        [](const TextNode*) {}, /*leftToRight=*/true);
  }

  void collectDeclarations(const std::vector<const TextNode*>& roots) {
    std::vector<const TextNode*> todo(roots.begin(), roots.end());
    std::unordered_set<const TextNode*> seen;
    while (!todo.empty()) {
      const TextNode* n = todo.back();
      todo.pop_back();
      if (!seen.insert(n).second) continue;
      if (!n->declaration.empty()) declarations_.push_back(n);
      if (n->fun) todo.push_back(n->fun);
      for (const TextNode* k : n->kids) todo.push_back(k);
    }
    std::sort(declarations_.begin(), declarations_.end(),
              [](const TextNode* a, const TextNode* b) { return a->id < b->id; });
  }

  void print(const TextNode* n, std::string& out, bool inQuantifier) {
    if (!inQuantifier) {
      if (auto it = names_.find(n); it != names_.end()) {
        out += it->second;
        return;
      }
    }
    printInline(n, out, inQuantifier);
  }

  void printInline(const TextNode* n, std::string& out, bool inQuantifier) {
    switch (n->kind) {
      case TextNode::Kind::Atom:
      case TextNode::Kind::Const:
      case TextNode::Kind::Fun:
        out += n->head;
        return;
      case TextNode::Kind::App:
        out += "(" + n->head;
        for (const TextNode* k : n->kids) {
          out += " ";
          print(k, out, inQuantifier);
        }
        out += ")";
        return;
      case TextNode::Kind::Forall:
        out += "(forall (";
        for (size_t i = 0; i + 1 < n->kids.size(); ++i)
          out += (i ? " (" : "(") + n->kids[i]->head + " " + n->kids[i]->sort + ")";
        out += ") ";
        print(n->kids.back(), out, true);
        out += ")";
        return;
    }
  }

  std::unordered_map<const TextNode*, unsigned> uses_;
  std::vector<const TextNode*> postOrder_;
  std::vector<const TextNode*> declarations_;
  std::unordered_map<const TextNode*, std::string> names_;
};

}  // namespace

struct SmtLibTranslator::Impl {
  explicit Impl(TermNaming n) : naming(std::move(n)), enc(builder, naming) {}
  TermNaming naming;
  TextBuilder builder;
  Encoder<TextBuilder> enc;
};

SmtLibTranslator::SmtLibTranslator(TermNaming naming)
    : impl_(std::make_unique<Impl>(std::move(naming))) {}
SmtLibTranslator::~SmtLibTranslator() = default;

std::string SmtLibTranslator::script(std::span<const ExprRef> formulas) {
  std::vector<const TextNode*> roots;
  for (ExprRef f : formulas) impl_->enc.encode(f);
  impl_->enc.sideConstraints(formulas, roots);
  for (ExprRef f : formulas) roots.push_back(impl_->enc.term(f));
  return ScriptPrinter().print(roots);
}

SmtLibTerms SmtLibTranslator::terms(std::span<const ExprRef> roots) {
  std::vector<const TextNode*> nodes;
  for (ExprRef r : roots) impl_->enc.encode(r);
  impl_->enc.sideConstraints(roots, nodes);
  const size_t sides = nodes.size();
  for (ExprRef r : roots) nodes.push_back(impl_->enc.term(r));
  return ScriptPrinter().pieces(nodes, sides);
}

}  // namespace tandem::smt
