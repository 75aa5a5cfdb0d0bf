// The f64 type (issue #19, concrete slice): literals, type errors, IEEE evaluation against the
// host's doubles, conversions and their error kind, printing that round-trips, the libm natives,
// states compared by bits, and the clear refusal of the symbolic engines.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/exec/program_builder.h"
#include "mc/expr/float64.h"
#include "mc/lang/checker.h"
#include "mc/lang/lexer.h"
#include "mc/lang/parser.h"
#include "tests/unit/cli_run.h"

namespace tandem {
namespace {

using exec::Value;
using test::runTandem;
using test::TempDir;

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

uint64_t bits(double d) { return std::bit_cast<uint64_t>(d); }

std::vector<Token> lexOk(const std::string& text) {
  SourceFile file("t.tdm", text);
  Diagnostics diags(&file);
  auto toks = lex(file, diags);
  REQUIRE_FALSE(diags.hasErrors());
  return toks;
}

// The first error of checking `text`, as "LINE:COL: message", or "" when it checks.
std::string checkError(const std::string& text) {
  SourceFile file("t.tdm", text);
  Diagnostics diags(&file);
  auto prog = parseProgram(file, diags);
  if (!diags.hasErrors()) {
    TypeTable types;
    checkProgram(*prog, types, diags);
  }
  if (diags.errors().empty()) return "";
  const auto& d = diags.errors().front();
  return std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message;
}

// Evaluates expressions over constants with the concrete evaluator (what run and check use).
struct Env {
  exec::ProgramBuilder b;
  exec::NativeRegistry natives;
  ir::CfaId f = b.cfa("f");
  ExprRef c(double d) { return b.exprs().floatConst(d); }
  exec::Result<Value> eval(ExprRef e) {
    exec::Evaluator ev(b.program(), natives);
    exec::ScriptedChooser none;
    auto s = ev.makeEntryState(f, {}, none);
    REQUIRE(s.ok());
    return ev.eval(e, s.value(), 0);
  }
  Value value(ExprRef e) {
    auto r = eval(e);
    if (!r) FAIL("unexpected error: " << r.error().message);
    return r.value();
  }
};

const std::vector<double> kSpecials = {
    0.0,    -0.0, 1.0,   -1.0,   0.1,      0.2,       0.3,
    1.5,    3.0,  1e308, -1e308, 4.9e-324, -4.9e-324, 2.2250738585072014e-308,
    1e-300, kInf, -kInf, kNaN};

TEST_CASE("f64: lexing literals (1.5, 2.0e-3, 1e9, 1E+2) and what stays an integer") {
  auto toks = lexOk("1.5 2.0e-3 1e9 1E+2 7 a[1].f 3e x");
  std::vector<Tok> kinds;
  for (const auto& t : toks) kinds.push_back(t.kind);
  const std::vector<Tok> want = {Tok::FloatLit, Tok::FloatLit, Tok::FloatLit, Tok::FloatLit,
                                 Tok::IntLit,   Tok::Ident,    Tok::LBracket, Tok::IntLit,
                                 Tok::RBracket, Tok::Dot,      Tok::Ident,    Tok::IntLit,
                                 Tok::Ident,    Tok::Ident,    Tok::End};
  CHECK(kinds == want);
  CHECK(toks[1].text == "2.0e-3");
  CHECK(toks[2].text == "1e9");
  CHECK(toks[12].text == "e");  // `3e` is the integer 3 then the name e
}

TEST_CASE("f64: parsing literals is exact (round to nearest even), out of range is inf") {
  CHECK(bits(*f64::parse("0.1")) == bits(0.1));
  CHECK(bits(*f64::parse("2.0e-3")) == bits(2.0e-3));
  CHECK(*f64::parse("1e9") == 1e9);
  CHECK(bits(*f64::parse("4.9e-324")) == 1);  // the smallest subnormal
  CHECK(*f64::parse("1e400") == kInf);
  // 2^53 + 1 lies halfway between 2^53 and 2^53 + 2: ties go to the even 2^53.
  CHECK(*f64::parse("9007199254740993") == 9007199254740992.0);
  CHECK_FALSE(f64::parse("1.5x"));
}

TEST_CASE("f64: printing is the shortest form and round-trips bitwise for random doubles") {
  CHECK(f64::format(0.1) == "0.1");
  CHECK(f64::format(0.1 + 0.2) == "0.30000000000000004");
  CHECK(f64::format(3.0) == "3.0");
  CHECK(f64::format(-0.0) == "-0.0");
  CHECK(f64::format(1e300) == "1e+300");
  CHECK(f64::format(4.9e-324) == "5e-324");
  CHECK(f64::format(kNaN) == "nan");
  CHECK(f64::format(-kInf) == "-inf");
  std::mt19937_64 rng(19);
  int checked = 0;
  for (int i = 0; i < 200000; ++i) {
    const double d = std::bit_cast<double>(rng());
    if (!std::isfinite(d)) continue;
    auto back = f64::parse(f64::format(d));
    REQUIRE(back);
    if (bits(*back) != bits(d)) FAIL("round trip of " << f64::format(d));
    ++checked;
  }
  CHECK(checked > 190000);
}

TEST_CASE("f64: evaluation agrees with the host's doubles on NaN, infinities, -0.0, subnormals") {
  Env env;
  const std::vector<std::pair<Op, double (*)(double, double)>> arith = {
      {Op::Add, [](double a, double b) { return a + b; }},
      {Op::Sub, [](double a, double b) { return a - b; }},
      {Op::Mul, [](double a, double b) { return a * b; }},
      {Op::Div, [](double a, double b) { return a / b; }}};
  const std::vector<std::pair<Op, bool (*)(double, double)>> cmp = {
      {Op::Eq, [](double a, double b) { return a == b; }},
      {Op::Ne, [](double a, double b) { return a != b; }},
      {Op::Lt, [](double a, double b) { return a < b; }},
      {Op::Le, [](double a, double b) { return a <= b; }},
      {Op::Gt, [](double a, double b) { return a > b; }},
      {Op::Ge, [](double a, double b) { return a >= b; }}};
  for (double x : kSpecials)
    for (double y : kSpecials) {
      for (auto [op, host] : arith) {
        Value v = env.value(env.b.op(op, {env.c(x), env.c(y)}));
        REQUIRE(v.kind() == exec::ValueKind::F64);
        const double want = host(x, y);
        // Every NaN a host operation makes is a NaN; its payload is the host's business.
        if (std::isnan(want))
          CHECK(std::isnan(v.asF64()));
        else if (bits(v.asF64()) != bits(want))
          FAIL(f64::format(x) << " " << opName(op) << " " << f64::format(y) << " = "
                              << f64::format(v.asF64()) << ", host " << f64::format(want));
      }
      for (auto [op, host] : cmp)
        CHECK_MESSAGE(env.value(env.b.op(op, {env.c(x), env.c(y)})).asBool() == host(x, y),
                      f64::format(x) << " " << opName(op) << " " << f64::format(y));
    }
  // The classic: 0.1 + 0.2 is not 0.3, and NaN is not equal to itself.
  CHECK_FALSE(env.value(env.b.op(Op::Eq, {env.b.op(Op::Add, {env.c(0.1), env.c(0.2)}), env.c(0.3)}))
                  .asBool());
  CHECK_FALSE(env.value(env.b.op(Op::Eq, {env.c(kNaN), env.c(kNaN)})).asBool());
  CHECK(env.value(env.b.op(Op::Ne, {env.c(kNaN), env.c(kNaN)})).asBool());
  // Division by zero is IEEE, not the div-by-zero error.
  CHECK(env.value(env.b.op(Op::Div, {env.c(1.0), env.c(-0.0)})).asF64() == -kInf);
  CHECK(bits(env.value(env.b.op(Op::Neg, {env.c(0.0)})).asF64()) == bits(-0.0));
}

TEST_CASE("f64: int(x) truncates toward zero; NaN and out of range are float-conversion") {
  Env env;
  TypeRef intT = env.b.types().intType();
  auto toInt = [&](double d) { return env.b.exprs().mk(Op::Cast, intT, {env.c(d)}); };
  CHECK(env.value(toInt(-2.7)).asInt() == BigInt(-2));
  CHECK(env.value(toInt(2.7)).asInt() == BigInt(2));
  CHECK(env.value(toInt(-0x1p63)).asInt() == BigInt(INT64_MIN));
  for (double bad : {kNaN, 1e300, kInf, -kInf, 0x1p63}) {
    auto r = env.eval(toInt(bad));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == ir::ErrorKind::FloatConversion);
    CHECK_FALSE(r.error().limit);
  }
  TypeRef f64T = env.b.types().f64Type();
  auto toF64 = [&](const BigInt& n) {
    return env.value(env.b.exprs().mk(Op::Cast, f64T, {env.b.exprs().intConst(n)})).asF64();
  };
  CHECK(toF64(*BigInt::parse("9007199254740993")) == 9007199254740992.0);  // ties to even
  CHECK(toF64(*BigInt::parse("9007199254740995")) == 9007199254740996.0);
  CHECK(toF64(*BigInt::parse("1" + std::string(400, '0'))) == kInf);
  CHECK(toF64(-*BigInt::parse("1" + std::string(30, '0'))) == -1e30);
}

TEST_CASE("f64: each native agrees with libm") {
  exec::NativeRegistry reg;
  auto call = [&](const char* name, std::vector<double> xs) {
    const exec::NativeFunction* f = reg.find(name);
    REQUIRE(f);
    std::vector<Value> args;
    for (double x : xs) args.push_back(Value::f64(x));
    auto r = f->impl(args);
    REQUIRE(r);
    return bits(r->asF64());
  };
  for (double x : {0.5, 2.0, -3.25, 100.0, 1e-10}) {
    CHECK(call("sqrt", {x}) == bits(std::sqrt(x)));
    CHECK(call("sin", {x}) == bits(std::sin(x)));
    CHECK(call("cos", {x}) == bits(std::cos(x)));
    CHECK(call("tan", {x}) == bits(std::tan(x)));
    CHECK(call("atan", {x}) == bits(std::atan(x)));
    CHECK(call("atan2", {x, 1.5}) == bits(std::atan2(x, 1.5)));
    CHECK(call("exp", {x}) == bits(std::exp(x)));
    CHECK(call("log", {std::fabs(x)}) == bits(std::log(std::fabs(x))));
    CHECK(call("pow", {x, 3.0}) == bits(std::pow(x, 3.0)));
    CHECK(call("floor", {x}) == bits(std::floor(x)));
    CHECK(call("ceil", {x}) == bits(std::ceil(x)));
    CHECK(call("fabs", {x}) == bits(std::fabs(x)));
  }
  CHECK(std::isnan(std::bit_cast<double>(call("sqrt", {-1.0}))));
}

TEST_CASE("f64: type errors: mixing with int, % on f64, f64 index and length") {
  CHECK(checkError("proc f(x: f64, n: int): f64 { return x + n; }") ==
        "1:40: operator '+' mixes 'f64' and 'int': convert with f64(e) or int(e)");
  CHECK(checkError("proc f(x: f64): bool { return x < 1; }").find("mixes 'f64' and 'int'") !=
        std::string::npos);
  CHECK(checkError("proc f(x: f64): f64 { return x % 2.0; }").find("'%' is not defined on f64") !=
        std::string::npos);
  CHECK(checkError("proc f(x: f64) { var a: int[3]; a[x] := 1; }") != "");
  CHECK(checkError("proc f(x: f64) { var a: int[] = new int[x]; }") != "");
  CHECK(checkError("proc f() { var y: f64 = 1; }") != "");  // no implicit int -> f64
  CHECK(checkError("proc f(x: f64): int { return int(x) + int(f64(3) * 2.5e0); }") == "");
  CHECK(checkError("proc f(x: f64): f64 { return -sqrt(fabs(x)) + atan2(x, 1.0); }") == "");
  CHECK(checkError("proc f(x: f64): f64 { return sqrt(x, x); }").find("wrong number") !=
        std::string::npos);
  CHECK(checkError("proc f(n: int): f64 { return sqrt(n); }") != "");
  CHECK(checkError("proc f(a: f64[1], b: f64[1]): bool { return a == b; }")
            .find("on arrays of f64 is not defined") != std::string::npos);
  CHECK(checkError("const D: f64 = 1.0 / 3.0;\nproc f() { }").find("must be a literal") !=
        std::string::npos);
  CHECK(checkError("const D: f64 = -2.5e-1;\nproc f(): f64 { return D * 2.0; }") == "");
}

const char* kExact = R"(proc exact() {
  var a: f64 = 0.1;
  var b: f64 = 0.2;
  assert a + b == 0.3;
}
proc conv() {
  var x: f64 = 1e300;
  var n: int = int(x);
}
const NEG: f64 = -0.5;
proc math() {
  var r: f64 = sqrt(2.0) * sqrt(2.0) + NEG * 0.0;
  var q: f64 = 1.0 / -0.0;
  assert r != 2.0 && q < 0.0 && NEG == -0.5;
}
)";

