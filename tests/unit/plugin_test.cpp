// Native plugins (include/tandem/native_plugin.h): loading tests/plugins/test_natives.c into a
// registry, every way a load is refused, and `--natives` through the command line.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mc/cli/cli.h"
#include "mc/exec/evaluator.h"
#include "mc/exec/plugin_loader.h"
#include "mc/exec/program_builder.h"
#include "tests/unit/cli_run.h"

using namespace tandem;
using namespace tandem::exec;
namespace fs = std::filesystem;

namespace {

using test::TempDir;

std::optional<Value> call(const NativeRegistry& r, const char* name, std::vector<Value> args) {
  const NativeFunction* f = r.find(name);
  REQUIRE(f != nullptr);
  return f->impl(args);
}

Value num(int64_t v) { return Value::integer(BigInt(v)); }

struct CliRun {
  int rc = -1;
  std::string out, err;
};

CliRun runCli(std::vector<std::string> args) {
  args.insert(args.begin(), "tandem");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  CliRun r;
  r.rc = tandem::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

const char* kTripleModel =
    "native triple(x: int): int;\n"
    "proc f(x: int) {\n"
    "  var y: int = triple(x);\n"
    "  assert y == 12;\n"
    "}\n";

}  // namespace

TEST_CASE("plugin: the test plugin's natives join the registry") {
  NativeRegistry reg{NativeRegistry::Empty{}};
  PluginLoad load = loadPlugin(TANDEM_TEST_PLUGIN, reg);
  REQUIRE_MESSAGE(load.ok(), load.error);
  CHECK(load.error.empty());
  CHECK(load.natives == std::vector<std::string>{"triple", "is_even", "checked_sqrt", "choose",
                                                 "wrong_kind", "j0", "scale", "sign_bit"});
  CHECK(reg.names() == std::vector<std::string>{"checked_sqrt", "choose", "is_even", "j0", "scale",
                                                "sign_bit", "triple", "wrong_kind"});
  CHECK(load.library->path() == TANDEM_TEST_PLUGIN);

  const NativeFunction* choose = reg.find("choose");
  REQUIRE(choose != nullptr);
  CHECK(choose->signature.params ==
        std::vector<TypeKind>{TypeKind::Bool, TypeKind::Int, TypeKind::Int});
  CHECK(choose->signature.result == TypeKind::Int);
  CHECK(reg.find("is_even")->signature.result == TypeKind::Bool);

  CHECK(call(reg, "triple", {num(4)}) == num(12));
  CHECK(call(reg, "triple", {num(-7)}) == num(-21));
  CHECK(call(reg, "is_even", {num(3)}) == Value::boolean(false));
  CHECK(call(reg, "is_even", {num(-4)}) == Value::boolean(true));
  CHECK(call(reg, "checked_sqrt", {num(17)}) == num(4));
  CHECK(call(reg, "checked_sqrt", {num(INT64_MAX)}) == num(3037000499));
  CHECK(call(reg, "choose", {Value::boolean(true), num(1), num(2)}) == num(1));
  CHECK(call(reg, "choose", {Value::boolean(false), num(1), num(2)}) == num(2));
  // A bit-vector argument passes as its value.
  CHECK(call(reg, "triple", {Value::i32(-5)}) == num(-15));
}

TEST_CASE("plugin: f64 parameters and results (TANDEM_F64)") {
  NativeRegistry reg{NativeRegistry::Empty{}};
  REQUIRE(loadPlugin(TANDEM_TEST_PLUGIN, reg).ok());
  const NativeFunction* j0 = reg.find("j0");
  REQUIRE(j0 != nullptr);
  CHECK(j0->signature.params == std::vector<TypeKind>{TypeKind::F64});
  CHECK(j0->signature.result == TypeKind::F64);
  CHECK(reg.find("scale")->signature.params == std::vector<TypeKind>{TypeKind::F64, TypeKind::Int});
  CHECK(reg.find("sign_bit")->signature.result == TypeKind::Bool);

  CHECK(call(reg, "j0", {Value::f64(0.0)}) == Value::f64(1.0));
  std::optional<Value> one = call(reg, "j0", {Value::f64(1.0)});
  REQUIRE(one);
  REQUIRE(one->kind() == ValueKind::F64);
  CHECK(std::abs(one->asF64() - 0.7651976865579666) < 1e-15);  // J0(1)
  // J0's first root.
  std::optional<Value> zero = call(reg, "j0", {Value::f64(2.404825557695773)});
  REQUIRE(zero);
  CHECK(std::abs(zero->asF64()) < 1e-14);
  CHECK(call(reg, "scale", {Value::f64(2.5), num(3)}) == Value::f64(7.5));
  // Values pass bit for bit: -0.0 keeps its sign, and a NaN result is a value.
  CHECK(call(reg, "sign_bit", {Value::f64(-0.0)}) == Value::boolean(true));
  CHECK(call(reg, "sign_bit", {Value::f64(0.0)}) == Value::boolean(false));
  CHECK(call(reg, "scale", {Value::f64(-0.0), num(1)}) == Value::f64(-0.0));
  std::optional<Value> nan = call(reg, "scale", {Value::f64(INFINITY), num(0)});
  REQUIRE(nan);
  CHECK(std::isnan(nan->asF64()));

  CHECK_FALSE(call(reg, "j0", {Value::f64(NAN)}));   // the plugin says undefined
  CHECK_FALSE(call(reg, "j0", {Value::f64(25.0)}));  // outside its range
  // Kinds never convert: an integer is no f64 argument and an f64 no integer one.
  CHECK_FALSE(call(reg, "j0", {num(1)}));
  CHECK_FALSE(call(reg, "j0", {Value::i64(1)}));
  CHECK_FALSE(call(reg, "triple", {Value::f64(1.0)}));
  CHECK_FALSE(call(reg, "scale", {Value::f64(1.0), Value::f64(2.0)}));
}

TEST_CASE("plugin: undefined calls give nullopt") {
  NativeRegistry reg{NativeRegistry::Empty{}};
  REQUIRE(loadPlugin(TANDEM_TEST_PLUGIN, reg).ok());
  CHECK_FALSE(call(reg, "checked_sqrt", {num(-1)}));   // the plugin says undefined
  CHECK_FALSE(call(reg, "triple", {num(INT64_MAX)}));  // 3x overflows: the plugin refuses
  // An argument outside int64 never reaches the plugin.
  CHECK_FALSE(call(reg, "triple", {Value::integer(*BigInt::parse("9223372036854775808"))}));
  CHECK_FALSE(call(reg, "wrong_kind", {num(1)}));            // the result came back as a bool
  CHECK_FALSE(call(reg, "triple", {}));                      // wrong arity
  CHECK_FALSE(call(reg, "triple", {Value::boolean(true)}));  // wrong kind
  CHECK_FALSE(call(reg, "choose", {num(1), num(1), num(2)}));
}

TEST_CASE("plugin: registry entries keep the library loaded") {
  NativeRegistry reg;  // with the built-ins
  std::weak_ptr<const PluginLibrary> weak;
  {
    PluginLoad load = loadPlugin(TANDEM_TEST_PLUGIN, reg);
    REQUIRE(load.ok());
    weak = load.library;
    CHECK(load.library->symbol("tandem_register_natives") != nullptr);
  }
  CHECK_FALSE(weak.expired());
  CHECK(call(reg, "triple", {num(5)}) == num(15));  // code still mapped
  CHECK(reg.find("isqrt") != nullptr);              // built-ins stay
  NativeImpl copy = reg.find("triple")->impl;
  reg = NativeRegistry{NativeRegistry::Empty{}};
  CHECK_FALSE(weak.expired());  // the copy holds it
  CHECK(copy(std::vector<Value>{num(2)}) == num(6));
  copy = nullptr;
  CHECK(weak.expired());  // unloaded with its last entry
}

TEST_CASE("plugin: loading the same plugin twice is harmless") {
  NativeRegistry reg;
  REQUIRE(loadPlugin(TANDEM_TEST_PLUGIN, reg).ok());
  REQUIRE(loadPlugin(TANDEM_TEST_PLUGIN, reg).ok());  // the same library twice: harmless
  CHECK(call(reg, "triple", {num(3)}) == num(9));
}

TEST_CASE("plugin: refused loads say why and leave the registry unchanged") {
  TempDir dir;
  NativeRegistry reg;
  const std::vector<std::string> before = reg.names();
  auto refused = [&](const std::string& path, const std::string& why) {
    PluginLoad load = loadPlugin(path, reg);
    CHECK_FALSE(load.ok());
    CHECK(load.natives.empty());
    CHECK(load.error.find("cannot load native plugin '" + path + "'") == 0);
    CHECK_MESSAGE(load.error.find(why) != std::string::npos, load.error);
    CHECK(reg.names() == before);
  };
  refused((dir.path() / "missing.so").string(), "no such file");
  refused(dir.path().string(), "it is a directory");
  refused(dir.write("text.so", "not a library\n").string(), "not a loadable shared library");
  refused(TANDEM_TEST_PLUGIN_BROKEN, "does not export tandem_register_natives");
  refused(TANDEM_TEST_PLUGIN_WRONG_ABI,
          "built for native ABI version 999, this tandem implements version 2");
  // A plugin built before TANDEM_F64 (version 1) is refused too: rebuilding it is enough.
  refused(TANDEM_TEST_PLUGIN_ABI_V1,
          "built for native ABI version 1, this tandem implements version 2: rebuild it");
  refused(TANDEM_TEST_PLUGIN_BAD_KIND,
          "registration failed: native 'bad_kind': parameter 2 has unknown kind 42");
  refused(TANDEM_TEST_PLUGIN_FAILING, "registration failed: the test plugin refuses to register");
}

TEST_CASE("plugin: the evaluator reports an undefined plugin call as a limit") {
  ProgramBuilder b;
  TypeRef intT = b.types().intType();
  ir::CfaId f = b.cfa("f");
  uint32_t sqrtFn = b.nativeCallee("checked_sqrt", {intT}, intT);
  NativeRegistry reg;
  REQUIRE(loadPlugin(TANDEM_TEST_PLUGIN, reg).ok());
  CHECK(reg.checkBindings(b.program()).empty());
  Evaluator ev(b.program(), reg);
  ScriptedChooser none;
  auto s = ev.makeEntryState(f, {}, none);
  REQUIRE(s.ok());
  auto ok = ev.eval(b.callExpr(sqrtFn, {b.num(49)}), s.value(), 0);
  REQUIRE(ok.ok());
  CHECK(ok.value() == num(7));
  auto r = ev.eval(b.callExpr(sqrtFn, {b.num(-1)}), s.value(), 0);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().limit);
  CHECK(r.error().message == "native call checked_sqrt(-1) is undefined");
}

