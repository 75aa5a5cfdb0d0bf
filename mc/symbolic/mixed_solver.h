// Mixed concrete-symbolic solving (Pasareanu, Rungta, Visser, "Symbolic Execution with Mixed
// Concrete-Symbolic Solving", ISSTA'11, Sect. 3). A path condition PC is split into simplePC (the
// conjuncts without complex terms, complex_terms.h) and complexPC (the others). mixedIsSatisfiable:
//   1. simplePC unsat: PC is unsat. Unknown: PC is unknown.
//   2. Take a solution of simplePC (a minimised model, so both back ends take the same one), run
//      the complex terms concretely on it, and build
//        extraPC   = the solution's equalities for every symbol inside a complex term (Sect. 3.2:
//                    without them, a solution of the substituted complexPC may not match the
//                    values the concrete results were computed from),
//        complexPC' = complexPC with each complex term replaced by its concrete result.
//   3. simplePC /\ extraPC /\ complexPC' sat: PC is sat, and that formula is the certificate whose
//      models are test inputs that follow the path. Otherwise retry with the listed heuristics, in
//      at most maxTries rounds; each round gives every listed heuristic that still has something
//      to try one try, in the order of the list (so one heuristic alone behaves as it did alone):
//        incremental  add the negation of every extraPC it tried so far (the first solution's
//                     included) to simplePC (a new solution); when no solution is left, PC is
//                     unsat (every candidate was refuted by its own tries);
//        partition    add one `partition(...)` condition of a called native or @concrete
//                     procedure (its parameters replaced by the call's arguments) per try;
//        random       Sect. 3.5, random solving: for each symbol inside a complex term a random
//                     value (seeded), kept when simplePC allows it (checked only when simplePC
//                     mentions the symbol); otherwise a second value drawn in the range of
//                     simplePC's solutions near the random range, and when simplePC refuses that
//                     too, simplePC's solution nearest to it (above or below, by a coin). Symbols
//                     that simplePC does not mention thus get plain random values, as before;
//                     a symbol that simplePC only bounds by constants is drawn inside the
//                     bounds without a query.
//      A try with every complex symbol pinned first runs complexPC': a conjunct false on those
//      values refutes it without a query (what makes 1000 random tries cheap).
//      The first try to answer sat ends the query; so does incremental's unsat. A heuristic with
//      nothing left to try (partition out of conditions, incremental out of solutions after an
//      unknown or a failed concrete run) drops out of the later rounds.
//   4. All tries failed: the query is undecided (reported, never taken as unsat).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/symbolic/path_solver.h"

namespace tandem::symbolic {

enum class Heuristic : uint8_t { Incremental, Partition, Random };
const char* heuristicName(Heuristic h);
std::optional<Heuristic> parseHeuristic(std::string_view name);
// "incremental,partition": the names joined by commas, in order (the report's `heuristic`).
std::string heuristicListName(std::span<const Heuristic> list);
// A list of heuristics as --heuristic takes it: comma-separated names, in the order to try them.
// nullopt, with `error` set, for an empty list, an empty or unknown name or a repeated one.
std::optional<std::vector<Heuristic>> parseHeuristicList(std::string_view text,
                                                         std::string* error = nullptr);

// --paper-defaults' rounds of tries (random solving). The paper does not give its number; random
// tries are cheap (a draw inside interval slices asks nothing, and a try refuted by running
// complexPC' asks nothing), and on models/issta11/tsafe.tdm, 10 seeds, all five targets were
// covered in 0/10 trials with 10 rounds, 1/10 with 100, 9/10 with 300 and 10/10 with 1000
// (about 4.5 s each; docs/symbolic.md).
inline constexpr uint64_t kPaperMaxTries = 1000;

struct MixedOptions {
  std::vector<Heuristic> heuristics{Heuristic::Incremental};  // tried in this order each round
  uint64_t maxTries = 10;  // rounds of the heuristics after the first solution
  uint64_t seed = 0;       // random heuristic
};

// The split of a path condition (ISSTA'11 Sect. 3.1); conjunctions are flattened first.
struct SplitPc {
  std::vector<ExprRef> simple;          // simplePC: conjuncts without complex terms
  std::vector<ExprRef> complex;         // complexPC: conjuncts with complex terms
  std::vector<ExprRef> complexTerms;    // maximal complex subterms of `complex`
  std::vector<ExprRef> complexSymbols;  // the symbols inside them (extraPC pins these)
};
SplitPc splitPathCondition(std::span<const ExprRef> pc);

// `concrete` runs the complex terms (natives, @concrete procedures) and names their partitions.
std::unique_ptr<PathSolver> makeMixedPathSolver(smt::Solver& solver,
                                                const exec::Evaluator& concrete,
                                                const MixedOptions& options);

}  // namespace tandem::symbolic
