// The implementations of `native` functions, by name. A `native` declaration in a model binds to
// the entry of the same name. The registry starts with the built-in library (int_functions.h);
// plugins add to it. It is an ordinary object owned by an analysis: there is no global registry.
// (An @concrete procedure is not a native: it is a CFA that the evaluator runs.)
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mc/exec/value.h"
#include "mc/expr/types.h"
#include "mc/ir/program.h"

namespace tandem::exec {

// Parameter and result kinds of an implementation. TypeRefs belong to one program's TypeTable,
// so the registry speaks in kinds. An Int parameter also accepts i32/i64 arguments, and an
// integral result is converted to the declared return type (wrapping for i32/i64).
struct NativeSignature {
  std::vector<TypeKind> params;
  TypeKind result = TypeKind::Int;
};

// Must be pure. nullopt: the function is undefined for these arguments (e.g. isqrt(-1)); the
// evaluator reports that as a limit (ExecError::limit), never as a counterexample.
using NativeImpl = std::function<std::optional<Value>(std::span<const Value>)>;

struct NativeFunction {
  std::string name;
  NativeSignature signature;
  NativeImpl impl;
};

class NativeRegistry {
 public:
  // Pre-filled with the built-in library: abs, min, max, isqrt, ipow, gcd, hash1, hash2,
  // `hash` (the same function as hash1), and the f64 functions of f64::mathFunctions().
  NativeRegistry();
  struct Empty {};
  explicit NativeRegistry(Empty) {}  // no built-ins (tests, sandboxed plugins)

  // Adds `name`, replacing an entry of the same name (a plugin may override a built-in).
  void add(std::string name, NativeSignature signature, NativeImpl impl);
  const NativeFunction* find(std::string_view name) const;
  std::vector<std::string> names() const;  // sorted

  // One message per `native` declaration of `program` that has no implementation here or whose
  // signature does not match (arity, or kinds other than the integral leniency above). Empty
  // when every native is bound.
  std::vector<std::string> checkBindings(const ir::Program& program) const;

 private:
  std::map<std::string, NativeFunction, std::less<>> fns_;
};

// Whether an implementation of kind `impl` serves a declared type (int-like kinds interchange).
bool nativeKindMatches(TypeKind impl, TypeRef declared);

}  // namespace tandem::exec
