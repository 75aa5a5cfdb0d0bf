#include "mc/exec/value.h"

#include "mc/expr/enum_names.h"

#include <cassert>

#include "mc/exec/hash_mix.h"
#include "mc/expr/float64.h"

namespace tandem::exec {

namespace {
constexpr EnumName<ValueKind> kValueKindNames[] = {
    {ValueKind::Null, "null"},    {ValueKind::Int, "int"}, {ValueKind::Bool, "bool"},
    {ValueKind::Enum, "enum"},    {ValueKind::I32, "i32"}, {ValueKind::I64, "i64"},
    {ValueKind::F64, "f64"},      {ValueKind::Ref, "ref"}, {ValueKind::Array, "array"},
    {ValueKind::Object, "object"}};
}  // namespace

const char* valueKindName(ValueKind k) { return enumName(kValueKindNames, k); }

size_t Address::hash() const {
  size_t h = static_cast<size_t>(base);
  hashMix(h, thread);
  hashMix(h, frame);
  hashMix(h, object);
  hashMix(h, slot);
  for (uint64_t i : path) hashMix(h, i);
  return h;
}

std::string Address::rawName() const {
  std::string s;
  switch (base) {
    case AddressBase::Global:
      s = "g" + std::to_string(slot);
      break;
    case AddressBase::ProcessLocal:
      s = "t" + std::to_string(thread) + ".p" + std::to_string(slot);
      break;
    case AddressBase::Local:
      s = "t" + std::to_string(thread) + ".f" + std::to_string(frame) + ".l" + std::to_string(slot);
      break;
    case AddressBase::Field:
      s = "o" + std::to_string(object) + ".f" + std::to_string(slot);
      break;
  }
  for (uint64_t i : path) s += "[" + std::to_string(i) + "]";
  return s;
}

Value Value::integer(BigInt v) {
  Value r;
  r.kind_ = ValueKind::Int;
  r.num_ = std::move(v);
  return r;
}

Value Value::boolean(bool b) {
  Value r;
  r.kind_ = ValueKind::Bool;
  r.num_ = BigInt(b ? 1 : 0);
  return r;
}

Value Value::enumMember(TypeRef enumType, uint32_t index) {
  Value r;
  r.kind_ = ValueKind::Enum;
  r.type_ = enumType;
  r.num_ = BigInt(static_cast<int64_t>(index));
  return r;
}

Value Value::bits(unsigned width, int64_t v) {
  assert((width == 32 || width == 64) && "Value::bits: width must be 32 or 64");
  Value r;
  r.kind_ = width == 32 ? ValueKind::I32 : ValueKind::I64;
  r.num_ = BigInt(BigInt(v).wrapTo(width));
  return r;
}

Value Value::f64(double d) {
  Value r;
  r.kind_ = ValueKind::F64;
  r.num_ = BigInt(static_cast<int64_t>(f64::toBits(d)));
  return r;
}

Value Value::ref(Address a) {
  Value r;
  r.kind_ = ValueKind::Ref;
  r.ptr_ = std::make_shared<Address>(std::move(a));
  return r;
}

Value Value::array(std::vector<Value> elems) {
  Value r;
  r.kind_ = ValueKind::Array;
  r.ptr_ = std::make_shared<Elems>(std::move(elems));
  return r;
}

Value Value::object(ObjectId id) {
  Value r;
  r.kind_ = ValueKind::Object;
  r.num_ = BigInt(static_cast<int64_t>(id));
  return r;
}

const BigInt& Value::asInt() const {
  assert(kind_ == ValueKind::Int && "Value::asInt on a non-int");
  return num_;
}
bool Value::asBool() const {
  assert(kind_ == ValueKind::Bool && "Value::asBool on a non-bool");
  return num_.sign() != 0;
}
uint32_t Value::enumIndex() const {
  assert(kind_ == ValueKind::Enum && "Value::enumIndex on a non-enum");
  return static_cast<uint32_t>(num_.small());
}
TypeRef Value::enumType() const { return type_; }
int64_t Value::asBits() const {
  assert((kind_ == ValueKind::I32 || kind_ == ValueKind::I64) &&
         "Value::asBits on a non-bitvector");
  return num_.small();
}
double Value::asF64() const {
  assert(kind_ == ValueKind::F64 && "Value::asF64 on a non-f64");
  return f64::fromBits(static_cast<uint64_t>(num_.small()));
}
BigInt Value::toBigInt() const {
  assert(isIntegral() && "Value::toBigInt on a non-integral value");
  return num_;
}
const Address& Value::asRef() const {
  assert(kind_ == ValueKind::Ref && "Value::asRef on a non-ref");
  return *static_cast<const Address*>(ptr_.get());
}
ObjectId Value::asObject() const {
  assert(kind_ == ValueKind::Object && "Value::asObject on a non-object");
  return static_cast<ObjectId>(num_.small());
}

const Value::Elems& Value::elems() const {
  assert(kind_ == ValueKind::Array && "array access on a non-array value");
  return *static_cast<const Elems*>(ptr_.get());
}
size_t Value::length() const { return elems().size(); }
const Value& Value::at(size_t i) const {
  assert(i < elems().size() && "Value::at out of range: the caller checks bounds");
  return elems()[i];
}
std::span<const Value> Value::elements() const { return elems(); }

Value& Value::mutableAt(size_t i) {
  assert(kind_ == ValueKind::Array && "Value::mutableAt on a non-array value");
  // A sole owner may write in place: no other Value can observe the storage, so this is safe
  // even if states live in several threads.
  if (ptr_.use_count() != 1) ptr_ = std::make_shared<Elems>(elems());
  auto& v = *static_cast<Elems*>(ptr_.get());
  assert(i < v.size() && "Value::mutableAt out of range: the caller checks bounds");
  return v[i];
}

size_t Value::hash() const {
  size_t h = static_cast<size_t>(kind_) * 0x100000001b3ULL;
  switch (kind_) {
    case ValueKind::Null:
      break;
    case ValueKind::Ref:
      hashMix(h, asRef().hash());
      break;
    case ValueKind::Array:
      hashMix(h, length());
      for (const Value& e : elems()) hashMix(h, e.hash());
      break;
    default:
      hashMix(h, num_.hash());
      break;
  }
  return h;
}

bool operator==(const Value& a, const Value& b) {
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case ValueKind::Null:
      return true;
    case ValueKind::Ref:
      return a.ptr_ == b.ptr_ || a.asRef() == b.asRef();
    case ValueKind::Array:
      return a.ptr_ == b.ptr_ || a.elems() == b.elems();
    case ValueKind::Enum:
      return a.num_ == b.num_ && a.type_ == b.type_;
    default:
      return a.num_ == b.num_;
  }
}

