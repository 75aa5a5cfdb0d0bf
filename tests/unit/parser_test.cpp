#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mc/lang/parser.h"
#include "mc/lang/printer.h"

namespace tandem {
namespace {

using EK = ast::Expr::Kind;
using SK = ast::Stmt::Kind;
using DK = ast::Program::DeclKind;

struct Parsed {
  std::unique_ptr<ast::Program> prog;
  std::vector<std::string> errors;  // "LINE:COL: message"
};

Parsed parse(const std::string& text) {
  SourceFile file("t.tdm", text);
  Diagnostics diags(&file);
  Parsed p{parseProgram(file, diags), {}};
  for (const auto& d : diags.errors())
    p.errors.push_back(std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " +
                       d.message);
  return p;
}

// Parses text that must be free of errors.
std::unique_ptr<ast::Program> parseOk(const std::string& text) {
  auto p = parse(text);
  CHECK_MESSAGE(p.errors.empty(), (p.errors.empty() ? "" : p.errors.front()));
  return std::move(p.prog);
}

std::vector<std::string> errorsOf(const std::string& text) { return parse(text).errors; }

// A fully parenthesised rendering that shows the tree's shape.
std::string tree(const ast::Expr& e) {
  auto list = [](const std::vector<ast::ExprPtr>& es, size_t from = 0) {
    std::string s;
    for (size_t i = from; i < es.size(); ++i) s += (i > from ? ", " : "") + tree(*es[i]);
    return s;
  };
  switch (e.kind) {
    case EK::IntLit:
      return e.text;
    case EK::FloatLit:
      return "f64:" + e.text;
    case EK::BoolLit:
      return e.boolValue ? "true" : "false";
    case EK::Null:
      return "null";
    case EK::Star:
      return "<*>";
    case EK::Name:
      return e.name;
    case EK::Unary: {
      const char* ops[] = {"-", "!", "*", "&"};
      return std::string("(") + ops[static_cast<int>(e.unop)] + tree(*e.args[0]) + ")";
    }
    case EK::Binary: {
      const char* ops[] = {
          "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "==>"};
      return "(" + tree(*e.args[0]) + " " + ops[static_cast<int>(e.binop)] + " " +
             tree(*e.args[1]) + ")";
    }
    case EK::Cond:
      return "(" + tree(*e.args[0]) + " ? " + tree(*e.args[1]) + " : " + tree(*e.args[2]) + ")";
    case EK::Index:
      return "(" + tree(*e.args[0]) + "[" + tree(*e.args[1]) + "])";
    case EK::Field:
      return "(" + tree(*e.args[0]) + "." + e.name + ")";
    case EK::AtLabel:
      return "(" + tree(*e.args[0]) + "@" + e.name + ")";
    case EK::Call:
      return e.name + "(" + list(e.args) + ")";
    case EK::NewArray:
      return "new " + printType(*e.elemType) + "[" + tree(*e.args[0]) + "]";
    case EK::NewObject:
      return "new " + e.name + "(" + list(e.args) + ")";
    case EK::ArrayLit:
      return "[" + list(e.args) + "]";
  }
  return "?";
}

std::string exprTree(const std::string& text) {
  SourceFile file("e", text);
  Diagnostics diags(&file);
  auto e = parseExpression(file, diags);
  if (!e) return "ERROR " + (diags.errors().empty() ? "" : diags.errors()[0].message);
  return tree(*e);
}

// The body of `proc f() { BODY }`.
std::unique_ptr<ast::Program> parseBody(const std::string& body) {
  return parseOk("proc f() {\n" + body + "\n}\n");
}
const std::vector<ast::StmtPtr>& bodyOf(const ast::Program& p) { return p.procs.at(0)->body; }

std::vector<std::filesystem::path> conformanceFiles() {
  std::vector<std::filesystem::path> out;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(TANDEM_SHARED_DIR) + "/conformance"))
    if (entry.path().extension() == ".tdm") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// ---------------------------------------------------------------------------------------------
// Declarations.

TEST_CASE("parser: f64 literals, types and conversions") {
  CHECK(exprTree("-1.5 * x + 2.0e-3") == "(((-f64:1.5) * x) + f64:2.0e-3)");
  CHECK(exprTree("f64(n) / 1e9") == "(f64(n) / f64:1e9)");
  CHECK(exprTree("a[1].f") == "((a[1]).f)");  // a `.` after digits is a field access
  auto p = parseOk("var x: f64 = 0.5;\nproc g(y: f64[2]): f64 { return y[0]; }\n");
  CHECK(printType(*p->globals[0]->type) == "f64");
  CHECK(tree(*p->globals[0]->init) == "f64:0.5");
}

TEST_CASE("parser: top-level declarations in order") {
  auto p = parseOk(R"(
const N: int = 3;
enum Loc { A, B, C }
enum E2 { X };
var x: int = 0;
var flag: bool[2] = [false, false];
var y: int;
init x >= 0 && y >= x;
predicate x <= y;
invariant mutex: !(P1@C && P2@C);
invariant x >= 0;
native hash(x: int, y: i64): int partition(x > 3, x <= 3);
proc f(a: int, b: int): int { return a; }
@concrete proc g(a: int): int partition(a > 0) { return a; }
proc h() { skip; }
class C { var f: int; }
process P { skip; }
process Q[N] { skip; }
rule r1: x > 0 -> x := x - 1, y := y + 1;
test f(2, 0);
test { x = 1, y = 5 };
test {};
)");
  REQUIRE(p);
  std::vector<DK> kinds;
  for (auto r : p->order) kinds.push_back(r.kind);
  CHECK(kinds == std::vector{DK::Const,   DK::Enum,    DK::Enum,      DK::Var,       DK::Var,
                             DK::Var,     DK::Init,    DK::Predicate, DK::Invariant, DK::Invariant,
                             DK::Native,  DK::Proc,    DK::Proc,      DK::Proc,      DK::Class,
                             DK::Process, DK::Process, DK::Rule,      DK::Test,      DK::Test,
                             DK::Test});
  CHECK(p->order[2].index == 1);   // second enum
  CHECK(p->order[12].index == 1);  // second proc

  CHECK(p->consts[0].name == "N");
  CHECK(p->consts[0].type->kind == ast::TypeExpr::Kind::Int);
  CHECK(tree(*p->consts[0].value) == "3");
  CHECK(p->enums[0].members == std::vector<std::string>{"A", "B", "C"});
  CHECK(p->enums[0].memberLocs[1] == SourceLoc{3, 15});
  CHECK(p->globals[0]->name == "x");
  CHECK(p->globals[1]->type->kind == ast::TypeExpr::Kind::Array);
  CHECK(p->globals[1]->type->elem->kind == ast::TypeExpr::Kind::Bool);
  CHECK(tree(*p->globals[1]->type->size) == "2");
  CHECK(tree(*p->globals[1]->init) == "[false, false]");
  CHECK(p->globals[2]->init == nullptr);
  CHECK(tree(*p->inits[0].expr) == "((x >= 0) && (y >= x))");
  CHECK(tree(*p->predicates[0].expr) == "(x <= y)");
  CHECK(p->invariants[0].name == "mutex");
  CHECK(tree(*p->invariants[0].expr) == "(!((P1@C) && (P2@C)))");
  CHECK(p->invariants[1].name.empty());
  CHECK(p->natives[0].name == "hash");
  REQUIRE(p->natives[0].params.size() == 2);
  CHECK(p->natives[0].params[1].name == "y");
  CHECK(p->natives[0].params[1].type->kind == ast::TypeExpr::Kind::I64);
  CHECK(p->natives[0].returnType->kind == ast::TypeExpr::Kind::Int);
  REQUIRE(p->natives[0].partitions.size() == 2);
  CHECK(tree(*p->natives[0].partitions[1]) == "(x <= 3)");
  CHECK_FALSE(p->procs[0]->concrete);
  CHECK(p->procs[0]->returnType != nullptr);
  CHECK(p->procs[1]->concrete);
  CHECK(p->procs[1]->loc == SourceLoc{14, 1});
  CHECK(p->procs[1]->partitions.size() == 1);
  CHECK(p->procs[2]->returnType == nullptr);
  CHECK(p->procs[2]->params.empty());
  CHECK(p->processes[0]->count == nullptr);
  CHECK(tree(*p->processes[1]->count) == "N");
  CHECK(p->rules[0].name == "r1");
  CHECK(tree(*p->rules[0].guard) == "(x > 0)");
  REQUIRE(p->rules[0].lhs.size() == 2);
  CHECK(tree(*p->rules[0].rhs[1]) == "(y + 1)");
  CHECK_FALSE(p->tests[0].isState);
  CHECK(p->tests[0].target == "f");
  CHECK(p->tests[0].args.size() == 2);
  CHECK(p->tests[1].isState);
  CHECK(p->tests[1].names == std::vector<std::string>{"x", "y"});
  CHECK(tree(*p->tests[1].values[1]) == "5");
  CHECK(p->tests[2].isState);
  CHECK(p->tests[2].names.empty());
}

TEST_CASE("parser: 'test' is a keyword only where a test declaration starts") {
  auto p = parseOk(
      "proc test(x: int) {\n  var test: int = test(x);\n  test := 1;\n}\n"
      "test test(1);\ntest { test = 1 };\n");
  REQUIRE(p->procs.size() == 1);
  CHECK(p->procs[0]->name == "test");
  CHECK(p->procs[0]->body[0]->name == "test");
  CHECK(p->procs[0]->body[1]->kind == SK::Assign);
  REQUIRE(p->tests.size() == 2);
  CHECK(p->tests[0].target == "test");
  CHECK(p->tests[1].names == std::vector<std::string>{"test"});
}

TEST_CASE("parser: class members") {
  auto p = parseOk(R"(
class Stack {
  var elems: int[];
  var size: int = 0;
  predicate size >= 0;
  init(capacity: int) { elems := new int[capacity]; }
  method pop() { size := size - 1; }
  method top(): int { return elems[size - 1]; }
}
test Stack(3);
)");
  REQUIRE(p->classes.size() == 1);
  const auto& c = *p->classes[0];
  CHECK(c.name == "Stack");
  REQUIRE(c.fields.size() == 2);
  CHECK(c.fields[0]->type->kind == ast::TypeExpr::Kind::Array);
  CHECK(c.fields[0]->type->size == nullptr);
  CHECK(tree(*c.fields[1]->init) == "0");
  REQUIRE(c.predicates.size() == 1);
  REQUIRE(c.init);
  CHECK(c.init->name == "init");
  CHECK(c.init->params.size() == 1);
  REQUIRE(c.methods.size() == 2);
  CHECK(c.methods[0]->name == "pop");
  CHECK(c.methods[0]->returnType == nullptr);
  CHECK(c.methods[1]->returnType->kind == ast::TypeExpr::Kind::Int);
  CHECK(tree(*c.init->body[0]->rhs[0]) == "new int[capacity]");
  CHECK(p->tests[0].target == "Stack");
}

TEST_CASE("parser: types") {
  auto p = parseOk(R"(
var a: int;
var b: i32;
var c: i64;
var d: bool;
var e: Loc;
var f: ref int;
var g: int[3];
var h: int[];
var i: int[2][3];
var j: ref int[4];
var k: (ref int)[5];
var l: ref ref bool;
)");
  auto t = [&](size_t i) { return printType(*p->globals.at(i)->type); };
  CHECK(t(0) == "int");
  CHECK(t(1) == "i32");
  CHECK(t(2) == "i64");
  CHECK(t(3) == "bool");
  CHECK(t(4) == "Loc");
  CHECK(p->globals[4]->type->kind == ast::TypeExpr::Kind::Named);
  CHECK(t(5) == "ref int");
  CHECK(t(6) == "int[3]");
  CHECK(t(7) == "int[]");
  // Brackets apply left to right: an array of 3 elements of type int[2].
  const auto& i = *p->globals[8]->type;
  CHECK(tree(*i.size) == "3");
  CHECK(tree(*i.elem->size) == "2");
  // `ref` takes the whole type after it; parentheses group.
  CHECK(p->globals[9]->type->kind == ast::TypeExpr::Kind::Ref);
  CHECK(p->globals[9]->type->elem->kind == ast::TypeExpr::Kind::Array);
  CHECK(p->globals[10]->type->kind == ast::TypeExpr::Kind::Array);
  CHECK(p->globals[10]->type->elem->kind == ast::TypeExpr::Kind::Ref);
  CHECK(t(10) == "(ref int)[5]");
  CHECK(t(11) == "ref ref bool");
}

// ---------------------------------------------------------------------------------------------
// Statements.

TEST_CASE("parser: simple statements") {
  auto p = parseBody(R"(
  var v: int = 1;
  var w: int;
  var s: int = *;
  var r: int = g(1, 2);
  x := e;
  x, y := 1, 2;
  a[i] := 3;
  o.f := 4;
  *p := *p + 1;
  x := *;
  x, y := *, *;
  havoc x, a[1];
  break;
  continue;
  goto L1, L2;
  assume x > 0;
  assert x > 0;
  assert x > 0 verified a && b;
  assumed no_overflow_add(x, y) as a;
  skip;
  return;
  return x + 1;
  call f(1, x);
  x := f(2);
  await x > 0;
  predicate x < 10;
)");
  const auto& b = bodyOf(*p);
  REQUIRE(b.size() == 26);
  CHECK(b[0]->kind == SK::VarDecl);
  CHECK(b[0]->name == "v");
  CHECK(b[0]->declType->kind == ast::TypeExpr::Kind::Int);
  CHECK(tree(*b[0]->rhs[0]) == "1");
  CHECK(b[1]->rhs.empty());
  CHECK(b[2]->rhs[0]->kind == EK::Star);
  CHECK(b[3]->rhs[0]->kind == EK::Call);
  CHECK(b[4]->kind == SK::Assign);
  CHECK(b[5]->lhs.size() == 2);
  CHECK(b[5]->rhs.size() == 2);
  CHECK(tree(*b[6]->lhs[0]) == "(a[i])");
  CHECK(tree(*b[7]->lhs[0]) == "(o.f)");
  CHECK(tree(*b[8]->lhs[0]) == "(*p)");
  CHECK(tree(*b[8]->rhs[0]) == "((*p) + 1)");
  CHECK(b[9]->rhs[0]->kind == EK::Star);
  CHECK(b[10]->rhs[0]->kind == EK::Star);
  CHECK(b[10]->rhs[1]->kind == EK::Star);
  CHECK(b[11]->kind == SK::Havoc);
  CHECK(b[11]->lhs.size() == 2);
  CHECK(b[12]->kind == SK::Break);
  CHECK(b[13]->kind == SK::Continue);
  CHECK(b[14]->kind == SK::Goto);
  CHECK(b[14]->targets == std::vector<std::string>{"L1", "L2"});
  CHECK(b[14]->targetLocs[1] == SourceLoc{17, 12});
  CHECK(b[15]->kind == SK::Assume);
  CHECK(b[16]->kind == SK::Assert);
  CHECK(b[16]->premise == nullptr);
  CHECK(tree(*b[17]->premise) == "(a && b)");
  CHECK(b[18]->kind == SK::Assumed);
  CHECK(b[18]->name == "a");
  CHECK(tree(*b[18]->cond) == "no_overflow_add(x, y)");
  CHECK(b[19]->kind == SK::Skip);
  CHECK(b[20]->kind == SK::Return);
  CHECK(b[20]->cond == nullptr);
  CHECK(tree(*b[21]->cond) == "(x + 1)");
  CHECK(b[22]->kind == SK::CallStmt);
  CHECK(tree(*b[22]->cond) == "f(1, x)");
  CHECK(b[23]->kind == SK::Assign);
  CHECK(b[23]->rhs[0]->kind == EK::Call);
  CHECK(b[24]->kind == SK::Await);
  CHECK(b[25]->kind == SK::Predicate);
  CHECK(b[4]->loc == SourceLoc{7, 3});
}

TEST_CASE("parser: compound statements") {
  auto p = parseBody(R"(
  if (x > 0) y := 1;
  if (*) { y := 1; } else { y := 2; }
  if (a) if (b) y := 1; else y := 2;
  if (a) skip; else if (b) skip; else skip;
  while (i < n) { i := i + 1; }
  while (*) skip;
  atomic { x := 1; y := 2; }
  { skip; { skip; } }
)");
  const auto& b = bodyOf(*p);
  REQUIRE(b.size() == 8);
  CHECK(b[0]->kind == SK::If);
  CHECK_FALSE(b[0]->hasElse);
  CHECK(b[0]->body.size() == 1);
  CHECK(b[0]->body[0]->kind == SK::Assign);
  CHECK(b[1]->cond->kind == EK::Star);
  CHECK(b[1]->hasElse);
  CHECK(b[1]->body[1]->kind == SK::Block);
  // The dangling else binds to the nearest if.
  CHECK_FALSE(b[2]->hasElse);
  CHECK(b[2]->body[0]->hasElse);
  CHECK(b[3]->body[1]->kind == SK::If);
  CHECK(b[3]->body[1]->hasElse);
  CHECK(b[4]->kind == SK::While);
  CHECK(b[4]->body[0]->kind == SK::Block);
  CHECK(b[5]->cond->kind == EK::Star);
  CHECK(b[6]->kind == SK::Atomic);
  CHECK(b[6]->body.size() == 2);
  CHECK(b[7]->kind == SK::Block);
  CHECK(b[7]->body[1]->kind == SK::Block);
}

TEST_CASE("parser: labels") {
  auto p = parseBody(R"(
  A: x := 1;
  L1: L2: skip;
  H: return;
  W: while (*) { I: if (*) { break; } }
)");
  const auto& b = bodyOf(*p);
  REQUIRE(b.size() == 4);
  CHECK(b[0]->labels == std::vector<std::string>{"A"});
  CHECK(b[0]->labelLocs[0] == SourceLoc{3, 3});
  CHECK(b[0]->loc == SourceLoc{3, 6});
  CHECK(b[1]->labels == std::vector<std::string>{"L1", "L2"});
  CHECK(b[1]->kind == SK::Skip);
  CHECK(b[2]->labels == std::vector<std::string>{"H"});
  CHECK(b[3]->body[0]->body[0]->labels == std::vector<std::string>{"I"});
}

TEST_CASE("parser: star is a value only where one is allowed") {
  auto p = parseBody(R"(
  x := *;
  x := *p;
  x := *p * *q;
  if (*) skip;
  if (*p) skip;
  while (*) skip;
  var v: int = *;
  var w: int = *p;
)");
  const auto& b = bodyOf(*p);
  CHECK(b[0]->rhs[0]->kind == EK::Star);
  CHECK(tree(*b[1]->rhs[0]) == "(*p)");
  CHECK(tree(*b[2]->rhs[0]) == "((*p) * (*q))");
  CHECK(b[3]->cond->kind == EK::Star);
  CHECK(tree(*b[4]->cond) == "(*p)");
  CHECK(b[5]->cond->kind == EK::Star);
  CHECK(b[6]->rhs[0]->kind == EK::Star);
  CHECK(tree(*b[7]->rhs[0]) == "(*p)");
  // Elsewhere a lone `*` is not an expression.
  CHECK(errorsOf("proc f() { assert *; }") ==
        std::vector<std::string>{"1:20: expected expression, found ';'"});
}

// ---------------------------------------------------------------------------------------------
// Expressions.

TEST_CASE("parser: precedence and associativity") {
  CHECK(exprTree("a + b * c") == "(a + (b * c))");
  CHECK(exprTree("a * b + c") == "((a * b) + c)");
  CHECK(exprTree("a - b - c") == "((a - b) - c)");
  CHECK(exprTree("a / b % c") == "((a / b) % c)");
  CHECK(exprTree("a ==> b ==> c") == "(a ==> (b ==> c))");
  CHECK(exprTree("a || b ==> c && d") == "((a || b) ==> (c && d))");
  CHECK(exprTree("a || b && c") == "(a || (b && c))");
  CHECK(exprTree("a && b || c") == "((a && b) || c)");
  CHECK(exprTree("a == b < c") == "(a == (b < c))");
  CHECK(exprTree("a != b == c") == "((a != b) == c)");
  CHECK(exprTree("a < b + c") == "(a < (b + c))");
  CHECK(exprTree("a <= b && c >= d") == "((a <= b) && (c >= d))");
  CHECK(exprTree("!a && b") == "((!a) && b)");
  CHECK(exprTree("-x * y") == "((-x) * y)");
  CHECK(exprTree("1 - -2") == "(1 - (-2))");
  CHECK(exprTree("!!a") == "(!(!a))");
  CHECK(exprTree("a ? b : c ? d : e") == "(a ? b : (c ? d : e))");
  CHECK(exprTree("a ? b ? c : d : e") == "(a ? (b ? c : d) : e)");
  CHECK(exprTree("a ==> b ? c : d") == "((a ==> b) ? c : d)");
  CHECK(exprTree("(a + b) * c") == "((a + b) * c)");
  CHECK(exprTree("x * x * x > 0") == "(((x * x) * x) > 0)");
  CHECK(exprTree("x % 2 == 0") == "((x % 2) == 0)");
}

TEST_CASE("parser: unary and postfix") {
  CHECK(exprTree("*p.f") == "(*(p.f))");
  CHECK(exprTree("(*p).f") == "((*p).f)");
  CHECK(exprTree("&a[i]") == "(&(a[i]))");
  CHECK(exprTree("**p") == "(*(*p))");
  CHECK(exprTree("-a[i].f") == "(-((a[i]).f))");
  CHECK(exprTree("a.b.c[1]") == "(((a.b).c)[1])");
  CHECK(exprTree("m[i][j]") == "((m[i])[j])");
  CHECK(exprTree("P@CS") == "(P@CS)");
  CHECK(exprTree("P[0]@CS") == "((P[0])@CS)");
  CHECK(exprTree("!(P[0]@CS && P[1]@CS)") == "(!(((P[0])@CS) && ((P[1])@CS)))");
  CHECK(exprTree("P.v + P[1].v") == "((P.v) + ((P[1]).v))");
}

TEST_CASE("parser: primaries") {
  CHECK(exprTree("123456789012345678901234567890") == "123456789012345678901234567890");
  CHECK(exprTree("true") == "true");
  CHECK(exprTree("false") == "false");
  CHECK(exprTree("null") == "null");
  CHECK(exprTree("pid") == "pid");
  CHECK(exprTree("f()") == "f()");
  CHECK(exprTree("f(a, b + 1)") == "f(a, (b + 1))");
  CHECK(exprTree("int(x) + i32(y) + i64(z)") == "((int(x) + i32(y)) + i64(z))");
  CHECK(exprTree("len(a) + old(x) + abs(y) + min(a, b) + max(a, b)") ==
        "((((len(a) + old(x)) + abs(y)) + min(a, b)) + max(a, b))");
  CHECK(exprTree("new int[n + 1]") == "new int[(n + 1)]");
  CHECK(exprTree("new Loc[3]") == "new Loc[3]");
  CHECK(exprTree("new int[2][n]") == "new int[2][n]");
  CHECK(exprTree("new (ref int)[n]") == "new ref int[n]");
  CHECK(exprTree("new C(1, x)") == "new C(1, x)");
  CHECK(exprTree("new C()") == "new C()");
  CHECK(exprTree("[1, 2, 3]") == "[1, 2, 3]");
  CHECK(exprTree("[]") == "[]");
  CHECK(exprTree("((x))") == "x");

  SourceFile file("e", "a + b");
  Diagnostics diags(&file);
  auto e = parseExpression(file, diags);
  REQUIRE(e);
  CHECK(e->kind == EK::Binary);
  CHECK(e->binop == ast::BinOp::Add);
  CHECK(e->loc == SourceLoc{1, 3});  // binary nodes sit at their operator
  CHECK(e->args[0]->loc == SourceLoc{1, 1});
}

TEST_CASE("parser: parseExpression rejects trailing tokens and bad input") {
  CHECK(exprTree("x + 1 )") == "ERROR unexpected ')' after expression");
  CHECK(exprTree("x y") == "ERROR unexpected 'y' after expression");
  CHECK(exprTree("") == "ERROR expected expression, found end of file");
  CHECK(exprTree("x + # 1") == "ERROR unexpected character '#'");
  CHECK(exprTree("*") == "ERROR expected expression, found end of file");
  CHECK(exprTree("int") == "ERROR expected expression, found 'int'");
}

// ---------------------------------------------------------------------------------------------
// Conformance files.

TEST_CASE("parser: every conformance file parses without errors") {
  auto files = conformanceFiles();
  REQUIRE(files.size() >= 10);
  for (const auto& path : files) {
    CAPTURE(path.filename().string());
    auto p = parse(readFile(path));
    CHECK(p.errors.empty());
    CHECK_FALSE(p.prog->order.empty());
  }
}

TEST_CASE("parser: conformance details") {
  auto dir = std::filesystem::path(TANDEM_SHARED_DIR) / "conformance";
  auto peterson = parseOk(readFile(dir / "peterson2.tdm"));
  REQUIRE(peterson->processes.size() == 1);
  CHECK(tree(*peterson->processes[0]->count) == "2");
  CHECK(peterson->processes[0]->body[0]->labels == std::vector<std::string>{"NCS"});
  CHECK(tree(*peterson->invariants[0].expr) == "(!(((P[0])@CS) && ((P[1])@CS)))");

  auto unstructured = parseOk(readFile(dir / "unstructured.tdm"));
  const auto& foo = *unstructured->procs[0];
  CHECK(foo.body[1]->kind == SK::Goto);
  CHECK(foo.body[1]->labels == std::vector<std::string>{"L0"});
  CHECK(foo.body.back()->labels == std::vector<std::string>{"L3"});

  auto deposit = parseOk(readFile(dir / "deposit.tdm"));
  const auto& dep = *deposit->procs[2];
  CHECK(tree(*dep.body[1]->premise) == "a");
  CHECK(dep.body[0]->body[1]->body[0]->kind == SK::Assumed);
}

// ---------------------------------------------------------------------------------------------
// Syntax errors: exact positions and messages.

TEST_CASE("parser: syntax errors are reported with their position") {
  struct Case {
    std::string src;
    std::string error;
  };
  const Case cases[] = {
      {"proc f() {\n  x := 1\n  y := 2;\n}\n", "2:9: expected ';' after statement"},
      {"proc f() {\n  x := ;\n}\n", "2:8: expected expression, found ';'"},
      {"foo;\n", "1:1: unexpected token 'foo' at top level"},
      {"proc f() {\n  L: }\n", "2:3: label must be followed by a statement"},
      {"proc f() {\n  if x > 0 { skip; }\n}\n", "2:6: expected '(' after 'if', found 'x'"},
      {"proc f() {\n  if (x > 0 { skip; }\n}\n", "2:13: expected ')' after condition, found '{'"},
      {"var x int;\n", "1:7: expected ':' after variable name, found 'int'"},
      {"proc f() {\n  x = 1;\n}\n", "2:5: expected ':=' in assignment, found '='"},
      {"proc f() {\n  f(1);\n}\n", "2:3: a call statement is written 'call f(...);'"},
      {"var a: int[;\n", "1:12: expected expression, found ';'"},
      {"enum E { }\n", "1:10: expected enum member, found '}'"},
      {"@inline proc f() { }\n", "1:1: unknown annotation '@inline'"},
      {"proc f() {\n  skip;\n", "3:1: expected '}' at end of block, found end of file"},
      {"rule r: x > 0 x := 1;\n", "1:15: expected '->' after rule guard, found 'x'"},
      {"invariant (x > 0;\n", "1:17: expected ')' after expression, found ';'"},
      {"proc f() {\n  goto ;\n}\n", "2:8: expected label after 'goto', found ';'"},
      {"proc f() {\n  assumed x > 0 a;\n}\n",
       "2:17: expected 'as' after the assumed condition, found 'a'"},
      {"class C {\n  foo x;\n}\n",
       "2:3: expected class member ('var', 'predicate', 'init' or 'method'), found 'foo'"},
      {"process P[2 { skip; }\n", "1:13: expected ']' after process count, found '{'"},
      {"proc f() {\n  x := new int;\n}\n",
       "2:15: expected '[' after the element type in 'new', found ';'"},
      {"var x: int = 1 2;\n", "1:15: expected ';' after declaration"},
      {"proc f( { }\n", "1:9: expected parameter name, found '{'"},
      {"proc f() {\n  else skip;\n}\n", "2:3: expected statement, found 'else'"},
      {"var x: 3;\n", "1:8: expected type, found '3'"},
      {"proc f() {\n  y := x.;\n}\n", "2:10: expected field name after '.', found ';'"},
      {"invariant P@;\n", "1:13: expected label after '@', found ';'"},
      {"proc f() {\n  x := a ? b;\n}\n", "2:13: expected ':' in conditional expression, found ';'"},
      {"test 3;\n", "1:6: expected procedure or class name, or '{' after 'test', found '3'"},
      {"class C {\n  init() { }\n  init() { }\n}\n", "3:3: class 'C' has more than one init"},
      {"proc f() {\n  x := new int[];\n}\n", "2:16: expected array length in 'new'"},
      {"native h(x: int);\n",
       "1:17: expected ':' and a result type after the parameters of a native, found ';'"},
      {"proc f() {\n  x := 1 # 2;\n}\n", "2:10: unexpected character '#'"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.src);
    auto errors = errorsOf(c.src);
    REQUIRE_FALSE(errors.empty());
    CHECK(errors[0] == c.error);
  }
}

TEST_CASE("parser: a missing ';' at a line end does not hide the next statement") {
  auto p = parse("proc f() {\n  x := 1\n  y := 2;\n}\n");
  CHECK(p.errors.size() == 1);
  REQUIRE(p.prog->procs.size() == 1);
  CHECK(p.prog->procs[0]->body.size() == 2);
}

TEST_CASE("parser: several errors in one file") {
  auto p = parse(R"(var a: int = ;
proc f() {
  x := (1 + ;
  if (x > 0) {
    y := ];
  } else {
    skip;
  }
  z := 3;
}
bogus here;
proc g() {
  L: }
process P {
  skip
}
invariant x > ;
)");
  CHECK(p.errors == std::vector<std::string>{
                        "1:14: expected expression, found ';'",
                        "3:13: expected expression, found ';'",
                        "5:10: expected expression, found ']'",
                        "11:1: unexpected token 'bogus' at top level",
                        "13:3: label must be followed by a statement",
                        "15:7: expected ';' after statement",
                        "17:15: expected expression, found ';'",
                    });
  // Recovery keeps what is well-formed.
  REQUIRE(p.prog->procs.size() == 2);
  const auto& f = p.prog->procs[0]->body;
  REQUIRE(f.size() == 2);  // the if (with its damaged then-block) and z := 3
  CHECK(f[0]->kind == SK::If);
  CHECK(f[0]->hasElse);
  CHECK(f[1]->kind == SK::Assign);
  CHECK(p.prog->processes.size() == 1);
}

TEST_CASE("parser: error in a header skips the whole statement, else branch included") {
  auto p = parse("proc f() {\n  if (x > ) { a := 1; } else { b := 2; }\n  c := 3;\n}\n");
  CHECK(p.errors == std::vector<std::string>{"2:11: expected expression, found ')'"});
  REQUIRE(p.prog->procs[0]->body.size() == 1);
  CHECK(p.prog->procs[0]->body[0]->kind == SK::Assign);
}

TEST_CASE("parser: a block missing its '}' ends at the next declaration") {
  auto p = parse("proc f() {\n  skip;\nproc g() { skip; }\n");
  CHECK(p.errors == std::vector<std::string>{"3:1: expected '}' at end of block, found 'proc'"});
  CHECK(p.prog->procs.size() == 2);
}

// ---------------------------------------------------------------------------------------------
// Robustness: nothing crashes, hangs or recurses without bound.

TEST_CASE("parser: deep nesting is an error, not a stack overflow") {
  const size_t n = 100000;
  const std::string depthError = "nesting too deep (more than 256 levels)";
  auto hasDepthError = [&](const std::string& src) {
    auto errors = errorsOf(src);
    return std::any_of(errors.begin(), errors.end(), [&](const std::string& e) {
      return e.find(depthError) != std::string::npos;
    });
  };
  CHECK(hasDepthError("invariant " + std::string(n, '(') + "x" + std::string(n, ')') + ";"));
  CHECK(hasDepthError("invariant " + std::string(n, '!') + "x;"));
  CHECK(hasDepthError("invariant " + std::string(n, '-') + "x;"));
  CHECK(hasDepthError("invariant " + std::string(n, '[') + ";"));
  std::string cond = "invariant x";
  for (size_t i = 0; i < n; ++i) cond += " ? x : x";
  CHECK(hasDepthError(cond + ";"));
  std::string index = "invariant x";
  for (size_t i = 0; i < n; ++i) index += "[0]";
  CHECK(hasDepthError(index + ";"));
  CHECK(hasDepthError("proc f() " + std::string(n, '{') + std::string(n, '}')));
  std::string ifs = "proc f() { ";
  for (size_t i = 0; i < n; ++i) ifs += "if (x) ";
  CHECK(hasDepthError(ifs + "skip; }"));
  CHECK(hasDepthError("var x: " + std::string(n, '(') + "int" + std::string(n, ')') + ";"));
  std::string refs = "var x: ";
  for (size_t i = 0; i < n; ++i) refs += "ref ";
  CHECK(hasDepthError(refs + "int;"));

  // The exact position: the 257th nested level.
  auto errors = errorsOf("invariant " + std::string(300, '(') + "x" + std::string(300, ')') + ";");
  REQUIRE_FALSE(errors.empty());
  CHECK(errors[0] == "1:267: " + depthError);
  // Just below the limit is fine.
  CHECK(errorsOf("invariant " + std::string(250, '(') + "x" + std::string(250, ')') + ";").empty());
}

TEST_CASE("parser: a chain of binary operators is no nesting, at any length") {
  // 5,000 terms: the parse is a loop at any length, but this test's tree is freed by recursion on
  // the test runner's stack (the tandem command runs on a large one; tests/regress/long_chains).
  const size_t n = 5000;
  for (const std::string op : {" + ", " * ", " - ", " || ", " && ", " ==> ", " == "}) {
    CAPTURE(op);
    std::string chain = "invariant x";
    for (size_t i = 0; i < n; ++i) chain += op + "x";
    CHECK(errorsOf(chain + ";").empty());
  }
  // Parentheses still nest: the guard stays for them.
  std::string paren = "invariant x";
  for (size_t i = 0; i < 300; ++i) paren += " + (x";
  CHECK_FALSE(errorsOf(paren + std::string(300, ')') + ";").empty());
}

TEST_CASE("parser: every prefix of a conformance file parses without crashing") {
  for (const auto& path : conformanceFiles()) {
    std::string text = readFile(path);
    CAPTURE(path.filename().string());
    const size_t cuts = 40;
    for (size_t k = 0; k <= cuts; ++k) {
      size_t len = text.size() * k / cuts;
      CAPTURE(len);
      std::string prefix = text.substr(0, len);
      auto p = parse(prefix);
      REQUIRE(p.prog);
      // Whatever was recovered prints and reparses to the same text.
      std::string once = printProgram(*p.prog);
      auto again = parse(once);
      CHECK(again.errors.empty());
      CHECK(printProgram(*again.prog) == once);
      // Also the file with one token removed in the middle (a typical typo).
      auto cutAt = text.find_first_of(";{}(:", len);
      if (cutAt != std::string::npos) {
        auto q = parse(text.substr(0, cutAt) + text.substr(cutAt + 1));
        REQUIRE(q.prog);
        printProgram(*q.prog);
      }
    }
  }
}

TEST_CASE("parser: random token soup never crashes or hangs") {
  const std::vector<std::string> pool = {
      "proc",      "process",   "class",   "var",       "if",  "else", "while",     "{",
      "}",         "(",         ")",       "[",         "]",   ";",    ":",         ":=",
      ",",         ".",         "@",       "@concrete", "x",   "y",    "L",         "1",
      "*",         "&",         "-",       "+",         "==>", "?",    "goto",      "return",
      "assert",    "verified",  "assumed", "as",        "new", "int",  "ref",       "init",
      "method",    "rule",      "->",      "test",      "=",   "enum", "partition", "call",
      "havoc",     "atomic",    "#",       "/*",        "*/",  "//",   "\n",        "pid",
      "predicate", "invariant", "native",  "const"};
  std::mt19937 rng(12345);
  for (int iter = 0; iter < 400; ++iter) {
    std::string src;
    size_t len = rng() % 80;
    for (size_t i = 0; i < len; ++i) src += pool[rng() % pool.size()] + " ";
    CAPTURE(src);
    auto p = parse(src);
    REQUIRE(p.prog);
    std::string once = printProgram(*p.prog);
    auto again = parse(once);
    CHECK(again.errors.empty());
    CHECK(printProgram(*again.prog) == once);
  }
  for (int iter = 0; iter < 200; ++iter) {
    std::string bytes;
    size_t len = rng() % 200;
    for (size_t i = 0; i < len; ++i) bytes += static_cast<char>(rng() % 256);
    auto p = parse(bytes);
    REQUIRE(p.prog);
    SourceFile file("e", bytes);
    Diagnostics diags(&file);
    parseExpression(file, diags);
  }
}

}  // namespace
}  // namespace tandem
