// Native plugins (include/tandem/native_plugin.h): loading tests/plugins/test_natives.c into a
// registry, every way a load is refused, and `--natives` through the command line.
#include <doctest/doctest.h>
#include <stdlib.h>

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
  CHECK(load.natives ==
        std::vector<std::string>{"triple", "is_even", "checked_sqrt", "choose", "wrong_kind"});
  CHECK(reg.names() ==
        std::vector<std::string>{"checked_sqrt", "choose", "is_even", "triple", "wrong_kind"});
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
          "built for native ABI version 999, this tandem implements version 1");
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

TEST_CASE("plugin: tandem run names a native no library implements") {
  TempDir dir;
  std::string model = dir.write("triple.tdm", kTripleModel).string();
  CliRun r = runCli({"run", model, "--entry", "f", "--args", "4"});
  CHECK(r.rc == 2);
  CHECK_MESSAGE(r.err.find("native 'triple' has no implementation") != std::string::npos, r.err);
}
