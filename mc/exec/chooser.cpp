#include "mc/exec/chooser.h"

#include <limits>

namespace tandem::exec {

RandomChooser::RandomChooser(uint64_t seed, RandomChooserOptions options)
    : rng_(seed), options_(options) {}

int64_t RandomChooser::smallInt() {
  std::uniform_int_distribution<int64_t> d(-options_.intBound, options_.intBound);
  return d(rng_);
}

bool RandomChooser::chooseBool() { return (rng_() & 1) != 0; }

Value RandomChooser::choose(TypeRef type, SourceLoc loc) {
  switch (type->kind) {
    case TypeKind::Int:
      return Value::integer(BigInt(smallInt()));
    case TypeKind::I32:
    case TypeKind::I64: {
      // Mostly small values, sometimes the extremes, sometimes anything: wrap-around bugs hide
      // at the edges of the range.
      const unsigned w = type->bitWidth();
      switch (rng_() % 8) {
        case 0:
          return Value::bits(w, w == 32 ? std::numeric_limits<int32_t>::max()
                                        : std::numeric_limits<int64_t>::max());
        case 1:
          return Value::bits(w, w == 32 ? std::numeric_limits<int32_t>::min()
                                        : std::numeric_limits<int64_t>::min());
        case 2:
          return Value::bits(w, static_cast<int64_t>(rng_()));
        default:
          return Value::bits(w, smallInt());
      }
    }
    case TypeKind::F64:
      // Mostly small numbers, sometimes the values where float code breaks.
      switch (rng_() % 8) {
        case 0:
          return Value::f64(std::numeric_limits<double>::quiet_NaN());
        case 1:
          return Value::f64(chooseBool() ? std::numeric_limits<double>::infinity()
                                         : -std::numeric_limits<double>::infinity());
        case 2:
          return Value::f64(chooseBool() ? 0.0 : -0.0);
        default:
          return Value::f64(static_cast<double>(smallInt()) / 4.0);
      }
    case TypeKind::Bool:
      return Value::boolean(chooseBool());
    case TypeKind::Enum: {
      if (type->members.empty()) return Value::enumMember(type, 0);
      return Value::enumMember(type, static_cast<uint32_t>(rng_() % type->members.size()));
    }
    case TypeKind::Array: {
      size_t n = type->length >= 0 ? static_cast<size_t>(type->length)
                                   : static_cast<size_t>(rng_() % (options_.maxArrayLength + 1));
      std::vector<Value> elems;
      elems.reserve(n);
      for (size_t i = 0; i < n; ++i) elems.push_back(choose(type->elem, loc));
      return Value::array(std::move(elems));
    }
    default:  // a reference has one value to choose: null
      return defaultValue(type);
  }
}

ScriptedChooser::ScriptedChooser(std::vector<Value> values, std::vector<bool> bools)
    : values_(values.begin(), values.end()), bools_(bools.begin(), bools.end()) {}

Value ScriptedChooser::choose(TypeRef type, SourceLoc) {
  ++requests_;
  if (values_.empty()) {
    exhausted_ = true;
    return defaultValue(type);
  }
  Value v = std::move(values_.front());
  values_.pop_front();
  return coerceIntegral(v, type);
}

bool ScriptedChooser::chooseBool() {
  ++requests_;
  if (bools_.empty()) {
    exhausted_ = true;
    return false;
  }
  bool b = bools_.front();
  bools_.pop_front();
  return b;
}

}  // namespace tandem::exec
