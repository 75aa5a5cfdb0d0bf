// Translator's members (translator.h), for the explicit instantiation in each back end's .cpp,
// after its builder: only those include this, so encoder.h stays out of the sessions.
#pragma once

#include <type_traits>
#include <utility>

#include "mc/smt/encoder.h"
#include "mc/smt/translator.h"

namespace tandem::smt {

template <class TermType, class Factory, class Builder>
struct Translator<TermType, Factory, Builder>::Impl {
  static_assert(std::is_same_v<TermType, typename Builder::Term>);
  Impl(Factory& f, TermNaming n) : naming(std::move(n)), builder{f}, enc(builder, naming) {}
  TermNaming naming;
  Builder builder;
  Encoder<Builder> enc;
};

template <class TermType, class Factory, class Builder>
Translator<TermType, Factory, Builder>::Translator(Factory& factory, TermNaming naming)
    : impl_(std::make_unique<Impl>(factory, std::move(naming))) {}
template <class TermType, class Factory, class Builder>
Translator<TermType, Factory, Builder>::~Translator() = default;

template <class TermType, class Factory, class Builder>
auto Translator<TermType, Factory, Builder>::term(ExprRef e) -> Term {
  return impl_->enc.term(e);
}
template <class TermType, class Factory, class Builder>
auto Translator<TermType, Factory, Builder>::length(ExprRef e) -> std::optional<Term> {
  return impl_->enc.encode(e).length;
}
template <class TermType, class Factory, class Builder>
auto Translator<TermType, Factory, Builder>::selectAt(ExprRef array, const BigInt& index) -> Term {
  return impl_->enc.selectAt(array, index);
}
template <class TermType, class Factory, class Builder>
auto Translator<TermType, Factory, Builder>::sideConstraints(std::span<const ExprRef> roots)
    -> std::vector<Term> {
  std::vector<Term> out;
  impl_->enc.sideConstraints(roots, out);
  return out;
}
template <class TermType, class Factory, class Builder>
auto Translator<TermType, Factory, Builder>::mkForall(std::span<const ExprRef> vars, ExprRef body)
    -> Quantified<Term> {
  return impl_->enc.forall(vars, body);
}

}  // namespace tandem::smt