std::string Value::toString(const ValueNames* names) const {
  switch (kind_) {
    case ValueKind::Null:
      return "null";
    case ValueKind::Int:
    case ValueKind::I32:
    case ValueKind::I64:
      return num_.toString();
    case ValueKind::F64:
      return names && names->source ? f64::sourceText(asF64()) : f64::format(asF64());
    case ValueKind::Bool:
      return asBool() ? "true" : "false";
    case ValueKind::Enum: {
      uint32_t i = enumIndex();
      if (type_ && i < type_->members.size()) return type_->members[i];
      return "enum#" + std::to_string(i);
    }
    case ValueKind::Ref: {
      const Address& a = asRef();
      if (!names || !names->address) return "&" + a.rawName();
      std::string s = "&" + names->address(a);
      for (uint64_t i : a.path) s += "[" + std::to_string(i) + "]";
      return s;
    }
    case ValueKind::Array: {
      std::string s = "[";
      for (size_t i = 0; i < length(); ++i) {
        if (i) s += ", ";
        s += at(i).toString(names);
      }
      return s + "]";
    }
    case ValueKind::Object:
      if (names && names->object) return names->object(asObject());
      return "obj" + std::to_string(asObject());
  }
  return "?";
}

Value defaultValue(TypeRef type) {
  assert(type && "defaultValue of a null type");
  switch (type->kind) {
    case TypeKind::Int:
      return Value::integer(BigInt(0));
    case TypeKind::I32:
      return Value::i32(0);
    case TypeKind::I64:
      return Value::i64(0);
    case TypeKind::F64:
      return Value::f64(0.0);
    case TypeKind::Bool:
      return Value::boolean(false);
    case TypeKind::Enum:
      return Value::enumMember(type, 0);
    case TypeKind::Array:
      if (type->length < 0) return Value::array({});
      return Value::array(
          std::vector<Value>(static_cast<size_t>(type->length), defaultValue(type->elem)));
    case TypeKind::Ref:
    case TypeKind::Class:
    case TypeKind::Null:
    case TypeKind::Void:
      return Value::null();
  }
  return Value::null();
}

Value integralValue(TypeRef t, const BigInt& v) {
  if (t && t->isBitVector()) return Value::bits(t->bitWidth(), v.wrapTo(t->bitWidth()));
  return Value::integer(v);
}

Value coerceIntegral(const Value& v, TypeRef t) {
  if (!t || !t->isIntegral() || !v.isIntegral()) return v;
  if (t->kind == TypeKind::Int)
    return v.kind() == ValueKind::Int ? v : Value::integer(v.toBigInt());
  return integralValue(t, v.toBigInt());
}

std::optional<Value> valueFromText(const std::string& text, TypeRef t) {
  if (t->kind == TypeKind::Bool) {
    if (text == "true") return Value::boolean(true);
    if (text == "false") return Value::boolean(false);
    return std::nullopt;
  }
  if (t->kind == TypeKind::Enum) {
    int i = t->memberIndex(text);
    if (i < 0) return std::nullopt;
    return Value::enumMember(t, static_cast<uint32_t>(i));
  }
  if ((t->kind == TypeKind::Ref || t->kind == TypeKind::Class) && text == "null")
    return Value::null();
  if (t->kind == TypeKind::F64) {  // a literal, an integer, a sign, or nan / inf / -inf
    auto d = f64::parse(text);
    if (!d) return std::nullopt;
    return Value::f64(*d);
  }
  if (!t->isIntegral()) return std::nullopt;
  auto v = BigInt::parse(text);
  if (!v || (t->isBitVector() && !v->fitsIn(t->bitWidth()))) return std::nullopt;
  return integralValue(t, *v);
}

}  // namespace tandem::exec
