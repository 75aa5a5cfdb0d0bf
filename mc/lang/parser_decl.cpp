// Top-level and class declarations.
#include <algorithm>
#include <string_view>

#include "mc/lang/parser_impl.h"

namespace tandem::parse_detail {

using DK = ast::Program::DeclKind;

namespace {
// Appends `decl` to `list` and records it in the declaration order.
template <class T>
void add(ast::Program& prog, DK kind, std::vector<T>& list, T decl) {
  prog.order.push_back({kind, list.size()});
  list.push_back(std::move(decl));
}
}  // namespace

void Parser::topLevelDecl(ast::Program& prog) {
  const Token& t = peek();
  switch (t.kind) {
    case Tok::KwConst:
      return constDecl(prog);
    case Tok::KwEnum:
      return enumDecl(prog);
    case Tok::KwVar:
      return add(prog, DK::Var, prog.globals, varDecl());
    case Tok::KwInit:
      return add(prog, DK::Init, prog.inits, namedExpr(false));
    case Tok::KwPredicate:
      return add(prog, DK::Predicate, prog.predicates, namedExpr(false));
    case Tok::KwInvariant:
      return add(prog, DK::Invariant, prog.invariants, namedExpr(true));
    case Tok::KwNative:
      return nativeDecl(prog);
    case Tok::KwProc:
      return add(prog, DK::Proc, prog.procs, procDecl(false, t.loc));
    case Tok::At: {
      SourceLoc loc = advance().loc;
      if (!at(Tok::Ident) || peek().text != "concrete")
        fail(loc, "unknown annotation '@" + peek().text + "'");
      advance();
      if (!at(Tok::KwProc)) failExpected("'proc' after '@concrete'");
      return add(prog, DK::Proc, prog.procs, procDecl(true, loc));
    }
    case Tok::KwClass:
      return classDecl(prog);
    case Tok::KwProcess:
      return processDecl(prog);
    case Tok::KwRule:
      return ruleDecl(prog);
    default:
      if (t.kind == Tok::Ident && t.text == "test") return testDecl(prog);
      if (atChanDecl()) return chanDecl(prog);
      fail(t.loc, "unexpected token " + describe(t) + " at top level" + topLevelHint(t));
  }
}

void Parser::constDecl(ast::Program& prog) {
  ast::ConstDecl d;
  d.loc = advance().loc;
  d.name = expectIdent("constant name");
  expect(Tok::Colon, "after constant name");
  d.type = type();
  expect(Tok::Eq, "in constant declaration");
  d.value = expression();
  expectSemi("declaration");
  add(prog, DK::Const, prog.consts, std::move(d));
}

void Parser::enumDecl(ast::Program& prog) {
  ast::EnumDecl d;
  d.loc = advance().loc;
  d.name = expectIdent("enum name");
  expect(Tok::LBrace, "after enum name");
  do {
    SourceLoc loc;
    d.members.push_back(expectIdent("enum member", &loc));
    d.memberLocs.push_back(loc);
  } while (accept(Tok::Comma));
  expect(Tok::RBrace, "after enum members");
  accept(Tok::Semi);  // `enum E { A, B };` is accepted too
  add(prog, DK::Enum, prog.enums, std::move(d));
}

// What a newcomer probably meant by an unexpected token at top level (once per file for Promela).
std::string Parser::topLevelHint(const Token& t) {
  static constexpr std::string_view kPromela[] = {"bool",   "byte",  "short",   "bit",  "proctype",
                                                  "active", "mtype", "typedef", "never"};
  const bool promela = std::find(std::begin(kPromela), std::end(kPromela),
                                 std::string_view(t.text)) != std::end(kPromela) ||
                       (t.kind == Tok::Ident && t.text == "#define");
  if (promela) {
    if (promelaHinted_) return "";
    promelaHinted_ = true;
    return " (this looks like Promela; Tandem reads its own .tdm language (docs/language.md) and "
           "BEEM .dve models)";
  }
  if ((t.kind == Tok::KwInt || t.kind == Tok::KwBool || t.kind == Tok::KwI32 ||
       t.kind == Tok::KwI64 || t.kind == Tok::KwF64) &&
      peek(1).kind == Tok::Ident)
    return " (declare a global as 'var " + peek(1).text + ": " + t.text + ";')";
  return "";
}

// `var x: T [= e];` at top level or as a class field.
std::unique_ptr<ast::GlobalVarDecl> Parser::varDecl() {
  auto d = std::make_unique<ast::GlobalVarDecl>();
  d->loc = advance().loc;
  d->name = expectIdent("variable name");
  expect(Tok::Colon, "after variable name");
  d->type = type();
  if (accept(Tok::Eq)) d->init = expression();
  expectSemi("declaration");
  return d;
}

// `init e;`, `predicate e;`, `invariant [name:] e;`
ast::NamedExpr Parser::namedExpr(bool allowName) {
  ast::NamedExpr d;
  d.loc = advance().loc;
  if (allowName && at(Tok::Ident) && peek(1).kind == Tok::Colon) {
    d.name = advance().text;
    advance();
  }
  d.expr = expression();
  expectSemi("declaration");
  return d;
}

std::vector<ast::Param> Parser::params() {
  std::vector<ast::Param> out;
  expect(Tok::LParen, "before parameters");
  if (accept(Tok::RParen)) return out;
  do {
    ast::Param p;
    p.name = expectIdent("parameter name", &p.loc);
    expect(Tok::Colon, "after parameter name");
    p.type = type();
    out.push_back(std::move(p));
  } while (accept(Tok::Comma));
  expect(Tok::RParen, "after parameters");
  return out;
}

std::vector<ast::ExprPtr> Parser::partitions() {
  if (!accept(Tok::KwPartition)) return {};
  auto out = arguments();
  if (out.empty()) fail(endOfPrevious(), "partition(...) needs at least one condition");
  return out;
}

void Parser::nativeDecl(ast::Program& prog) {
  ast::NativeDecl d;
  d.loc = advance().loc;
  d.name = expectIdent("function name");
  d.params = params();
  expect(Tok::Colon, "and a result type after the parameters of a native");
  d.returnType = type();
  d.partitions = partitions();
  expectSemi("declaration");
  add(prog, DK::Native, prog.natives, std::move(d));
}

// `proc f(params) [: T] [partition(...)] { ... }`; `loc` is where `@concrete` or `proc` starts.
std::unique_ptr<ast::ProcDecl> Parser::procDecl(bool concrete, SourceLoc loc) {
  auto d = std::make_unique<ast::ProcDecl>();
  d->loc = loc;
  d->concrete = concrete;
  advance();  // proc
  d->name = expectIdent("procedure name");
  d->params = params();
  if (accept(Tok::Colon)) d->returnType = type();
  d->partitions = partitions();
  contracts(*d);
  d->body = block("before procedure body");
  return d;
}

// `requires e;` and `ensures e;` between a signature and its body. Contextual words, not
// keywords: a variable may still be called `requires`.
void Parser::contracts(ast::ProcDecl& d) {
  while (at(Tok::Ident) && (peek().text == "requires" || peek().text == "ensures")) {
    const bool pre = advance().text == "requires";
    (pre ? d.preconditions : d.postconditions).push_back(expression());
    expectSemi(pre ? "precondition" : "postcondition");
  }
}

void Parser::classDecl(ast::Program& prog) {
  auto cls = std::make_unique<ast::ClassDecl>();
  cls->loc = advance().loc;
  cls->name = expectIdent("class name");
  expect(Tok::LBrace, "after class name");
  while (!accept(Tok::RBrace)) {
    if (at(Tok::End) || (atTopLevelStart() && !at(Tok::KwVar) && !at(Tok::KwPredicate) &&
                         !at(Tok::KwInit) && !at(Tok::KwInvariant))) {
      diags_.error(peek().loc, "expected '}' at end of class, found " + describe(peek()));
      break;
    }
    size_t before = pos_;
    try {
      classMember(*cls);
    } catch (const SyntaxError&) {
      syncStatement();
      if (pos_ == before && !at(Tok::RBrace)) advance();
    }
  }
  add(prog, DK::Class, prog.classes, std::move(cls));
}

void Parser::classMember(ast::ClassDecl& cls) {
  const Token& t = peek();
  switch (t.kind) {
    case Tok::KwVar:
      cls.fields.push_back(varDecl());
      return;
    case Tok::KwPredicate:
      cls.predicates.push_back(namedExpr(false));
      return;
    case Tok::KwInvariant:
      cls.invariants.push_back(namedExpr(true));
      return;
    case Tok::KwInit: {
      auto init = std::make_unique<ast::ProcDecl>();
      init->loc = advance().loc;
      init->name = "init";
      init->params = params();
      contracts(*init);
      init->body = block("before constructor body");
      if (cls.init)  // reported without throwing: the member is complete, nothing to skip
        diags_.error(init->loc, "class '" + cls.name + "' has more than one init");
      else
        cls.init = std::move(init);
      return;
    }
    case Tok::KwMethod: {
      auto m = std::make_unique<ast::ProcDecl>();
      m->loc = advance().loc;
      m->name = expectIdent("method name");
      m->params = params();
      if (accept(Tok::Colon)) m->returnType = type();
      contracts(*m);
      m->body = block("before method body");
      cls.methods.push_back(std::move(m));
      return;
    }
    default:
      failExpected("class member ('var', 'predicate', 'init' or 'method')");
  }
}

void Parser::processDecl(ast::Program& prog) {
  auto d = std::make_unique<ast::ProcessDecl>();
  d->loc = advance().loc;
  d->name = expectIdent("process name");
  if (accept(Tok::LBracket)) {
    d->count = expression();
    expect(Tok::RBracket, "after process count");
  }
  d->body = block("before process body");
  add(prog, DK::Process, prog.processes, std::move(d));
}

// `chan c = [cap] of { T, ... };` or `chan c[N] = [cap] of { T, ... };`
void Parser::chanDecl(ast::Program& prog) {
  ast::ChanDecl d;
  d.loc = advance().loc;
  d.name = expectIdent("channel name");
  if (accept(Tok::LBracket)) {
    d.count = expression();
    expect(Tok::RBracket, "after the number of channels");
  }
  expect(Tok::Eq, "after channel name");
  expect(Tok::LBracket, "before channel capacity");
  d.capacity = expression();
  expect(Tok::RBracket, "after channel capacity");
  if (!at(Tok::Ident) || peek().text != "of") failExpected("'of' after channel capacity");
  advance();
  expect(Tok::LBrace, "before message fields");
  do d.fields.push_back(type());
  while (accept(Tok::Comma));
  expect(Tok::RBrace, "after message fields");
  expectSemi("declaration");
  add(prog, DK::Chan, prog.chans, std::move(d));
}

// `rule name: guard -> lv := e, lv := e;`
void Parser::ruleDecl(ast::Program& prog) {
  ast::RuleDecl d;
  d.loc = advance().loc;
  d.name = expectIdent("rule name");
  expect(Tok::Colon, "after rule name");
  d.guard = expression();
  expect(Tok::Arrow, "after rule guard");
  do {
    d.lhs.push_back(expression());
    expect(Tok::ColonEq, "in rule assignment");
    d.rhs.push_back(valueOrStar());
  } while (accept(Tok::Comma));
  expectSemi("rule");
  add(prog, DK::Rule, prog.rules, std::move(d));
}

// `test f(args);` or `test { x = e, ... };`
void Parser::testDecl(ast::Program& prog) {
  ast::TestDecl d;
  d.loc = advance().loc;
  if (accept(Tok::LBrace)) {
    d.isState = true;
    if (!at(Tok::RBrace)) {
      do {
        SourceLoc loc;
        d.names.push_back(expectIdent("variable name", &loc));
        d.nameLocs.push_back(loc);
        expect(Tok::Eq, "after variable name in test state");
        d.values.push_back(expression());
      } while (accept(Tok::Comma));
    }
    expect(Tok::RBrace, "after test state");
    accept(Tok::Semi);  // written `test { ... };` in the spec; the `;` is optional
  } else {
    d.target = expectIdent("procedure or class name, or '{' after 'test'");
    d.args = arguments();
    expectSemi("test");
  }
  add(prog, DK::Test, prog.tests, std::move(d));
}

}  // namespace tandem::parse_detail