// `--natives LIB.so` end to end through `tandem run`.
TEST_CASE("plugin: tandem run --natives calls the plugin") {
  TempDir dir;
  std::string model = dir.write("triple.tdm", kTripleModel).string();
  CliRun ok =
      runCli({"run", model, "--entry", "f", "--args", "4", "--natives", TANDEM_TEST_PLUGIN});
  INFO(ok.err);
  CHECK(ok.rc == 0);
  CliRun bad =
      runCli({"run", model, "--entry", "f", "--args", "5", "--natives", TANDEM_TEST_PLUGIN});
  CHECK(bad.rc == 1);  // triple(5) = 15: the assert fails
  CliRun missing = runCli({"run", model, "--entry", "f", "--args", "4", "--natives",
                           (dir.path() / "nope.so").string()});
  CHECK(missing.rc == 2);
  CHECK(missing.err.find("tandem: error: cannot load native plugin") != std::string::npos);
}

TEST_CASE("plugin: tandem run calls an f64 plugin native") {
  TempDir dir;
  std::string model = dir.write("j0.tdm",
                                "native j0(x: f64): f64;\n"
                                "proc f(x: f64) {\n"
                                "  var y: f64 = j0(x);\n"
                                "  assert fabs(y - 0.7651976865579666) < 1.0e-15;\n"
                                "}\n")
                          .string();
  auto run = [&](const std::string& arg) {
    return runCli({"run", model, "--entry", "f", "--args", arg, "--natives", TANDEM_TEST_PLUGIN});
  };
  CliRun ok = run("1.0");
  INFO(ok.err);
  CHECK(ok.rc == 0);
  CHECK(run("0.0").rc == 1);  // j0(0) = 1: the assert fails
  CliRun undefined = run("30.0");
  CHECK(undefined.rc == 4);  // unknown: an undefined native call is a limit, not an error
  const std::string said = undefined.out + undefined.err;
  CHECK_MESSAGE(said.find("native call j0(30.0) is undefined") != std::string::npos, said);
}

