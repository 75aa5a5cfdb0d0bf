// resolveGlobalExpr: Tandem expressions (as the CLI's --invariant gives them) resolved against a
// lowered program, from a DVE model and from a Tandem file.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "mc/dve/import.h"
#include "mc/ir/frontend.h"
#include "mc/ir/ir_printer.h"
#include "mc/ir/resolve_expr.h"
#include "mc/lang/parser.h"

namespace tandem {
namespace {

struct Resolved {
  ExprRef expr = nullptr;
  std::vector<std::string> errors;  // "LINE:COL: message"
};

Resolved resolve(ir::Program& p, const std::string& text, bool condition = false) {
  SourceFile file("--invariant", text);
  Diagnostics d(&file);
  auto ast = parseExpression(file, d);
  Resolved r;
  if (ast)
    r.expr = condition ? resolveGlobalCondition(*ast, p, d, "the invariant")
                       : resolveGlobalExpr(*ast, p, d);
  for (const auto& e : d.errors())
    r.errors.push_back(std::to_string(e.loc.line) + ":" + std::to_string(e.loc.col) + ": " +
                       e.message);
  CHECK((r.expr == nullptr) == d.hasErrors());
  return r;
}

std::string errorOf(ir::Program& p, const std::string& text) {
  auto r = resolve(p, text);
  REQUIRE(r.errors.size() == 1);
  return r.errors[0];
}

std::unique_ptr<ir::Program> dveModel() {
  SourceFile file(
      "m.dve",
      "byte flag[2]; int turn;\n"
      "process P_0 { byte j; state NCS, CS; init NCS; trans NCS -> CS {}, CS -> NCS {}; }\n"
      "process P_1 { state NCS, wait, CS; init NCS; trans NCS -> CS {}; }\n"
      "system async;\n");
  Diagnostics d(&file);
  auto p = importDve(file, d);
  REQUIRE(p);
  return p;
}

std::unique_ptr<ir::Program> tandemModel() {
  SourceFile file("m.tdm",
                  "enum Mode { Idle, Busy }\n"
                  "var mode: Mode = Idle;\n"
                  "var flag: bool[2] = [false, false];\n"
                  "var turn: int = 0;\n"
                  "var small: i32 = 0;\n"
                  "process P[2] {\n"
                  "  var tries: int = 0;\n"
                  "  NCS: flag[pid] := true;\n"
                  "  W:   await !flag[1 - pid] || turn == pid;\n"
                  "  CS:  flag[pid] := false;\n"
                  "       goto NCS;\n"
                  "}\n"
                  "process Solo {\n"
                  "  A: turn := 0;\n"
                  "}\n");
  std::ostringstream err;
  auto p = loadProgram(file, {}, err);
  INFO(err.str());
  REQUIRE(p);
  return p;
}

TEST_CASE("resolve: invariants over an imported DVE model") {
  auto p = dveModel();
  auto r = resolve(*p, "!(P_0@CS && P_1@CS)", true);
  REQUIRE(r.expr);
  CHECK(r.expr->op == Op::Not);
  ExprRef both = r.expr->kid(0);
  REQUIRE(both->op == Op::And);
  ExprRef at = both->kid(1);
  REQUIRE(at->op == Op::AtLoc);
  CHECK(at->payload == 1);
  CHECK(at->kid(0)->value == BigInt(0));
  CHECK(p->locs[static_cast<size_t>(*at->value.toInt64())].labels[0] == "CS");
  CHECK(p->locs[static_cast<size_t>(*at->value.toInt64())].cfa == p->processes[1]);
  CHECK(ir::exprToString(*p, r.expr).find("CS") != std::string::npos);

  auto dveStyle = resolve(*p, "P_1.wait || P_0.j == 2");
  REQUIRE(dveStyle.expr);
  CHECK(dveStyle.expr->kid(0)->op == Op::AtLoc);
  ExprRef local = dveStyle.expr->kid(1)->kid(0);
  REQUIRE(local->op == Op::ProcLocal);
  CHECK(local->payload == 0);
  CHECK(p->vars[static_cast<size_t>(*local->value.toInt64())].name == "j");

  auto arith = resolve(*p, "flag[1] + turn * 2 >= min(abs(turn), 3) && len(flag) == 2");
  REQUIRE(arith.expr);
  CHECK(arith.expr->type == p->types->boolType());
  CHECK(arith.expr->kid(0)->kid(0)->kid(0)->op == Op::Select);

  CHECK(errorOf(*p, "foo > 1") == "1:1: unknown name 'foo'");
  CHECK(errorOf(*p, "Q@CS") == "1:1: unknown process 'Q'");
  CHECK(errorOf(*p, "P_0@wait") == "1:1: process 'P_0' has no label 'wait'");
  CHECK(errorOf(*p, "P_0.k") == "1:1: process 'P_0' has no variable 'k'");
  CHECK(errorOf(*p, "turn && P_0@CS") == "1:1: operand of '&&' must be 'bool', got 'int'");
  CHECK(errorOf(*p, "P_0@CS + 1") ==
        "1:8: operator '+' expects integer operands, got 'bool' and 'int'");
  CHECK(errorOf(*p, "turn == true") ==
        "1:6: operator '==' has mismatched operand types 'int' and 'bool'");
  CHECK(errorOf(*p, "P_0 == 1") == "1:1: process 'P_0' is not a value; use P_0@L or P_0.v");
  CHECK(errorOf(*p, "turn[0] == 1") == "1:1: cannot index a value of type 'int'");
  CHECK(errorOf(*p, "P_0[1]@CS") == "1:5: process index 1 is out of range for 'P_0' (1 instance)");
  CHECK(errorOf(*p, "old(turn) == 1") == "1:1: 'old' is not allowed here");
  CHECK(errorOf(*p, "min(turn) == 1") ==
        "1:1: wrong number of arguments to 'min': expected 2, got 1");
  CHECK(resolve(*p, "turn + 1", true).errors ==
        std::vector<std::string>{"1:6: the invariant must be 'bool', got 'int'"});
  auto two = resolve(*p, "x > 0 || P_9@CS");
  CHECK(two.errors.size() == 2);  // both operands are checked
}

TEST_CASE("resolve: expressions over a Tandem program") {
  auto p = tandemModel();
  auto r = resolve(*p, "!(P[0]@CS && P[1]@CS) && mode != Busy && P[1].tries >= 0 && Solo@A", true);
  REQUIRE(r.expr);
  auto enumRef = resolve(*p, "mode == Idle");
  REQUIRE(enumRef.expr);
  CHECK(enumRef.expr->kid(1)->op == Op::EnumConst);
  CHECK(enumRef.expr->kid(1)->payload == 0);
  auto idx = resolve(*p, "P[turn]@W");
  REQUIRE(idx.expr);
  CHECK(idx.expr->kid(0)->op == Op::Var);
  auto local = resolve(*p, "P[1].tries");
  REQUIRE(local.expr);
  CHECK(local.expr->op == Op::ProcLocal);
  CHECK(local.expr->payload == 0);
  CHECK(local.expr->kid(0)->value == BigInt(1));
  // An integer literal takes the bit-vector type of the other operand.
  auto bv = resolve(*p, "small + 1 < 10");
  REQUIRE(bv.expr);
  CHECK(bv.expr->kid(0)->type == p->types->i32Type());
  CHECK(bv.expr->kid(1)->type == p->types->i32Type());
  CHECK(resolve(*p, "i64(small) > 3000000000 ? flag[0] : flag[1]").expr);

  CHECK(errorOf(*p, "P@CS") == "1:1: process array 'P' needs an index: P[i]@CS");
  CHECK(errorOf(*p, "P[0]@Nowhere") == "1:1: process 'P' has no label 'Nowhere'");
  CHECK(errorOf(*p, "Q[0]@CS") == "1:1: unknown process 'Q'");
  CHECK(errorOf(*p, "P[2]@CS") == "1:3: process index 2 is out of range for 'P' (2 instances)");
  CHECK(errorOf(*p, "P[true]@CS") == "1:3: process index must be an integer, got 'bool'");
  CHECK(errorOf(*p, "mode < Busy") ==
        "1:6: operator '<' expects integer operands, got 'Mode' and 'Mode'");
  CHECK(errorOf(*p, "small + turn > 0") ==
        "1:7: operator '+' has mismatched operand types 'i32' and 'int'");
  CHECK(errorOf(*p, "small == 5000000000") == "1:10: integer literal out of range for 'i32'");
  CHECK(errorOf(*p, "flag[0] ? 1 : true") ==
        "1:9: the branches of '?:' have mismatched types 'int' and 'bool'");
  CHECK(errorOf(*p, "pid == 0") == "1:1: 'pid' has no value outside a process");
  CHECK(errorOf(*p, "tries > 0") == "1:1: unknown name 'tries'");
}

}  // namespace
}  // namespace tandem
