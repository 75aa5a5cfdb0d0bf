#include "mc/exec/natives.h"

#include "mc/expr/float64.h"
#include "mc/expr/int_functions.h"

namespace tandem::exec {

namespace {

bool isIntegralKind(TypeKind k) {
  return k == TypeKind::Int || k == TypeKind::I32 || k == TypeKind::I64;
}

// Adapts a built-in integer function to values: integral arguments of any width, exact results.
NativeImpl adaptIntFunction(const IntFunction& f) {
  auto fn = f.fn;
  unsigned arity = f.arity;
  return [fn, arity](std::span<const Value> args) -> std::optional<Value> {
    if (args.size() != arity) return std::nullopt;
    std::vector<BigInt> ints;
    ints.reserve(args.size());
    for (const Value& a : args) {
      if (!a.isIntegral()) return std::nullopt;
      ints.push_back(a.toBigInt());
    }
    std::optional<BigInt> r = fn(ints);
    if (!r) return std::nullopt;
    return Value::integer(std::move(*r));
  };
}

// How a signature reads in a message: `(f64, int): bool`.
std::string signatureText(const NativeSignature& sig) {
  std::string s = "(";
  for (size_t i = 0; i < sig.params.size(); ++i)
    s += std::string(i ? ", " : "") + kindToString(sig.params[i]);
  return s + "): " + kindToString(sig.result);
}

std::string signatureText(const ir::Native& n) {
  std::string s = "(";
  for (size_t i = 0; i < n.params.size(); ++i) s += (i ? ", " : "") + typeToString(n.params[i]);
  return s + ")" + (n.returnType ? ": " + typeToString(n.returnType) : "");
}

}  // namespace

bool nativeKindMatches(TypeKind impl, TypeRef declared) {
  if (!declared) return false;
  if (impl == declared->kind) return true;
  return impl == TypeKind::Int && isIntegralKind(declared->kind);
}

NativeRegistry::NativeRegistry() {
  for (const IntFunction& f : builtinIntFunctions()) {
    NativeSignature sig{std::vector<TypeKind>(f.arity, TypeKind::Int), TypeKind::Int};
    add(std::string(f.name), sig, adaptIntFunction(f));
    if (f.name == "hash1") add("hash", sig, adaptIntFunction(f));
  }
  for (const f64::MathFunction& f : f64::mathFunctions()) {
    NativeSignature sig{std::vector<TypeKind>(f.arity, TypeKind::F64), TypeKind::F64};
    auto fn = f.fn;
    unsigned arity = f.arity;
    add(std::string(f.name), sig, [fn, arity](std::span<const Value> args) -> std::optional<Value> {
      if (args.size() != arity) return std::nullopt;
      double xs[2] = {0, 0};
      for (size_t i = 0; i < arity; ++i) {
        if (args[i].kind() != ValueKind::F64) return std::nullopt;
        xs[i] = args[i].asF64();
      }
      return Value::f64(fn(std::span<const double>(xs, arity)));
    });
  }
}

void NativeRegistry::add(std::string name, NativeSignature signature, NativeImpl impl) {
  NativeFunction f{name, std::move(signature), std::move(impl)};
  fns_.insert_or_assign(std::move(name), std::move(f));
}

const NativeFunction* NativeRegistry::find(std::string_view name) const {
  auto it = fns_.find(name);
  return it == fns_.end() ? nullptr : &it->second;
}

std::vector<std::string> NativeRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, f] : fns_) out.push_back(name);
  return out;
}

std::vector<std::string> NativeRegistry::checkBindings(const ir::Program& program) const {
  std::vector<std::string> problems;
  for (const ir::Native& n : program.natives) {
    const NativeFunction* f = find(n.name);
    if (!f) {
      problems.push_back("native '" + n.name + "' has no implementation");
      continue;
    }
    const NativeSignature& sig = f->signature;
    bool ok = sig.params.size() == n.params.size();
    for (size_t i = 0; ok && i < n.params.size(); ++i)
      ok = nativeKindMatches(sig.params[i], n.params[i]);
    if (ok && n.returnType) ok = nativeKindMatches(sig.result, n.returnType);
    if (!ok)
      problems.push_back("native '" + n.name + "' is declared " + signatureText(n) +
                         " but its implementation is " + signatureText(sig));
  }
  return problems;
}

}  // namespace tandem::exec
