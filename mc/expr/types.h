// Types of the Tandem language, interned: two equal types are the same pointer, so type
// equality is pointer equality everywhere above this layer.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace tandem {

enum class TypeKind { Int, I32, I64, F64, Bool, Enum, Array, Ref, Class, Null, Void };

struct Type {
  TypeKind kind = TypeKind::Int;
  const Type* elem = nullptr;  // Array element, Ref target
  int64_t length = -1;         // Array: fixed length, or -1 for `T[]` (length is part of the value)
  std::string name;            // Enum, Class
  std::vector<std::string> members;  // Enum members in order
  // Class fields in declaration order (filled once the class body is checked).
  std::vector<std::pair<std::string, const Type*>> fields;

  bool isIntegral() const {
    return kind == TypeKind::Int || kind == TypeKind::I32 || kind == TypeKind::I64;
  }
  bool isBitVector() const { return kind == TypeKind::I32 || kind == TypeKind::I64; }
  // Width in bits for i32/i64, 0 otherwise.
  unsigned bitWidth() const { return kind == TypeKind::I32 ? 32 : kind == TypeKind::I64 ? 64 : 0; }
  bool isFixedArray() const { return kind == TypeKind::Array && length >= 0; }
  bool isDynamicArray() const { return kind == TypeKind::Array && length < 0; }
  // Index of a field or enum member by name, or -1.
  int fieldIndex(const std::string& f) const;
  int memberIndex(const std::string& m) const;
};
using TypeRef = const Type*;

// Owns every type of one analysis context.
class TypeTable {
 public:
  TypeTable();
  TypeTable(const TypeTable&) = delete;
  TypeTable& operator=(const TypeTable&) = delete;

  TypeRef intType() const { return int_; }
  TypeRef i32Type() const { return i32_; }
  TypeRef i64Type() const { return i64_; }
  TypeRef f64Type() const { return f64_; }
  TypeRef boolType() const { return bool_; }
  TypeRef nullType() const { return null_; }
  TypeRef voidType() const { return void_; }
  TypeRef arrayOf(TypeRef elem, int64_t length);  // length -1: dynamic
  TypeRef refTo(TypeRef target);
  // Enums and classes are nominal: one type per name.
  TypeRef enumType(const std::string& name, const std::vector<std::string>& members);
  Type* classType(const std::string& name);  // mutable so its fields can be filled in
  TypeRef findEnum(const std::string& name) const;
  TypeRef findClass(const std::string& name) const;

 private:
  Type* make(Type t);
  std::deque<Type> storage_;  // stable addresses
  TypeRef int_, i32_, i64_, f64_, bool_, null_, void_;
  std::map<std::pair<TypeRef, int64_t>, TypeRef> arrays_;
  std::map<TypeRef, TypeRef> refs_;
  std::map<std::string, TypeRef> enums_;
  std::map<std::string, Type*> classes_;
};

// `int`, `i32`, `bool[2]`, `int[]`, `ref int`, enum and class names.
std::string typeToString(TypeRef t);
// The spelling of a kind that names its type alone (int, i32, i64, f64, bool, null, void); "?" for
// the others (enums, classes, arrays and refs: typeToString spells those from the type).
const char* kindToString(TypeKind k);

// Can a value of type `from` be stored where `to` is expected (null into refs and classes)?
bool assignable(TypeRef to, TypeRef from);

}  // namespace tandem
