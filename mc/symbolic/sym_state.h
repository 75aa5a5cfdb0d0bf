// Symbolic states of the symbolic executor (SPF-style): the shape of exec::State for one thread,
// with values that are expressions (concrete constants or terms over symbols), a path condition,
// and the record of the path that a concrete replay must follow.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "mc/exec/value.h"
#include "mc/ir/program.h"

namespace tandem::symbolic {

// A construct the symbolic executor does not handle: the command says "not implemented yet"
// rather than give a verdict that ignores it.
class NotImplemented : public std::runtime_error {
 public:
  explicit NotImplemented(const std::string& what)
      : std::runtime_error(what + ": not implemented yet in symbolic execution") {}
};

// Formulas whose models are inputs that make the concrete execution follow a path (mixed solving:
// simplePC, extraPC and complexPC with the concrete results; path_solver.h). Null means the path
// condition itself.
using Certificate = std::shared_ptr<const std::vector<ExprRef>>;

// Scalars are expressions; references are concrete addresses (or null), never symbolic; arrays
// have a concrete length and one value per element.
struct SymValue {
  enum class Kind : uint8_t { Scalar, Ref, Array };
  Kind kind = Kind::Scalar;
  ExprRef expr = nullptr;                              // Scalar
  std::optional<exec::Address> addr;                   // Ref: nullopt is null
  std::shared_ptr<const std::vector<SymValue>> elems;  // Array

  static SymValue scalar(ExprRef e) { return SymValue{Kind::Scalar, e, std::nullopt, nullptr}; }
  static SymValue nullRef() { return SymValue{Kind::Ref, nullptr, std::nullopt, nullptr}; }
  static SymValue ref(exec::Address a) {
    return SymValue{Kind::Ref, nullptr, std::move(a), nullptr};
  }
  static SymValue array(std::vector<SymValue> xs) {
    return SymValue{Kind::Array, nullptr, std::nullopt,
                    std::make_shared<const std::vector<SymValue>>(std::move(xs))};
  }
};

struct SymFrame {
  ir::CfaId cfa = ir::kNone;
  ir::LocId pc = ir::kNone;
  std::vector<SymValue> locals;  // by Variable::slot
  ir::EdgeId callEdge = ir::kNone;
  std::shared_ptr<const std::vector<SymValue>> oldGlobals;  // when the CFA uses old()
};

struct SymState {
  std::vector<SymValue> globals;     // by Variable::slot
  std::vector<SymFrame> frames;      // bottom first
  std::vector<ExprRef> pathCond;     // conjuncts, none of them constant true
  Certificate certificate;           // of the last sat answer about pathCond
  std::vector<uint32_t> pathCondAt;  // per conjunct: the number of path edges before it was added
  std::vector<ir::EdgeId> path;      // edges taken from the entry state
  std::vector<ExprRef> havocs;       // havoc symbols, in the order a concrete chooser is asked
  uint32_t depth = 0;                // steps taken

  SymFrame& top() { return frames.back(); }
  const SymFrame& top() const { return frames.back(); }
};

}  // namespace tandem::symbolic
