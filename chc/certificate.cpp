#include "chc/certificate.h"

#include <set>

#include "chc/unsupported.h"
#include "mc/smt/smt_error.h"

namespace tandem::chc {

CertificateWriter::CertificateWriter(smt::TermNaming naming) : translator_(std::move(naming)) {}

void CertificateWriter::define(const std::string& pred, const std::vector<ExprRef>& params,
                               ExprRef body, const std::string& comment) {
  std::vector<ExprRef> roots{body};
  for (ExprRef x : params) {
    if (x->op != Op::Symbol) throw Unsupported("a certificate over a non-symbol argument");
    roots.push_back(x);
  }
  smt::SmtLibTerms t;
  try {
    t = translator_.terms(roots);
  } catch (const smt::SmtUnsupported& e) {
    throw Unsupported(e.what());
  }
  // The leaves' sorts by name; the parameters' names are their roots' text.
  std::set<std::string> paramNames(t.roots.begin() + 1, t.roots.end());
  std::string sig, bound;
  for (size_t i = 1; i < t.roots.size(); ++i)
    for (const auto& [name, sort] : t.constants)
      if (name == t.roots[i]) sig += (sig.empty() ? "(" : " (") + name + " " + sort + ")";
  for (const auto& [name, sort] : t.constants)
    if (!paramNames.count(name)) bound += (bound.empty() ? "(" : " (") + name + " " + sort + ")";
  std::string formula = t.roots[0];
  if (!t.sides.empty()) {
    formula = "(and";
    for (const std::string& s : t.sides) formula += " " + s;
    formula += " " + t.roots[0] + ")";
  }
  std::string lets, closing;
  for (const auto& [name, term] : t.definitions) {
    lets += "(let ((" + name + " " + term + "))\n    ";
    closing += ")";
  }
  formula = lets + formula + closing;
  if (!bound.empty()) formula = "(exists (" + bound + ")\n    " + formula + ")";
  std::string c;
  for (char ch : comment) c += (ch == '\n' || ch == '\r') ? ' ' : ch;
  defs_.push_back("; " + c + "\n(define-fun " + pred + " (" + sig + ") Bool\n  " + formula + ")\n");
}

std::string CertificateWriter::text(const std::string& header) const {
  std::string out = header;
  for (const std::string& d : defs_) out += d;
  return out;
}

}  // namespace tandem::chc
