#include "mc/smt/model.h"

#include <sstream>

namespace tandem::smt {

const BigInt& ArrayValue::at(const BigInt& index) const {
  auto it = elements.find(index);
  return it == elements.end() ? fill : it->second;
}

void Model::setElement(LeafKey leaf, const BigInt& index, BigInt value) {
  arrays_[leaf].elements[index] = std::move(value);
}

void Model::setCall(uint32_t callee, std::vector<BigInt> args, BigInt result) {
  calls_[{callee, std::move(args)}] = std::move(result);
}

void Model::setDivByZero(Op op, const BigInt& dividend, BigInt result) {
  divByZero_[{op, dividend}] = std::move(result);
}

const BigInt* Model::scalar(LeafKey leaf) const {
  auto it = scalars_.find(leaf);
  return it == scalars_.end() ? nullptr : &it->second;
}

const ArrayValue* Model::array(LeafKey leaf) const {
  auto it = arrays_.find(leaf);
  return it == arrays_.end() ? nullptr : &it->second;
}

const BigInt* Model::call(uint32_t callee, const std::vector<BigInt>& args) const {
  auto it = calls_.find({callee, args});
  return it == calls_.end() ? nullptr : &it->second;
}

const BigInt* Model::divByZero(Op op, const BigInt& dividend) const {
  auto it = divByZero_.find({op, dividend});
  return it == divByZero_.end() ? nullptr : &it->second;
}

void Model::merge(const Model& other) {
  scalars_.insert(other.scalars_.begin(), other.scalars_.end());
  for (const auto& [leaf, a] : other.arrays_) {
    auto [it, fresh] = arrays_.emplace(leaf, a);
    if (!fresh) it->second.elements.insert(a.elements.begin(), a.elements.end());
  }
  calls_.insert(other.calls_.begin(), other.calls_.end());
  divByZero_.insert(other.divByZero_.begin(), other.divByZero_.end());
}

Model Model::restricted(const std::function<bool(LeafKey, const BigInt*)>& keepLeaf,
                        const std::function<bool(uint32_t)>& keepCallee) const {
  Model out;
  for (const auto& [leaf, v] : scalars_)
    if (keepLeaf(leaf, nullptr)) out.scalars_.emplace(leaf, v);
  for (const auto& [leaf, a] : arrays_) {
    if (keepLeaf(leaf, nullptr)) {
      out.arrays_.emplace(leaf, a);
      continue;
    }
    ArrayValue part{a.length, {}, a.fill};
    for (const auto& [i, v] : a.elements)
      if (keepLeaf(leaf, &i)) part.elements.emplace(i, v);
    if (!part.elements.empty()) out.arrays_.emplace(leaf, std::move(part));
  }
  for (const auto& [key, v] : calls_)
    if (keepCallee(key.first)) out.calls_.emplace(key, v);
  out.divByZero_ = divByZero_;
  return out;
}

bool Model::empty() const {
  return scalars_.empty() && arrays_.empty() && calls_.empty() && divByZero_.empty();
}

std::string Model::toString(const TermNaming& naming) const {
  auto leafName = [&](LeafKey k) {
    return k.op == Op::Symbol ? naming.symbolName(k.id) : naming.varName(k.id);
  };
  std::ostringstream os;
  for (const auto& [k, v] : scalars_) os << leafName(k) << " = " << v << "\n";
  for (const auto& [k, a] : arrays_) {
    os << leafName(k) << " = [";
    const char* sep = "";
    for (const auto& [i, v] : a.elements) {
      os << sep << i << ": " << v;
      sep = ", ";
    }
    os << "] (length " << a.length << ", otherwise " << a.fill << ")\n";
  }
  for (const auto& [key, v] : calls_) {
    os << naming.calleeName(key.first) << "(";
    for (size_t i = 0; i < key.second.size(); ++i) os << (i ? ", " : "") << key.second[i];
    os << ") = " << v << "\n";
  }
  for (const auto& [key, v] : divByZero_)
    os << key.second << (key.first == Op::Div ? " div 0" : " mod 0") << " = " << v << "\n";
  return os.str();
}

}  // namespace tandem::smt