TEST_CASE("f64: run and check of an entry without inputs") {
  TempDir dir;
  const std::string file = dir.write("exact.tdm", kExact).string();
  auto run = runTandem({"run", file, "--entry", "exact", "--json"});
  CHECK(run.rc == 1);
  auto check = runTandem({"check", file, "--entry", "exact", "--json"});
  CHECK(check.report["verdict"] == "error");
  CHECK(check.report["error"]["kind"] == "assert");
  auto conv = runTandem({"check", file, "--entry", "conv", "--json"});
  CHECK(conv.report["verdict"] == "error");
  CHECK(conv.report["error"]["kind"] == "float-conversion");
  auto math = runTandem({"check", file, "--entry", "math", "--json"});
  CHECK(math.report["verdict"] == "verified");
}

// -x flips the sign bit: 0.0 and -0.0 are two states (by bits), though 0.0 == -0.0 holds. y
// becomes NaN once: a NaN state equals itself in the store, so the search ends.
const char* kClosed = R"(var x: f64 = 0.0;
var y: f64 = 1.0;
rule flip: true -> x := -x;
rule spoil: y == 1.0 -> y := (y - y) / (y - y);
invariant zero: x == 0.0 && (y == 1.0 || y != y);
)";

TEST_CASE("f64: check explores a closed model with f64 state, states compared by bits") {
  TempDir dir;
  const std::string file = dir.write("closed.tdm", kClosed).string();
  auto r = runTandem({"check", file, "--json"});
  CAPTURE(r.out);
  CAPTURE(r.err);
  CHECK(r.rc == 0);
  CHECK(r.report["verdict"] == "verified");
  CHECK(r.report["stats"]["states"] == 4);  // {0.0, -0.0} x {1.0, NaN}
}

