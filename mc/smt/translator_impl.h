// Translator's members (translator.h), for the explicit instantiation in each back end's .cpp,
// after its builder: only those include this, so encoder.h stays out of the sessions.
#pragma once

#include <utility>

#include "mc/smt/encoder.h"
#include "mc/smt/translator.h"

namespace tandem::smt {

template <class Terms>
struct Translator<Terms>::Impl {
  Impl(typename Terms::Factory& f, TermNaming n)
      : naming(std::move(n)), builder{f}, enc(builder, naming) {}
  TermNaming naming;
  typename Terms::Builder builder;
  Encoder<typename Terms::Builder> enc;
};

template <class Terms>
Translator<Terms>::Translator(typename Terms::Factory& factory, TermNaming naming)
    : impl_(std::make_unique<Impl>(factory, std::move(naming))) {}
template <class Terms>
Translator<Terms>::~Translator() = default;

template <class Terms>
auto Translator<Terms>::term(ExprRef e) -> Term {
  return impl_->enc.term(e);
}
template <class Terms>
auto Translator<Terms>::length(ExprRef e) -> std::optional<Term> {
  return impl_->enc.encode(e).length;
}
template <class Terms>
auto Translator<Terms>::selectAt(ExprRef array, const BigInt& index) -> Term {
  return impl_->enc.selectAt(array, index);
}
template <class Terms>
auto Translator<Terms>::sideConstraints(std::span<const ExprRef> roots) -> std::vector<Term> {
  std::vector<Term> out;
  impl_->enc.sideConstraints(roots, out);
  return out;
}
template <class Terms>
auto Translator<Terms>::mkForall(std::span<const ExprRef> vars, ExprRef body) -> Quantified<Term> {
  return impl_->enc.forall(vars, body);
}

}  // namespace tandem::smt
