#include "mc/exec/plugin_loader.h"

#include <dlfcn.h>

#include <array>
#include <cctype>
#include <filesystem>
#include <optional>
#include <set>
#include <span>

#include "include/tandem/native_plugin.h"

namespace tandem::exec {

namespace {

namespace fs = std::filesystem;

// Version 2 added TANDEM_F64 without changing the value layout a version-1 plugin knows.
static_assert(sizeof(tandem_value{}.as) == sizeof(int64_t) && alignof(double) <= alignof(int64_t));

// What a plugin asked for during tandem_register_natives; committed only if all of it is valid.
struct Pending {
  std::string name;
  std::vector<tandem_kind> params;
  tandem_kind result;
  tandem_native_fn fn;
};

struct Registration {
  std::vector<Pending> entries;
  std::set<std::string> names;
  std::vector<std::string> errors;
};

std::optional<TypeKind> kindOf(tandem_kind k) {
  if (k == TANDEM_INT64) return TypeKind::Int;
  if (k == TANDEM_BOOL) return TypeKind::Bool;
  if (k == TANDEM_F64) return TypeKind::F64;
  return std::nullopt;
}

bool isIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// Why an add_native call is refused, or empty.
std::string checkEntry(const Registration& reg, const char* name, const tandem_kind* params,
                       size_t nparams, tandem_kind result, tandem_native_fn fn) {
  if (!name) return "add_native with a null name";
  std::string n = name;
  std::string what = "native '" + n + "': ";
  if (!isIdentifier(n)) return what + "the name is not an identifier";
  if (reg.names.count(n)) return what + "registered twice";
  if (!fn) return what + "null function pointer";
  if (nparams > 0 && !params) return what + "null parameter kinds";
  for (size_t i = 0; i < nparams; ++i)
    if (!kindOf(params[i]))
      return what + "parameter " + std::to_string(i + 1) + " has unknown kind " +
             std::to_string(params[i]);
  if (!kindOf(result)) return what + "unknown result kind " + std::to_string(result);
  return "";
}

// Called by the plugin through the registrar: nothing may throw back into its (C) frames.
extern "C" int hostAddNative(const tandem_registrar* r, const char* name, const tandem_kind* params,
                             size_t nparams, tandem_kind result, tandem_native_fn fn) {
  auto& reg = *static_cast<Registration*>(r->host);
  try {
    std::string problem = checkEntry(reg, name, params, nparams, result, fn);
    if (!problem.empty()) {
      reg.errors.push_back(std::move(problem));
      return 1;
    }
    reg.entries.push_back(
        Pending{name, std::vector<tandem_kind>(params, params + nparams), result, fn});
    reg.names.insert(name);
    return 0;
  } catch (...) {
    return 1;
  }
}

extern "C" void hostReportError(const tandem_registrar* r, const char* message) {
  auto& reg = *static_cast<Registration*>(r->host);
  try {
    reg.errors.push_back(message ? message : "(null message)");
  } catch (...) {
  }
}

bool toC(const Value& v, tandem_kind k, tandem_value& out) {
  out.kind = k;
  if (k == TANDEM_BOOL) {
    if (v.kind() != ValueKind::Bool) return false;
    out.as.b = v.asBool() ? 1 : 0;
    return true;
  }
  if (k == TANDEM_F64) {  // only an f64: an integer never converts to a float here
    if (v.kind() != ValueKind::F64) return false;
    out.as.f64 = v.asF64();
    return true;
  }
  if (!v.isIntegral()) return false;
  std::optional<int64_t> i = v.toBigInt().toInt64();
  if (!i) return false;  // outside int64: undefined, as documented in the header
  out.as.i64 = *i;
  return true;
}

// Wraps a plugin function as a NativeImpl that keeps the library loaded.
NativeImpl adapt(std::shared_ptr<const PluginLibrary> lib, Pending p) {
  return [lib = std::move(lib),
          p = std::move(p)](std::span<const Value> args) -> std::optional<Value> {
    if (args.size() != p.params.size()) return std::nullopt;
    std::array<tandem_value, 8> small{};  // no allocation for the common arities
    std::vector<tandem_value> large(args.size() > small.size() ? args.size() : 0);
    tandem_value* in = large.empty() ? small.data() : large.data();
    for (size_t i = 0; i < args.size(); ++i)
      if (!toC(args[i], p.params[i], in[i])) return std::nullopt;
    tandem_value out{};
    out.kind = p.result;
    if (p.fn(in, args.size(), &out) != 0 || out.kind != p.result) return std::nullopt;
    if (p.result == TANDEM_BOOL) return Value::boolean(out.as.b != 0);
    if (p.result == TANDEM_F64) return Value::f64(out.as.f64);
    return Value::integer(BigInt(out.as.i64));
  };
}

template <typename Fn>
Fn lookup(const PluginLibrary& lib, const char* name) {
  return reinterpret_cast<Fn>(lib.symbol(name));
}

std::string joined(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : "; ") + p;
  return s;
}

}  // namespace

