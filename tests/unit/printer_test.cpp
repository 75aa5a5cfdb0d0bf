#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mc/lang/parser.h"
#include "mc/lang/printer.h"

namespace tandem {
namespace {

std::unique_ptr<ast::Program> parseText(const std::string& text,
                                        std::string* firstError = nullptr) {
  SourceFile file("t.tdm", text);
  Diagnostics diags(&file);
  auto p = parseProgram(file, diags);
  if (firstError && diags.hasErrors()) {
    const auto& d = diags.errors()[0];
    *firstError = std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message;
  }
  return p;
}

// print(parse(text)), requiring no errors.
std::string canon(const std::string& text) {
  std::string err;
  auto p = parseText(text, &err);
  CHECK_MESSAGE(err.empty(), err);
  return printProgram(*p);
}

std::string reprintExpr(const std::string& text) {
  SourceFile file("e", text);
  Diagnostics diags(&file);
  auto e = parseExpression(file, diags);
  REQUIRE(e);
  return printExpr(*e);
}

std::string body(const std::string& stmts) {
  auto p = parseText("proc f() {\n" + stmts + "\n}\n");
  std::string out;
  for (const auto& s : p->procs.at(0)->body) out += printStmt(*s);
  return out;
}

TEST_CASE("printer: expressions use minimal parentheses") {
  CHECK(reprintExpr("a+b*c") == "a + b * c");
  CHECK(reprintExpr("(a+b)*c") == "(a + b) * c");
  CHECK(reprintExpr("a-(b-c)") == "a - (b - c)");
  CHECK(reprintExpr("(a-b)-c") == "a - b - c");
  CHECK(reprintExpr("(a ==> b) ==> c") == "(a ==> b) ==> c");
  CHECK(reprintExpr("a ==> (b ==> c)") == "a ==> b ==> c");
  CHECK(reprintExpr("(a ? b : c) ? d : e") == "(a ? b : c) ? d : e");
  CHECK(reprintExpr("a ? b : (c ? d : e)") == "a ? b : c ? d : e");
  CHECK(reprintExpr("(a ? b : c) + 1") == "(a ? b : c) + 1");
  CHECK(reprintExpr("!(a && b)") == "!(a && b)");
  CHECK(reprintExpr("-(x + 1)") == "-(x + 1)");
  CHECK(reprintExpr("-(-x)") == "--x");
  CHECK(reprintExpr("& (&x)") == "& &x");
  CHECK(reprintExpr("(*p).f") == "(*p).f");
  CHECK(reprintExpr("*(p.f)") == "*p.f");
  CHECK(reprintExpr("(new int[3])[0]") == "(new int[3])[0]");
  CHECK(reprintExpr("new C(1).f") == "new C(1).f");
  CHECK(reprintExpr("new (ref int)[n]") == "new (ref int)[n]");
  CHECK(reprintExpr("new int[2][n]") == "new int[2][n]");
  CHECK(reprintExpr("!(P[0]@CS&&P[1]@CS)") == "!(P[0]@CS && P[1]@CS)");
  CHECK(reprintExpr("x*x*x>0") == "x * x * x > 0");
  CHECK(reprintExpr("f( a,b )+int(x)") == "f(a, b) + int(x)");
  CHECK(reprintExpr("[ 1,2 ]") == "[1, 2]");
  CHECK(reprintExpr("[]") == "[]");
  CHECK(reprintExpr("null != pid") == "null != pid");
  CHECK(reprintExpr("0123") == "0123");
  CHECK(reprintExpr("(a < b) < c") == "a < b < c");
  CHECK(reprintExpr("a < (b < c)") == "a < (b < c)");
}

TEST_CASE("printer: types") {
  auto p = parseText("var a: ref int[3]; var b: (ref int)[3]; var c: int[2][]; var d: Loc;");
  REQUIRE(p->globals.size() == 4);
  CHECK(printType(*p->globals[0]->type) == "ref int[3]");
  CHECK(printType(*p->globals[1]->type) == "(ref int)[3]");
  CHECK(printType(*p->globals[2]->type) == "int[2][]");
  CHECK(printType(*p->globals[3]->type) == "Loc");
}

TEST_CASE("printer: statements") {
  CHECK(body("var x: int = *; var y: bool;") == "var x: int = *;\nvar y: bool;\n");
  CHECK(body("x,y:=1,*;") == "x, y := 1, *;\n");
  CHECK(body("havoc x , a[i];") == "havoc x, a[i];\n");
  CHECK(body("A: B: goto L1,L2;") == "A: B: goto L1, L2;\n");
  CHECK(body("assume x>0; await y; predicate z<1;") ==
        "assume x > 0;\nawait y;\npredicate z < 1;\n");
  CHECK(body("assert x verified a&&b; assert y;") == "assert x verified a && b;\nassert y;\n");
  CHECK(body("assumed no_overflow_add(b, a) as ok;") == "assumed no_overflow_add(b, a) as ok;\n");
  CHECK(body("skip; break; continue; return; return x;") ==
        "skip;\nbreak;\ncontinue;\nreturn;\nreturn x;\n");
  CHECK(body("call f(1); x := g();") == "call f(1);\nx := g();\n");
  CHECK(body("atomic { x := 1; } { skip; }") == "atomic {\n  x := 1;\n}\n{\n  skip;\n}\n");
  CHECK(body("if (*) x := 1;") == "if (*)\n  x := 1;\n");
  CHECK(body("if (a) { x := 1; } else { x := 2; }") ==
        "if (a) {\n  x := 1;\n} else {\n  x := 2;\n}\n");
  CHECK(body("if (a) x := 1; else x := 2;") == "if (a)\n  x := 1;\nelse\n  x := 2;\n");
  CHECK(body("if (a) { skip; } else if (b) { skip; } else { skip; }") ==
        "if (a) {\n  skip;\n} else if (b) {\n  skip;\n} else {\n  skip;\n}\n");
  CHECK(body("while (*) { L: if (x) { break; } }") ==
        "while (*) {\n  L: if (x) {\n    break;\n  }\n}\n");
  CHECK(body("W: while (i < n) i := i + 1;") == "W: while (i < n)\n  i := i + 1;\n");
}

TEST_CASE("printer: whole program layout") {
  std::string src = R"(
// comments are dropped
const N: int = 2;
enum Loc { A, B };
var x: int = 0;
var y: int;
init y >= 0;
predicate x <= y;
invariant safe: x >= 0;
native h(a: int): int partition(a > 3, a <= 3);
@concrete proc g(a: int): int partition(a > 0) { return a; }
class C {
  method m() { skip; }
  var f: int;
  predicate f > 0;
  init(v: int) { f := v; }
}
process P[N] {
  CS: x := pid;
      goto CS;
}
rule r: x > 0 -> x := x - 1, y := *;
test g(1);
test { x = 1, y = 5 };
)";
  CHECK(canon(src) == R"(const N: int = 2;

enum Loc { A, B }

var x: int = 0;
var y: int;

init y >= 0;

predicate x <= y;

invariant safe: x >= 0;

native h(a: int): int partition(a > 3, a <= 3);

@concrete proc g(a: int): int partition(a > 0) {
  return a;
}

class C {
  var f: int;
  predicate f > 0;

  init(v: int) {
    f := v;
  }

  method m() {
    skip;
  }
}

process P[N] {
  CS: x := pid;
  goto CS;
}

rule r: x > 0 -> x := x - 1, y := *;

test g(1);
test { x = 1, y = 5 };
)");
}

TEST_CASE("printer: empty bodies and the empty program") {
  CHECK(canon("") == "");
  CHECK(canon("proc f() { } class C { } process P { } test { };") ==
        "proc f() {\n}\n\nclass C {\n}\n\nprocess P {\n}\n\ntest {};\n");
}

TEST_CASE("printer: an else never rebinds to an inner if of a hand-built tree") {
  // if (a) { if (b) skip; } else skip;  with the braces gone from the tree
  auto p = parseText("proc f() { if (a) { if (b) skip; } else skip; }");
  auto& outer = *p->procs[0]->body[0];
  ast::StmtPtr inner = std::move(outer.body[0]->body[0]);
  outer.body[0] = std::move(inner);
  std::string printed = printStmt(outer);
  auto again = parseText("proc f() {\n" + printed + "}\n");
  const auto& re = *again->procs[0]->body[0];
  CHECK(re.hasElse);
  CHECK_FALSE(re.body[0]->body[0]->hasElse);
}

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

TEST_CASE("printer: every conformance file survives print-reparse unchanged") {
  auto files = conformanceFiles();
  REQUIRE(files.size() >= 10);
  for (const auto& path : files) {
    CAPTURE(path.filename().string());
    std::string src = readFile(path);
    std::string once = canon(src);
    std::string twice = canon(once);
    CHECK(once == twice);
    // The annotations that matter downstream are kept.
    auto count = [](const std::string& s, const std::string& what) {
      size_t n = 0;
      for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
      return n;
    };
    std::string code;  // src without its `//` comments, which mention keywords too
    std::istringstream lines(src);
    for (std::string line; std::getline(lines, line);) code += line.substr(0, line.find("//"));
    for (const char* kw : {"predicate ", "partition(", "verified ", "assumed ", "@concrete",
                           "invariant ", "goto ", "test "})
      CHECK_MESSAGE(count(code, kw) == count(once, kw), kw);
    auto p = parseText(src);
    auto q = parseText(once);
    CHECK(p->order.size() == q->order.size());
  }
}

TEST_CASE("printer: labels survive the round trip") {
  std::string src =
      readFile(std::filesystem::path(TANDEM_SHARED_DIR) / "conformance" / "foo_null.tdm");
  std::string once = canon(src);
  for (const char* label : {"A: ", "B: ", "C: ", "D: ", "E: ", "F: ", "G: ", "H: "})
    CHECK_MESSAGE(once.find(label) != std::string::npos, label);
}

}  // namespace
}  // namespace tandem
