// `prove --annotate OUT.tdm`: the engine's side of fabricate/annotate.h (which says what the
// annotations are): a fresh copy of the model is the file read again, a prove run is the
// command's `prove` on it, and the report gets one entry per assertion.
#pragma once

#include <vector>

#include "engine/request.h"
#include "fabricate/annotate.h"
#include "mc/ir/program.h"
#include "mc/search/driver/budget.h"

namespace tandem::engine {

// Writes r.annotate; returns what became of each assertion.
std::vector<fabricate::AnnotatedAssertion> annotateAssertions(const ir::Program& p,
                                                              const ProveRequest& r,
                                                              search::Budget& budget);

}  // namespace tandem::engine