// An f64 only in a local, with an int input: prove once took x's default 0.0 for its initial
// value and reported a false error. Every solver-based engine refuses at the first f64.
const char* kSymbolic = R"(proc g(n: int) {
  var x: f64 = 0.5;
  if (n > 3) { x := x * 2.0; }
  assert n > 0 || x > 0.0;
}
)";

// An f64 input of a closed system cannot be enumerated: the search says so, with one worker or
// two (the parallel search once dropped the initial states' reason and answered verified).
TEST_CASE("f64: check of a closed model with an unconstrained f64 input is unknown") {
  TempDir dir;
  const std::string file =
      dir.write("input.tdm", "var x: f64;\nvar n: int = 0;\nrule r: n < 2 -> n := n + 1;\n")
          .string();
  for (const char* threads : {"1", "2"}) {
    auto r = runTandem({"check", file, "--json", "--threads", threads});
    CAPTURE(threads);
    CHECK(r.report["verdict"] == "unknown");
    CHECK(r.report["reason"].get<std::string>().find("unbounded type") != std::string::npos);
  }
}

TEST_CASE("f64: symbolic check and testgen handle f64; the other solver-based engines refuse it") {
  TempDir dir;
  const std::string file = dir.write("sym.tdm", kSymbolic).string();
  const std::string where = file + ":2:3: error: f64 is not supported by ";
  const std::vector<std::pair<std::vector<std::string>, std::string>> commands = {
      {{"testgen", file, "--entry", "g", "--dse"}, "dynamic symbolic execution"},
      {{"prove", file, "--entry", "g"}, "prove"},
      {{"cover", file, "--entry", "g"}, "cover"},
      {{"export-chc", file, "--entry", "g"}, "export-chc"}};
  for (const auto& [c, what] : commands) {
    auto r = runTandem(c);
    CAPTURE(c);
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.rc == 2);
    CHECK(r.err.rfind(where + what, 0) == 0);
  }
  // Symbolic execution: both paths, over Float64 (the error needs n <= 0 and x > 0 false: never).
  for (const char* solver : {"z3", "cvc5"}) {
    CAPTURE(solver);
    auto check = runTandem({"check", file, "--entry", "g", "--json", "--solver", solver});
    CHECK(check.rc == 0);
    CHECK(check.report["verdict"] == "verified");
    auto tests = runTandem({"testgen", file, "--entry", "g", "--json", "--solver", solver});
    CHECK(tests.rc == 0);
    CHECK(tests.report["tests"].size() == 2);
  }
  // The concrete run is not refused: --args reads f64 values.
  auto run = runTandem({"run", file, "--entry", "g", "--args", "5"});
  CHECK(run.rc == 0);
}

TEST_CASE("f64: run --args reads f64 literals, integers, nan and inf") {
  TempDir dir;
  const std::string file =
      dir.write("args.tdm", "proc h(x: f64) {\n  assert x + 0.1 != 0.3;\n}\n").string();
  CHECK(runTandem({"run", file, "--entry", "h", "--args", "0.2"}).rc == 0);
  CHECK(runTandem({"run", file, "--entry", "h", "--args", "0.19999999999999998"}).rc == 1);
  CHECK(runTandem({"run", file, "--entry", "h", "--args", "nan"}).rc == 0);
  CHECK(runTandem({"run", file, "--entry", "h", "--args", "-inf"}).rc == 0);
  CHECK(runTandem({"run", file, "--entry", "h", "--args", "2"}).rc == 0);
  CHECK(runTandem({"run", file, "--entry", "h", "--args", "0.2x"}).rc == 2);
}

}  // namespace
}  // namespace tandem