void DlCloser::operator()(void* handle) const noexcept {
  if (handle) dlclose(handle);
}

void* PluginLibrary::symbol(const char* name) const { return dlsym(handle_.get(), name); }

PluginLoad loadPlugin(const std::string& path, NativeRegistry& registry) {
  PluginLoad out;
  auto fail = [&](const std::string& why) {
    out.error = "cannot load native plugin '" + path + "': " + why;
    return out;
  };
  std::error_code ec;
  if (!fs::exists(path, ec)) return fail("no such file");
  if (fs::is_directory(path, ec)) return fail("it is a directory");
  // An absolute path, so dlopen never searches LD_LIBRARY_PATH for a bare name. RTLD_NOW reports
  // unresolved symbols here rather than in the middle of a search; RTLD_LOCAL keeps two plugins'
  // symbols apart.
  std::string abs = fs::absolute(path, ec).string();
  LibraryHandle handle(dlopen(abs.c_str(), RTLD_NOW | RTLD_LOCAL));
  if (!handle) {
    const char* e = dlerror();
    return fail(std::string("not a loadable shared library (") + (e ? e : "unknown error") + ")");
  }
  auto lib = std::make_shared<const PluginLibrary>(path, std::move(handle));

  auto registerFn = lookup<tandem_register_natives_fn>(*lib, "tandem_register_natives");
  if (!registerFn) return fail("it does not export tandem_register_natives (not a Tandem plugin?)");
  auto versionFn = lookup<tandem_abi_version_fn>(*lib, "tandem_natives_abi_version");
  if (!versionFn)
    return fail(
        "it does not export tandem_natives_abi_version (write `TANDEM_NATIVE_PLUGIN_ABI;` in it)");
  uint32_t version = versionFn();
  if (version != TANDEM_NATIVE_ABI_VERSION)
    return fail("it was built for native ABI version " + std::to_string(version) +
                ", this tandem implements version " + std::to_string(TANDEM_NATIVE_ABI_VERSION) +
                ": rebuild it against this tandem's include/tandem/native_plugin.h");

  Registration reg;
  tandem_registrar r{TANDEM_NATIVE_ABI_VERSION, &reg, hostAddNative, hostReportError};
  int status = registerFn(&r);
  if (status != 0 && reg.errors.empty())
    reg.errors.push_back("tandem_register_natives returned " + std::to_string(status));
  if (!reg.errors.empty()) return fail("registration failed: " + joined(reg.errors));

  for (Pending& p : reg.entries) {
    NativeSignature sig;
    for (tandem_kind k : p.params) sig.params.push_back(*kindOf(k));
    sig.result = *kindOf(p.result);
    out.natives.push_back(p.name);
    std::string name = p.name;
    registry.add(std::move(name), std::move(sig), adapt(lib, std::move(p)));
  }
  out.library = std::move(lib);
  return out;
}

}  // namespace tandem::exec
