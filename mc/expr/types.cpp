#include "mc/expr/types.h"

namespace tandem {

namespace {
Type simple(TypeKind k) {
  Type t;
  t.kind = k;
  return t;
}
}  // namespace

int Type::fieldIndex(const std::string& f) const {
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].first == f) return static_cast<int>(i);
  return -1;
}

int Type::memberIndex(const std::string& m) const {
  for (size_t i = 0; i < members.size(); ++i)
    if (members[i] == m) return static_cast<int>(i);
  return -1;
}

TypeTable::TypeTable() {
  int_ = make(simple(TypeKind::Int));
  i32_ = make(simple(TypeKind::I32));
  i64_ = make(simple(TypeKind::I64));
  f64_ = make(simple(TypeKind::F64));
  bool_ = make(simple(TypeKind::Bool));
  null_ = make(simple(TypeKind::Null));
  void_ = make(simple(TypeKind::Void));
}

Type* TypeTable::make(Type t) {
  storage_.push_back(std::move(t));
  return &storage_.back();
}

TypeRef TypeTable::arrayOf(TypeRef elem, int64_t length) {
  if (length < 0) length = -1;
  auto key = std::make_pair(elem, length);
  auto it = arrays_.find(key);
  if (it != arrays_.end()) return it->second;
  Type t = simple(TypeKind::Array);
  t.elem = elem;
  t.length = length;
  return arrays_[key] = make(std::move(t));
}

TypeRef TypeTable::refTo(TypeRef target) {
  auto it = refs_.find(target);
  if (it != refs_.end()) return it->second;
  Type t = simple(TypeKind::Ref);
  t.elem = target;
  return refs_[target] = make(std::move(t));
}

TypeRef TypeTable::enumType(const std::string& name, const std::vector<std::string>& members) {
  auto it = enums_.find(name);
  if (it != enums_.end()) return it->second;
  Type t = simple(TypeKind::Enum);
  t.name = name;
  t.members = members;
  return enums_[name] = make(std::move(t));
}

Type* TypeTable::classType(const std::string& name) {
  auto it = classes_.find(name);
  if (it != classes_.end()) return it->second;
  Type t = simple(TypeKind::Class);
  t.name = name;
  return classes_[name] = make(std::move(t));
}

TypeRef TypeTable::findEnum(const std::string& name) const {
  auto it = enums_.find(name);
  return it == enums_.end() ? nullptr : it->second;
}

TypeRef TypeTable::findClass(const std::string& name) const {
  auto it = classes_.find(name);
  return it == classes_.end() ? nullptr : it->second;
}

const char* kindToString(TypeKind k) {
  switch (k) {
    case TypeKind::Int:
      return "int";
    case TypeKind::I32:
      return "i32";
    case TypeKind::I64:
      return "i64";
    case TypeKind::F64:
      return "f64";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::Null:
      return "null";
    case TypeKind::Void:
      return "void";
    default:
      return "?";
  }
}

std::string typeToString(TypeRef t) {
  if (!t) return "<none>";
  switch (t->kind) {
    case TypeKind::Enum:
    case TypeKind::Class:
      return t->name;
    case TypeKind::Array:
      return typeToString(t->elem) + "[" + (t->length >= 0 ? std::to_string(t->length) : "") + "]";
    case TypeKind::Ref:
      return "ref " + typeToString(t->elem);
    default:
      return kindToString(t->kind);
  }
}

bool assignable(TypeRef to, TypeRef from) {
  if (to == from) return true;
  if (from && from->kind == TypeKind::Null)
    return to && (to->kind == TypeKind::Ref || to->kind == TypeKind::Class);
  // A fixed-length array value fits a dynamic array of the same element type.
  if (to && from && to->kind == TypeKind::Array && from->kind == TypeKind::Array)
    return to->length < 0 && to->elem == from->elem;
  return false;
}

}  // namespace tandem
