// Expressions and type expressions. Precedence, lowest first:
//   c ? a : b (right)   ==> (right)   ||   &&   == !=   < <= > >=   + -   * / %
//   prefix ! - * &   postfix e[i] e.f e@L   primaries.
// Binary nodes are located at their operator; postfix nodes at the start of their base.
#include <array>
#include <utility>

#include "mc/lang/parser_impl.h"

namespace tandem::parse_detail {

using EK = ast::Expr::Kind;

namespace {

ast::ExprPtr makeExpr(EK kind, SourceLoc loc) { return makeNode<ast::Expr>(kind, loc); }

ast::ExprPtr makeBinary(ast::BinOp op, ast::ExprPtr a, ast::ExprPtr b, SourceLoc loc) {
  auto e = makeExpr(EK::Binary, loc);
  e->binop = op;
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return e;
}

struct BinaryOp {
  Tok tok;
  ast::BinOp op;
  int level;  // 0 = `||` (loosest) ... 5 = `* / %` (tightest); all left-associative
};

constexpr std::array<BinaryOp, 13> kBinaryOps{{
    {Tok::OrOr, ast::BinOp::Or, 0},
    {Tok::AndAnd, ast::BinOp::And, 1},
    {Tok::EqEq, ast::BinOp::Eq, 2},
    {Tok::NotEq, ast::BinOp::Ne, 2},
    {Tok::Lt, ast::BinOp::Lt, 3},
    {Tok::Le, ast::BinOp::Le, 3},
    {Tok::Gt, ast::BinOp::Gt, 3},
    {Tok::Ge, ast::BinOp::Ge, 3},
    {Tok::Plus, ast::BinOp::Add, 4},
    {Tok::Minus, ast::BinOp::Sub, 4},
    {Tok::Star, ast::BinOp::Mul, 5},
    {Tok::Slash, ast::BinOp::Div, 5},
    {Tok::Percent, ast::BinOp::Mod, 5},
}};
constexpr int kTightestBinaryLevel = 5;

const BinaryOp* binaryOpAt(Tok t, int level) {
  for (const auto& op : kBinaryOps)
    if (op.tok == t && op.level == level) return &op;
  return nullptr;
}

}  // namespace

bool Parser::atExpressionStart() const {
  switch (peek().kind) {
    case Tok::Ident:
    case Tok::IntLit:
    case Tok::FloatLit:
    case Tok::KwTrue:
    case Tok::KwFalse:
    case Tok::KwNull:
    case Tok::KwPid:
    case Tok::KwNew:
    case Tok::KwInt:
    case Tok::KwI32:
    case Tok::KwI64:
    case Tok::KwF64:
    case Tok::LParen:
    case Tok::LBracket:
    case Tok::Bang:
    case Tok::Minus:
    case Tok::Star:
    case Tok::Amp:
      return true;
    default:
      return false;
  }
}

ast::ExprPtr Parser::expression() { return conditional(); }

// A `*` is a nondeterministic value only when it is the whole expression (followed by what ends
// one); anywhere else it is a dereference, so `x := *p;` still reads p.
ast::ExprPtr Parser::valueOrStar() {
  if (at(Tok::Star)) {
    switch (peek(1).kind) {
      case Tok::Semi:
      case Tok::Comma:
      case Tok::RParen:
      case Tok::RBrace:
      case Tok::End:
        return makeExpr(EK::Star, advance().loc);
      default:
        break;
    }
  }
  return expression();
}

std::vector<ast::ExprPtr> Parser::arguments() {
  expect(Tok::LParen, "");
  std::vector<ast::ExprPtr> out;
  if (accept(Tok::RParen)) return out;
  do out.push_back(expression());
  while (accept(Tok::Comma));
  expect(Tok::RParen, "after arguments");
  return out;
}

ast::ExprPtr Parser::conditional() {
  Nesting nest(*this);
  nest.deeper(peek().loc);
  ast::ExprPtr c = implication();
  if (!at(Tok::Question)) return c;
  auto e = makeExpr(EK::Cond, advance().loc);
  e->args.push_back(std::move(c));
  e->args.push_back(conditional());
  expect(Tok::Colon, "in conditional expression");
  e->args.push_back(conditional());  // right-associative: a ? b : c ? d : e
  return e;
}

// Right-associative, built iteratively so a long chain does not recurse. A chain of any length
// is accepted: only parentheses, prefix and postfix operators count as nesting.
ast::ExprPtr Parser::implication() {
  std::vector<ast::ExprPtr> operands;
  std::vector<SourceLoc> ops;
  operands.push_back(binary(0));
  while (at(Tok::Implies)) {
    ops.push_back(advance().loc);
    operands.push_back(binary(0));
  }
  ast::ExprPtr e = std::move(operands.back());
  for (size_t i = ops.size(); i-- > 0;)
    e = makeBinary(ast::BinOp::Implies, std::move(operands[i]), std::move(e), ops[i]);
  return e;
}

ast::ExprPtr Parser::binary(int level) {
  if (level > kTightestBinaryLevel) return unary();
  // A chain of any length, built by a loop (`1 + 1 + ... + 1` of 300 terms was refused as nesting).
  ast::ExprPtr e = binary(level + 1);
  while (const BinaryOp* op = binaryOpAt(peek().kind, level)) {
    SourceLoc loc = advance().loc;
    e = makeBinary(op->op, std::move(e), binary(level + 1), loc);
  }
  return e;
}

ast::ExprPtr Parser::unary() {
  ast::UnOp op;
  switch (peek().kind) {
    case Tok::Bang:
      op = ast::UnOp::Not;
      break;
    case Tok::Minus:
      op = ast::UnOp::Neg;
      break;
    case Tok::Star:
      op = ast::UnOp::Deref;
      break;
    case Tok::Amp:
      op = ast::UnOp::AddrOf;
      break;
    default:
      return postfix();
  }
  Nesting nest(*this);
  auto e = makeExpr(EK::Unary, advance().loc);
  nest.deeper(e->loc);
  e->unop = op;
  e->args.push_back(unary());
  return e;
}

ast::ExprPtr Parser::postfix() {
  Nesting nest(*this);
  ast::ExprPtr e = primary();
  while (true) {
    SourceLoc loc = e->loc;
    ast::ExprPtr next;
    if (accept(Tok::LBracket)) {
      next = makeExpr(EK::Index, loc);
      next->args.push_back(std::move(e));
      next->args.push_back(expression());
      expect(Tok::RBracket, "after index");
    } else if (accept(Tok::Dot)) {
      next = makeExpr(EK::Field, loc);
      next->name = expectIdent("field name after '.'");
      next->args.push_back(std::move(e));
    } else if (accept(Tok::At)) {  // P@L, P[i]@L
      next = makeExpr(EK::AtLabel, loc);
      next->name = expectIdent("label after '@'");
      next->args.push_back(std::move(e));
    } else {
      return e;
    }
    nest.deeper(loc);
    e = std::move(next);
  }
}

ast::ExprPtr Parser::primary() {
  const Token& t = peek();
  switch (t.kind) {
    case Tok::IntLit: {
      auto e = makeExpr(EK::IntLit, t.loc);
      e->text = advance().text;
      return e;
    }
    case Tok::FloatLit: {
      auto e = makeExpr(EK::FloatLit, t.loc);
      e->text = advance().text;
      return e;
    }
    case Tok::KwTrue:
    case Tok::KwFalse: {
      auto e = makeExpr(EK::BoolLit, t.loc);
      e->boolValue = advance().kind == Tok::KwTrue;
      return e;
    }
    case Tok::KwNull:
      return makeExpr(EK::Null, advance().loc);
    case Tok::KwPid: {  // a name the type checker resolves (RefKind::Pid)
      auto e = makeExpr(EK::Name, t.loc);
      e->name = advance().text;
      return e;
    }
    case Tok::KwInt:
    case Tok::KwI32:
    case Tok::KwI64:
    case Tok::KwF64:  // conversions int(e), i32(e), i64(e), f64(e) are calls of builtins
      if (peek(1).kind != Tok::LParen) failExpected("expression");
      [[fallthrough]];
    case Tok::Ident: {
      auto e = makeExpr(EK::Name, t.loc);
      e->name = advance().text;
      if (at(Tok::LParen)) {
        e->kind = EK::Call;
        e->args = arguments();
      }
      return e;
    }
    case Tok::KwNew:
      return newExpr();
    case Tok::LBracket: {
      auto e = makeExpr(EK::ArrayLit, advance().loc);
      if (accept(Tok::RBracket)) return e;
      do e->args.push_back(expression());
      while (accept(Tok::Comma));
      expect(Tok::RBracket, "after array elements");
      return e;
    }
    case Tok::LParen: {
      advance();
      ast::ExprPtr e = expression();
      expect(Tok::RParen, "after expression");
      return e;
    }
    default:
      failExpected("expression");
  }
}

// `new C(args)` or `new T[n]`. In `new T[d1]...[dk][n]` the last group is the length and the
// earlier ones belong to the element type, exactly as in the type `T[d1]...[dk][]` it allocates.
ast::ExprPtr Parser::newExpr() {
  SourceLoc loc = advance().loc;
  if (at(Tok::Ident) && peek(1).kind == Tok::LParen) {
    auto e = makeExpr(EK::NewObject, loc);
    e->name = advance().text;
    e->args = arguments();
    return e;
  }
  ast::TypeExprPtr elem = baseType();
  if (!at(Tok::LBracket)) failExpected("'[' after the element type in 'new'");
  Nesting nest(*this);
  std::vector<std::pair<ast::ExprPtr, SourceLoc>> groups;  // length (or null), `]` location
  while (at(Tok::LBracket)) {
    nest.deeper(advance().loc);
    ast::ExprPtr size;
    if (!at(Tok::RBracket)) size = expression();
    SourceLoc close = expect(Tok::RBracket, "after array length").loc;
    groups.emplace_back(std::move(size), close);
  }
  if (!groups.back().first) fail(groups.back().second, "expected array length in 'new'");
  for (size_t i = 0; i + 1 < groups.size(); ++i) {
    auto arr = std::make_unique<ast::TypeExpr>();
    arr->kind = ast::TypeExpr::Kind::Array;
    arr->loc = elem->loc;
    arr->size = std::move(groups[i].first);
    arr->elem = std::move(elem);
    elem = std::move(arr);
  }
  auto e = makeExpr(EK::NewArray, loc);
  e->elemType = std::move(elem);
  e->args.push_back(std::move(groups.back().first));
  return e;
}

// Types. `ref T` takes the whole type after it (`ref int[3]` is a reference to an array); array
// brackets apply left to right (`int[2][3]` is an array of 3 elements of type int[2]).
// Parentheses group: `(ref int)[3]` is an array of 3 references.
ast::TypeExprPtr Parser::type() {
  Nesting nest(*this);
  nest.deeper(peek().loc);
  if (at(Tok::KwRef)) {
    auto t = std::make_unique<ast::TypeExpr>();
    t->kind = ast::TypeExpr::Kind::Ref;
    t->loc = advance().loc;
    t->elem = type();
    return t;
  }
  ast::TypeExprPtr t = baseType();
  while (at(Tok::LBracket)) {
    nest.deeper(advance().loc);
    auto arr = std::make_unique<ast::TypeExpr>();
    arr->kind = ast::TypeExpr::Kind::Array;
    arr->loc = t->loc;
    if (!at(Tok::RBracket)) arr->size = expression();
    expect(Tok::RBracket, "after array length");
    arr->elem = std::move(t);
    t = std::move(arr);
  }
  return t;
}

ast::TypeExprPtr Parser::baseType() {
  auto t = std::make_unique<ast::TypeExpr>();
  t->loc = peek().loc;
  switch (peek().kind) {
    case Tok::KwInt:
      t->kind = ast::TypeExpr::Kind::Int;
      break;
    case Tok::KwI32:
      t->kind = ast::TypeExpr::Kind::I32;
      break;
    case Tok::KwI64:
      t->kind = ast::TypeExpr::Kind::I64;
      break;
    case Tok::KwF64:
      t->kind = ast::TypeExpr::Kind::F64;
      break;
    case Tok::KwBool:
      t->kind = ast::TypeExpr::Kind::Bool;
      break;
    case Tok::Ident:
      t->kind = ast::TypeExpr::Kind::Named;
      t->name = peek().text;
      break;
    case Tok::LParen: {
      advance();
      ast::TypeExprPtr inner = type();
      expect(Tok::RParen, "after type");
      return inner;
    }
    default:
      failExpected("type");
  }
  advance();
  return t;
}

}  // namespace tandem::parse_detail
