// The SMT layer's errors. SmtUnsupported marks an expression outside the translation (references,
// objects, process operators, old(...)): the caller decides what to do with it, e.g. fall back to
// concrete execution. SmtError is a misuse of the API or a back end failure.
#pragma once

#include <stdexcept>
#include <string>

namespace tandem::smt {

class SmtError : public std::runtime_error {
 public:
  explicit SmtError(const std::string& what) : std::runtime_error(what) {}
};

class SmtUnsupported : public SmtError {
 public:
  explicit SmtUnsupported(const std::string& what)
      : SmtError("not supported by the SMT translation: " + what) {}
};

}  // namespace tandem::smt