TEST_CASE("plugin: a native bound to a plugin native of another kind stops the command") {
  TempDir dir;
  auto refused = [&](const std::string& decl, const std::string& use, const std::string& arg,
                     const std::string& why) {
    std::string model =
        dir.write("kinds.tdm", decl + "\nproc f(x: " + use + ") {\n  skip;\n}\n").string();
    CliRun r =
        runCli({"run", model, "--entry", "f", "--args", arg, "--natives", TANDEM_TEST_PLUGIN});
    CHECK(r.rc == 2);
    CHECK_MESSAGE(r.err.find(why) != std::string::npos, r.err);
  };
  // An int declaration is not served by an f64 implementation, nor the other way round.
  refused("native j0(x: int): int;", "int", "1",
          "native 'j0' is declared (int): int but its implementation is (f64): f64");
  refused("native triple(x: f64): f64;", "f64", "1.0",
          "native 'triple' is declared (f64): f64 but its implementation is (int): int");
  refused("native j0(x: f64): int;", "f64", "1.0",
          "native 'j0' is declared (f64): int but its implementation is (f64): f64");
  refused("native scale(x: f64, n: f64): f64;", "f64", "1.0",
          "native 'scale' is declared (f64, f64): f64 but its implementation is (f64, int): f64");
}

TEST_CASE("plugin: tandem run names a native no library implements") {
  TempDir dir;
  std::string model = dir.write("triple.tdm", kTripleModel).string();
  CliRun r = runCli({"run", model, "--entry", "f", "--args", "4"});
  CHECK(r.rc == 2);
  CHECK_MESSAGE(r.err.find("native 'triple' has no implementation") != std::string::npos, r.err);
}
