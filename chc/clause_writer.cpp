#include "chc/clause_writer.h"

#include <unordered_set>

#include "chc/unsupported.h"
#include "mc/expr/expr_walk.h"
#include "mc/smt/expr_support.h"
#include "mc/smt/smt_error.h"

namespace tandem::chc {

namespace {

// "main.a[1]" -> "a_1": the variable's own name (as the prestates' symbols have it) without the
// characters SMT-LIB would quote; the symbol's "!<id>" keeps frames apart.
std::string symbolBase(const std::string& name) {
  std::string out;
  const size_t dot = name.rfind('.', name.find('['));
  for (char c : name.substr(dot == std::string::npos ? 0 : dot + 1))
    if (c == '[')
      out += '_';
    else if (c != ']')
      out += c;
  return out;
}

// A comment line: a line break inside would end the comment early.
std::string commentLine(const std::string& text) {
  std::string out = "; ";
  for (char c : text) out += (c == '\n' || c == '\r') ? ' ' : c;
  return out + "\n";
}

std::string application(const std::string& pred, const std::vector<std::string>& args) {
  if (args.empty()) return pred;  // a nullary predicate is a plain symbol
  std::string out = "(" + pred;
  for (const std::string& a : args) out += " " + a;
  return out + ")";
}

}  // namespace

ClauseWriter::ClauseWriter(ExprManager& em, smt::TermNaming naming)
    : em_(em), translator_(std::move(naming)) {}

void ClauseWriter::declare(const std::string& pred, const std::vector<TypeRef>& types,
                           const std::string& comment) {
  std::string sorts;
  for (TypeRef t : types) {
    auto s = smt::scalarSortOf(t);
    if (!s) throw Unsupported("a predicate argument of type " + typeToString(t));
    sorts += (sorts.empty() ? "" : " ") + smt::scalarSortText(*s);
  }
  declarations_.push_back(commentLine(comment) + "(declare-fun " + pred + " (" + sorts +
                          ") Bool)\n");
  bytes_ += declarations_.back().size();
}

std::vector<ExprRef> ClauseWriter::variables(const Atom& a, std::vector<ExprRef>& constraint) {
  std::vector<ExprRef> vars;
  std::unordered_set<ExprRef> used;
  for (size_t i = 0; i < a.args.size(); ++i) {
    ExprRef x = a.args[i];
    if (x->op == Op::Symbol && used.insert(x).second) {
      vars.push_back(x);
      continue;
    }
    ExprRef v = em_.freshSymbol(a.names ? symbolBase((*a.names)[i]) : "a", x->type);
    constraint.push_back(em_.mkEq(v, x));
    vars.push_back(v);
  }
  return vars;
}

bool ClauseWriter::clause(const std::string& comment, const std::optional<Atom>& body,
                          std::vector<ExprRef> constraint, const std::optional<Atom>& head) {
  std::vector<ExprRef> bodyVars, headVars;
  if (body) bodyVars = variables(*body, constraint);
  if (head) headVars = variables(*head, constraint);
  std::vector<ExprRef> roots;
  for (ExprRef c : constraint) {
    if (c->isFalse()) return false;  // the clause holds trivially
    if (c->isTrue()) continue;
    if (mentionsOp(c, Op::Call))
      throw Unsupported("calls inside expressions (natives, pure procedures)");
    roots.push_back(c);
  }
  const size_t conjuncts = roots.size();
  roots.insert(roots.end(), bodyVars.begin(), bodyVars.end());
  roots.insert(roots.end(), headVars.begin(), headVars.end());
  smt::SmtLibTerms t;
  try {
    t = translator_.terms(roots);
  } catch (const smt::SmtUnsupported& e) {
    throw Unsupported(e.what());
  }
  auto text = [&](size_t from, size_t n) {
    return std::vector<std::string>(t.roots.begin() + static_cast<std::ptrdiff_t>(from),
                                    t.roots.begin() + static_cast<std::ptrdiff_t>(from + n));
  };
  std::vector<std::string> parts;
  if (body) parts.push_back(application(body->pred, text(conjuncts, bodyVars.size())));
  parts.insert(parts.end(), t.sides.begin(), t.sides.end());
  for (std::string& c : text(0, conjuncts)) parts.push_back(std::move(c));
  std::string antecedent;
  if (parts.empty()) {
    antecedent = "true";
  } else if (parts.size() == 1) {
    antecedent = parts[0];
  } else {
    antecedent = "(and";
    for (const std::string& p : parts) antecedent += "\n        " + p;
    antecedent += ")";
  }
  std::string lets, closing;
  for (const auto& [name, term] : t.definitions) {
    lets += "(let ((" + name + " " + term + "))\n      ";
    closing += ")";
  }
  const std::string consequent =
      head ? application(head->pred, text(conjuncts + bodyVars.size(), headVars.size())) : "false";
  std::string implication =
      "(=>\n      " + lets + antecedent + closing + "\n      " + consequent + ")";
  std::string out = commentLine(comment) + "(assert\n  ";
  if (t.constants.empty()) {
    out += implication + ")\n";
  } else {
    out += "(forall (";
    for (size_t i = 0; i < t.constants.size(); ++i)
      out += (i ? " (" : "(") + t.constants[i].first + " " + t.constants[i].second + ")";
    out += ")\n    " + implication + "))\n";
  }
  bytes_ += out.size();
  clauses_.push_back(std::move(out));
  return true;
}

std::string ClauseWriter::script(const std::string& header, bool complete) {
  std::string out;
  out.reserve(header.size() + bytes_ + clauses_.size() + 64);
  out += header + "(set-logic HORN)\n\n";
  for (const std::string& d : declarations_) out += d;
  out += "\n";
  for (std::string& c : clauses_) {
    out += c;
    out += "\n";
    std::string().swap(c);  // freed as it goes: the peak stays near one copy of the text
  }
  clauses_.clear();
  if (!complete) return out + "; INCOMPLETE: the system ends here, unsolvable as it is\n";
  return out + "(check-sat)\n(exit)\n";
}

}  // namespace tandem::chc
