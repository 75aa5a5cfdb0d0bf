// Concrete values of the language. Arrays have value semantics but share their storage
// copy-on-write, so copying a state (which the explorer does for every successor) copies pointers,
// not elements.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mc/expr/bigint.h"
#include "mc/expr/types.h"

namespace tandem::exec {

using ThreadId = uint32_t;
using ObjectId = uint32_t;  // index into State::heap
inline constexpr ThreadId kNoThread = UINT32_MAX;

enum class ValueKind : uint8_t { Null, Int, Bool, Enum, I32, I64, F64, Ref, Array, Object };
const char* valueKindName(ValueKind k);

// Where a `ref` points: a variable (by its store and slot) and a path of array indices below it.
enum class AddressBase : uint8_t { Global, ProcessLocal, Local, Field };

struct Address {
  AddressBase base = AddressBase::Global;
  uint32_t thread = 0;  // ProcessLocal, Local (0 otherwise, so equal addresses compare equal)
  // Local: depth in the thread's call stack, 0 = bottom frame. A ref that outlives its frame is
  // reported as dangling while no frame exists at that depth (a later call at the same depth
  // would alias it; the language can leak such a ref only through a global or a field).
  uint32_t frame = 0;
  ObjectId object = 0;         // Field: the heap object
  uint32_t slot = 0;           // Variable::slot, or the field index
  std::vector<uint64_t> path;  // array indices, outermost first: `&a[1][2]` has {1, 2}

  static Address global(uint32_t slot) { return Address{AddressBase::Global, 0, 0, 0, slot, {}}; }
  static Address processLocal(ThreadId t, uint32_t slot) {
    return Address{AddressBase::ProcessLocal, t, 0, 0, slot, {}};
  }
  static Address local(ThreadId t, uint32_t frame, uint32_t slot) {
    return Address{AddressBase::Local, t, frame, 0, slot, {}};
  }
  static Address field(ObjectId o, uint32_t index) {
    return Address{AddressBase::Field, 0, 0, o, index, {}};
  }
  friend bool operator==(const Address&, const Address&) = default;
  size_t hash() const;
  // Raw form without names: `g0`, `t1.p2`, `t0.f1.l3`, `o4.f0`, then `[i]` per index.
  std::string rawName() const;
};

// Optional callbacks giving user-facing names when printing values.
struct ValueNames {
  // The name of an address's variable without the path, e.g. "x" or "o1.elems".
  std::function<std::string(const Address&)> address;
  std::function<std::string(ObjectId)> object;
  // Text the language reads back (f64::sourceText), for `test` declarations.
  bool source = false;
};

class Value {
 public:
  Value() = default;  // null
  static Value null() { return Value(); }
  static Value integer(BigInt v);
  static Value boolean(bool b);
  static Value enumMember(TypeRef enumType, uint32_t index);
  // An i32 (width 32) or i64 (width 64): `v` wraps to the width (two's complement).
  static Value bits(unsigned width, int64_t v);
  static Value i32(int64_t v) { return bits(32, v); }
  static Value i64(int64_t v) { return bits(64, v); }
  // An f64, kept as its bit pattern: Value equality and hashing (what the state store compares)
  // are by bits, so -0.0 and 0.0 are different states and a NaN equals itself. The language's
  // `==` is IEEE and lives in arith.cpp.
  static Value f64(double d);
  static Value ref(Address a);
  static Value array(std::vector<Value> elems);
  static Value object(ObjectId id);

  ValueKind kind() const { return kind_; }
  bool isNull() const { return kind_ == ValueKind::Null; }
  bool isIntegral() const {
    return kind_ == ValueKind::Int || kind_ == ValueKind::I32 || kind_ == ValueKind::I64;
  }
  const BigInt& asInt() const;  // Int
  bool asBool() const;
  uint32_t enumIndex() const;
  TypeRef enumType() const;
  int64_t asBits() const;  // I32, I64
  double asF64() const;
  unsigned bitWidth() const {
    return kind_ == ValueKind::I32 ? 32 : kind_ == ValueKind::I64 ? 64 : 0;
  }
  BigInt toBigInt() const;  // any integral kind, exactly
  const Address& asRef() const;
  ObjectId asObject() const;

  // Arrays.
  size_t length() const;
  const Value& at(size_t i) const;
  std::span<const Value> elements() const;
  // A writable element; first gives this array private storage if it shares it (copy-on-write).
  Value& mutableAt(size_t i);
  bool sharesStorageWith(const Value& o) const { return ptr_ && ptr_ == o.ptr_; }

  size_t hash() const;
  friend bool operator==(const Value& a, const Value& b);
  // Ints in decimal, f64 in their shortest round-trip form (f64::format), `true`, enum member
  // names, `null`, `[1, 2]`, `&x`, `&a[2]`, `obj3`.
  std::string toString(const ValueNames* names = nullptr) const;

 private:
  using Elems = std::vector<Value>;
  const Elems& elems() const;

  ValueKind kind_ = ValueKind::Null;
  TypeRef type_ = nullptr;  // Enum: its type, for printing by name
  BigInt num_;  // Int; also Bool (0/1), Enum index, I32/I64, Object id: all small, inline
  // Ref: a const Address; Array: an Elems shared copy-on-write (unique owner may write).
  std::shared_ptr<void> ptr_;
};

// The default (zero) value of a type: 0, false, the first enum member, null, a fixed-length array
// of defaults, an empty dynamic array.
Value defaultValue(TypeRef type);

// An integer as a value of the integral type `t`: exact for int, wrapped for i32/i64.
Value integralValue(TypeRef t, const BigInt& v);

// `v` converted to the integral type `t` when both are integral (int -> i32 wraps, i32 -> int is
// exact); any other value is returned unchanged.
Value coerceIntegral(const Value& v, TypeRef t);

// A value of type `t` written as text (`run --args`): an integer (in range for i32/i64), true or
// false, an enum member's name, null for references, an f64 literal (nan, inf, -inf too); none
// when the text is not one.
std::optional<Value> valueFromText(const std::string& text, TypeRef t);

}  // namespace tandem::exec

template <>
struct std::hash<tandem::exec::Value> {
  size_t operator()(const tandem::exec::Value& v) const noexcept { return v.hash(); }
};
