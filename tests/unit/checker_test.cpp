// The type checker's annotations on the AST (what names resolve to, variable scopes and slots,
// literal coercion, purity, `old`, process references), error reporting with positions, and
// user declarations shadowing builtins.
#include <doctest/doctest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "mc/lang/checker.h"
#include "mc/lang/parser.h"

namespace tandem {
namespace {

using EK = ast::Expr::Kind;
using SK = ast::Stmt::Kind;
using RK = ast::RefKind;

// A parsed and checked program; the source file outlives the diagnostics that point into it.
struct Checked {
  explicit Checked(std::string text, std::string path = "t.tdm")
      : file(std::move(path), std::move(text)), diags(&file) {
    prog = parseProgram(file, diags);
    REQUIRE_MESSAGE(!diags.hasErrors(), "syntax error: " << firstError());
    ok = checkProgram(*prog, types, diags);
  }
  std::string firstError() const {
    if (diags.errors().empty()) return "";
    const auto& d = diags.errors().front();
    return std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message;
  }
  const ast::ProcDecl& proc(const std::string& name) const {
    for (const auto& p : prog->procs)
      if (p->name == name) return *p;
    FAIL("no procedure " << name);
    return *prog->procs.front();
  }

  SourceFile file;
  Diagnostics diags;
  TypeTable types;
  std::unique_ptr<ast::Program> prog;
  bool ok = false;
};

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string conformance(const std::string& name) {
  return std::string(TANDEM_SHARED_DIR) + "/conformance/" + name;
}

// Every call expression named `name` in a statement list (including initialisers, returns and
// nested bodies).
void findCalls(const ast::Expr* e, const std::string& name, std::vector<const ast::Expr*>& out) {
  if (!e) return;
  if (e->kind == EK::Call && e->name == name) out.push_back(e);
  for (const auto& a : e->args) findCalls(a.get(), name, out);
}
void findCalls(const std::vector<ast::StmtPtr>& body, const std::string& name,
               std::vector<const ast::Expr*>& out) {
  for (const auto& s : body) {
    findCalls(s->cond.get(), name, out);
    for (const auto& r : s->rhs) findCalls(r.get(), name, out);
    for (const auto& l : s->lhs) findCalls(l.get(), name, out);
    findCalls(s->body, name, out);
  }
}
std::vector<const ast::Expr*> callsTo(const ast::Program& p, const std::string& name) {
  std::vector<const ast::Expr*> out;
  for (const auto& proc : p.procs) findCalls(proc->body, name, out);
  for (const auto& proc : p.processes) findCalls(proc->body, name, out);
  return out;
}

}  // namespace

TEST_CASE("checker: names resolve to their VarInfo with scope, owner and slot") {
  Checked c(R"(
var g0: int = 0;
var g1: bool = false;
proc f(a: int, b: int): int {
  var l: int = a + b;
  var m: int = 0;
  g0 := l;
  m := g0 + b;
  return m;
}
process P {
  var v: int = 0;
  var w: int = 1;
  L: w := v;
}
)");
  REQUIRE_MESSAGE(c.ok, c.firstError());
  const auto& g0 = *c.prog->globals[0]->var;
  const auto& g1 = *c.prog->globals[1]->var;
  CHECK(g0.name == "g0");
  CHECK(g0.scope == ast::VarScope::Global);
  CHECK(g0.index == 0);
  CHECK(g0.type == c.types.intType());
  CHECK(g1.scope == ast::VarScope::Global);
  CHECK(g1.index == 1);
  CHECK(g1.type == c.types.boolType());

  const auto& f = c.proc("f");
  // Parameters first, then locals, each with its slot.
  REQUIRE(f.vars.size() == 4);
  CHECK(f.params[0].var == f.vars[0].get());
  CHECK(f.params[1].var == f.vars[1].get());
  CHECK(f.vars[0]->scope == ast::VarScope::Param);
  CHECK(f.vars[1]->index == 1);
  CHECK(f.vars[2]->name == "l");
  CHECK(f.vars[2]->scope == ast::VarScope::Local);
  CHECK(f.vars[2]->index == 2);
  CHECK(f.vars[2]->owner == "f");
  CHECK(f.vars[3]->name == "m");
  CHECK(f.vars[3]->index == 3);

  // var l: int = a + b;
  const ast::Stmt& declL = *f.body[0];
  REQUIRE(declL.kind == SK::VarDecl);
  CHECK(declL.var == f.vars[2].get());
  const ast::Expr& sum = *declL.rhs[0];
  REQUIRE(sum.kind == EK::Binary);
  CHECK(sum.type == c.types.intType());
  CHECK(sum.args[0]->ref == RK::Var);
  CHECK(sum.args[0]->var == f.vars[0].get());
  CHECK(sum.args[1]->var == f.vars[1].get());
  // g0 := l;
  const ast::Stmt& assign = *f.body[2];
  REQUIRE(assign.kind == SK::Assign);
  CHECK(assign.lhs[0]->ref == RK::Var);
  CHECK(assign.lhs[0]->var == &g0);
  CHECK(assign.rhs[0]->var == f.vars[2].get());
  // m := g0 + b;
  CHECK(f.body[3]->lhs[0]->var == f.vars[3].get());
  CHECK(f.body[3]->rhs[0]->args[0]->var == &g0);
  // return m;
  CHECK(f.body[4]->cond->var == f.vars[3].get());

  const auto& p = *c.prog->processes[0];
  REQUIRE(p.vars.size() == 2);
  CHECK(p.vars[0]->scope == ast::VarScope::ProcessLocal);
  CHECK(p.vars[0]->owner == "P");
  CHECK(p.vars[0]->index == 0);
  CHECK(p.vars[1]->index == 1);
  const ast::Stmt& wv = *p.body[2];
  REQUIRE(wv.kind == SK::Assign);
  CHECK(wv.lhs[0]->var == p.vars[1].get());
  CHECK(wv.rhs[0]->var == p.vars[0].get());
}

TEST_CASE("checker: an inner declaration shadows an outer one; constants and enums resolve") {
  Checked c(R"(
const K: int = 7;
enum Color { Red, Green }
var x: int = 0;
var col: Color = Green;
proc f() {
  var x: int = K;
  if (x > 0) {
    var x: bool = true;
    assume x;
  }
  col := Red;
}
)");
  REQUIRE_MESSAGE(c.ok, c.firstError());
  const auto& f = c.proc("f");
  const ast::Stmt& outer = *f.body[0];
  CHECK(outer.var->type == c.types.intType());
  CHECK(outer.var->scope == ast::VarScope::Local);  // not the global x
  CHECK(outer.rhs[0]->ref == RK::Const);
  CHECK(outer.rhs[0]->constValue == 7);
  const ast::Stmt& ifs = *f.body[1];
  CHECK(ifs.cond->args[0]->var == outer.var);
  const ast::Stmt& block = *ifs.body[0];
  REQUIRE(block.kind == SK::Block);
  const ast::Stmt& inner = *block.body[0];
  const ast::Stmt& assume = *block.body[1];
  CHECK(inner.var != outer.var);
  CHECK(assume.cond->var == inner.var);
  CHECK(assume.cond->type == c.types.boolType());
  const ast::Stmt& setCol = *f.body[2];
  CHECK(setCol.lhs[0]->var == c.prog->globals[1]->var.get());
  CHECK(setCol.rhs[0]->ref == RK::EnumMember);
  CHECK(setCol.rhs[0]->constValue == 0);
  CHECK(setCol.rhs[0]->type == c.types.findEnum("Color"));
}

TEST_CASE("checker: integer literals take the bit-vector type of the other operand") {
  Checked c(R"(
var x: i32 = 5;
var y: i64 = 0;
proc f() {
  x := x + 1;
  x := 2 * x;
  y := y - 3;
}
)");
  REQUIRE_MESSAGE(c.ok, c.firstError());
  const auto& f = c.proc("f");
  const ast::Expr& xPlus1 = *f.body[0]->rhs[0];
  REQUIRE(xPlus1.kind == EK::Binary);
  CHECK(xPlus1.type == c.types.i32Type());
  CHECK(xPlus1.args[0]->type == c.types.i32Type());
  CHECK(xPlus1.args[1]->kind == EK::IntLit);
  CHECK(xPlus1.args[1]->type == c.types.i32Type());  // the literal 1, coerced
  const ast::Expr& twoX = *f.body[1]->rhs[0];
  CHECK(twoX.args[0]->type == c.types.i32Type());
  CHECK(twoX.type == c.types.i32Type());
  const ast::Expr& yMinus3 = *f.body[2]->rhs[0];
  CHECK(yMinus3.args[1]->type == c.types.i64Type());
  CHECK(yMinus3.type == c.types.i64Type());
  // The global's initialiser is coerced too.
  CHECK(c.prog->globals[0]->init->type == c.types.i32Type());

  // A literal that does not fit is an error, not a silent wrap.
  Checked bad("var x: i32 = 0;\nproc f() { x := x + 4294967296; }\n");
  CHECK_FALSE(bad.ok);
  CHECK(bad.firstError().find("out of range") != std::string::npos);
}

// The most negative i32/i64 values are in range although their magnitudes are not: the negated
// literal is coerced as a whole.
TEST_CASE("checker: the minimum i32 and i64 values can be written as literals") {
  Checked c(R"(
var a: i32 = -2147483648;
var b: i64 = -9223372036854775808;
proc f() { a := -2147483648; }
)");
  CHECK_MESSAGE(c.ok, c.firstError());
  if (c.ok) {
    CHECK(c.prog->globals[0]->init->type == c.types.i32Type());
    CHECK(c.prog->globals[1]->init->type == c.types.i64Type());
  }
  // One beyond the minimum is out of range.
  Checked bad("var a: i32 = -2147483649;\n");
  CHECK_FALSE(bad.ok);
}

TEST_CASE("checker: purity of procedures and use of old") {
  Checked c(R"(
var g: int = 0;
proc twice(a: int): int {
  var t: int = a * 2;
  t := t + 0;
  return t;
}
proc setG(a: int) {
  g := a;
}
proc callsImpure() {
  call setG(1);
}
proc callsPure(): int {
  var r: int = twice(3);
  return r + twice(1);
}
proc bump() {
  g := g + 1;
  assert g == old(g) + 1;
}
)");
  REQUIRE_MESSAGE(c.ok, c.firstError());
  CHECK(c.proc("twice").pure);
  CHECK_FALSE(c.proc("setG").pure);
  CHECK_FALSE(c.proc("callsImpure").pure);  // impurity propagates through calls
  CHECK(c.proc("callsPure").pure);
  CHECK_FALSE(c.proc("bump").pure);
  CHECK(c.proc("bump").usesOld);
  CHECK_FALSE(c.proc("twice").usesOld);
  CHECK_FALSE(c.proc("setG").usesOld);

  // A procedure with side effects cannot be called inside an expression.
  Checked bad(R"(
var g: int = 0;
proc inc(): int { g := g + 1; return g; }
proc f(): int { return inc() + 1; }
)");
  CHECK_FALSE(bad.ok);
  CHECK(bad.firstError().find("side effects") != std::string::npos);
  CHECK(bad.diags.errors().front().loc.line == 4);
}

TEST_CASE("checker: P@L, P[i]@L and P[i].v resolve to processes") {
  Checked c(R"(
process P[2] {
  var v: int = 0;
  L: v := v + 1;
}
process Q {
  M: skip;
}
invariant inv: !(P[0]@L && Q@M) && P[1].v >= 0;
)");
  REQUIRE_MESSAGE(c.ok, c.firstError());
  CHECK(c.prog->processes[0]->instances == 2);
  const ast::Expr& inv = *c.prog->invariants[0].expr;
  REQUIRE(inv.kind == EK::Binary);
  const ast::Expr& notAt = *inv.args[0];
  REQUIRE(notAt.kind == EK::Unary);
  const ast::Expr& conj = *notAt.args[0];
  const ast::Expr& pAtL = *conj.args[0];
  const ast::Expr& qAtM = *conj.args[1];
  REQUIRE(pAtL.kind == EK::AtLabel);
  CHECK(pAtL.name == "L");
  CHECK(pAtL.ref == RK::Process);
  CHECK(pAtL.type == c.types.boolType());
  REQUIRE(pAtL.args[0]->kind == EK::Index);
  CHECK(pAtL.args[0]->args[0]->ref == RK::Process);
  CHECK(pAtL.args[0]->args[0]->name == "P");
  REQUIRE(qAtM.kind == EK::AtLabel);
  CHECK(qAtM.ref == RK::Process);
  CHECK(qAtM.args[0]->ref == RK::Process);
  const ast::Expr& cmp = *inv.args[1];
  const ast::Expr& field = *cmp.args[0];
  REQUIRE(field.kind == EK::Field);
  CHECK(field.ref == RK::Process);
  CHECK(field.var == c.prog->processes[0]->vars[0].get());
  CHECK(field.type == c.types.intType());

  // A label the process does not have, and an index missing on a process array, are errors.
  Checked bad(R"(
process P[2] { L: skip; }
invariant a: !P[0]@Nope;
invariant b: !P@L;
)");
  CHECK_FALSE(bad.ok);
  REQUIRE(bad.diags.errors().size() >= 2);
  CHECK(bad.diags.errors()[0].message.find("no label 'Nope'") != std::string::npos);
  CHECK(bad.diags.errors()[0].loc.line == 3);
  CHECK(bad.diags.errors()[1].message.find("needs an index") != std::string::npos);
  CHECK(bad.diags.errors()[1].loc.line == 4);
}

TEST_CASE("checker: every error of a program is reported, with its position") {
  Checked c(R"(var x: int = 0;
proc f() {
  y := 1;
  x := true;
  goto Nowhere;
  break;
}
proc g(a: int): int {
  return;
}
process P { await 3; }
)");
  CHECK_FALSE(c.ok);
  struct Expected {
    uint32_t line, col;
    const char* text;
  };
  const Expected expected[] = {
      {3, 3, "unknown name 'y'"},        {4, 8, "type mismatch"},
      {5, 8, "unknown label 'Nowhere'"}, {6, 3, "'break' outside a loop"},
      {9, 3, "missing return value"},    {11, 19, "'await' must be 'bool'"},
  };
  const auto& errs = c.diags.errors();
  CHECK(errs.size() == std::size(expected));
  for (const auto& e : expected) {
    bool found = false;
    for (const auto& d : errs)
      found = found || (d.loc.line == e.line && d.loc.col == e.col &&
                        d.message.find(e.text) != std::string::npos);
    CHECK_MESSAGE(found, "missing error " << e.line << ":" << e.col << " " << e.text);
  }
  // Printed as FILE:LINE:COL: error: message, with the line and a caret.
  std::ostringstream os;
  c.diags.print(os);
  CHECK(os.str().find("t.tdm:3:3: error: unknown name 'y'\n    y := 1;\n    ^\n") !=
        std::string::npos);
}

TEST_CASE("checker: user declarations shadow builtins and built-in natives") {
  // Without a declaration, abs is the builtin and hash the built-in native.
  Checked builtin("proc f(a: int): int { return abs(a) + hash(a); }\n");
  REQUIRE_MESSAGE(builtin.ok, builtin.firstError());
  auto absCalls = callsTo(*builtin.prog, "abs");
  auto hashCalls = callsTo(*builtin.prog, "hash");
  REQUIRE(absCalls.size() == 1);
  REQUIRE(hashCalls.size() == 1);
  CHECK(absCalls[0]->ref == RK::Builtin);
  CHECK(hashCalls[0]->ref == RK::Native);

  Checked user(R"(
proc abs(x: int): int {
  if (x > 0) { return x; }
  return 100;
}
@concrete proc hash(x: int, y: int): int { return x + y; }
proc f(a: int): int {
  var m: int = abs(a);
  return abs(m) + hash(a, m);
}
)");
  REQUIRE_MESSAGE(user.ok, user.firstError());
  absCalls = callsTo(*user.prog, "abs");
  hashCalls = callsTo(*user.prog, "hash");
  REQUIRE(absCalls.size() == 2);
  for (const auto* call : absCalls) CHECK(call->ref == RK::Proc);
  REQUIRE(hashCalls.size() == 1);
  CHECK(hashCalls[0]->ref == RK::Proc);  // the user's two-argument hash, not the native
  CHECK(user.proc("abs").pure);

  // A user native named like a builtin is that native.
  Checked native("native abs(x: int): int;\nproc f(a: int): int { return abs(a); }\n");
  REQUIRE_MESSAGE(native.ok, native.firstError());
  absCalls = callsTo(*native.prog, "abs");
  REQUIRE(absCalls.size() == 1);
  CHECK(absCalls[0]->ref == RK::Native);

  // The conformance files that define their own abs and hash check without errors.
  Checked absFile(readFile(conformance("abs_compositional.tdm")), "abs_compositional.tdm");
  CHECK_MESSAGE(absFile.ok, absFile.firstError());
  for (const auto* call : callsTo(*absFile.prog, "abs")) CHECK(call->ref == RK::Proc);
  CHECK(callsTo(*absFile.prog, "abs").size() == 2);
  Checked hashFile(readFile(conformance("mixed_hash.tdm")), "mixed_hash.tdm");
  CHECK_MESSAGE(hashFile.ok, hashFile.firstError());
  CHECK(callsTo(*hashFile.prog, "hash").size() == 1);
  for (const auto* call : callsTo(*hashFile.prog, "hash")) CHECK(call->ref == RK::Proc);
}

}  // namespace tandem
