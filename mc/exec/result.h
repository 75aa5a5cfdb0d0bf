// Results of concrete execution: a value or an ExecError, never a bool plus out-parameter and
// never an exception for an error of the modelled program.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "mc/ir/program.h"
#include "mc/lang/source.h"

namespace tandem::exec {

// An error of the modelled program (a failing assert, an implicit check), found by execution.
struct ExecError {
  ir::ErrorKind kind = ir::ErrorKind::Assert;
  SourceLoc loc;  // the edge being executed (expressions carry no positions of their own)
  std::string message;
  // The evaluator gave up rather than found an error: a resource limit (steps of a call in an
  // expression, an array too large to allocate) or something it cannot run (a native without an
  // implementation, a nondeterministic choice inside an expression). Engines must report such an
  // execution as incomplete, never as a counterexample; `kind` is then only the nearest match.
  bool limit = false;
  // Not an error either: the inputs chosen make an `init` condition false (or fail to evaluate)
  // while the initial state is built (ir::Program::initSchedule), so they give no initial state.
  bool excluded = false;

  static ExecError limitReached(ir::ErrorKind kind, std::string message) {
    return ExecError{kind, SourceLoc{}, std::move(message), true};
  }
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  Result(ExecError error) : v_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const& {
    assert(ok() && "Result::value() on an error");
    return std::get<0>(v_);
  }
  T& value() & {
    assert(ok() && "Result::value() on an error");
    return std::get<0>(v_);
  }
  T&& value() && {
    assert(ok() && "Result::value() on an error");
    return std::get<0>(std::move(v_));
  }
  const ExecError& error() const& {
    assert(!ok() && "Result::error() on a value");
    return std::get<1>(v_);
  }
  ExecError&& error() && {
    assert(!ok() && "Result::error() on a value");
    return std::get<1>(std::move(v_));
  }

 private:
  std::variant<T, ExecError> v_;
};

// Success, or an ExecError.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ExecError error) : error_(std::move(error)) {}
  static Status success() { return Status(); }

  bool ok() const { return !error_; }
  explicit operator bool() const { return ok(); }
  const ExecError& error() const& {
    assert(!ok() && "Status::error() on success");
    return *error_;
  }
  ExecError&& error() && {
    assert(!ok() && "Status::error() on success");
    return std::move(*error_);
  }

 private:
  std::optional<ExecError> error_;
};

}  // namespace tandem::exec
