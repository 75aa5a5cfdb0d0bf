#include "engine/prove_annotate.h"

#include <fstream>
#include <sstream>

#include "engine/api.h"
#include "engine/prove_on_copy.h"
#include "engine/setup.h"
#include "fabricate/annotate.h"
#include "mc/lang/input_file.h"

namespace tandem::engine {

namespace {

std::vector<std::string> readLines(const std::string& file) {
  std::string why;
  std::istringstream in(readInputFile(file, why).value_or(""));  // read and checked once before
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// The command's request for one assertion's run: quiet, assertions the only checks, no output.
ProveRequest aloneRequest(const ProveRequest& r, double seconds) {
  ProveRequest pr = r;
  pr.annotate.clear();
  pr.dot.clear();
  pr.checkProof = false;
  pr.certificate.clear();
  pr.refine = false;  // as before refinement was on by default: the paper's method per assertion
  pr.progress = nullptr;
  pr.diag = nullptr;
  pr.quiet = true;
  pr.keepMemory = false;
  pr.tracked = {};
  pr.tracked[static_cast<size_t>(ir::ErrorKind::Assert)] = true;
  pr.limits.timeoutSeconds = seconds;
  return pr;
}

}  // namespace

std::vector<fabricate::AnnotatedAssertion> annotateAssertions(const ir::Program& p,
                                                              const ProveRequest& r,
                                                              search::Budget& budget) {
  const symbolic::ProveOnCopy hooks =
      proveOnCopy([&r](double seconds) { return aloneRequest(r, seconds); });
  const fabricate::Annotation a =
      fabricate::annotateAssertions(p, entryOf(r, p), readLines(r.file), hooks, budget);
  std::ofstream f(r.annotate);
  if (!(f << a.text).flush()) throw inputError(r.annotate, "cannot write " + r.annotate);
  return a.assertions;
}

}  // namespace tandem::engine
