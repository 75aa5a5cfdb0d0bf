#include "fabricate/annotate.h"

#include "mc/expr/enum_names.h"

#include <algorithm>
#include <map>
#include <set>

#include "mc/ir/call_graph.h"
#include "mc/ir/ir_printer.h"

namespace tandem::fabricate {

namespace {

constexpr double kProveSeconds = 30;  // per prove run, without --timeout

// The procedures the run covers: the entry and what it calls; every automaton of a closed system.
std::set<ir::CfaId> covered(const ir::Program& p, ir::CfaId entry) {
  std::set<ir::CfaId> out;
  if (entry == ir::kNone) {
    for (ir::CfaId c = 0; c < p.cfas.size(); ++c) out.insert(c);
    return out;
  }
  for (ir::CfaId c : ir::callClosure(p, entry)) out.insert(c);
  return out;
}

// Operands whose evaluation cannot fail, so `no_overflow_add(a, b)` can be evaluated earlier.
bool simple(ExprRef e) {
  switch (e->op) {
    case Op::Var:
    case Op::IntConst:
      return true;
    case Op::Neg:
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
      return std::all_of(e->kids.begin(), e->kids.end(), simple);
    default:
      return false;
  }
}

// The no-overflow conditions of the wrapping `+` and `*` in `e` (not inside old()).
void wrapping(ExprManager& em, TypeRef boolType, ExprRef e, std::vector<ExprRef>& out) {
  if (!e || e->op == Op::Old) return;
  if ((e->op == Op::Add || e->op == Op::Mul) && e->type && e->type->isBitVector() &&
      simple(e->kid(0)) && simple(e->kid(1))) {
    ExprRef c = em.mk(e->op == Op::Add ? Op::NoOverflowAdd : Op::NoOverflowMul, boolType,
                      {e->kid(0), e->kid(1)});
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  for (ExprRef k : e->kids) wrapping(em, boolType, k, out);
}

// The first column of a line that is not blank (1-based).
uint32_t firstColumn(const std::string& line) {
  const size_t i = line.find_first_not_of(" \t");
  return i == std::string::npos ? 0 : static_cast<uint32_t>(i + 1);
}

// Per source line of `cfa`: the no-overflow assumptions of the statement that starts it (a
// statement that does not start its line, or a loop's condition, gets none).
std::map<uint32_t, std::vector<ExprRef>> overflowAssumptions(
    ir::Program& q, ir::CfaId cfa, const std::vector<std::string>& lines) {
  std::map<uint32_t, std::vector<ExprRef>> out;
  for (ir::LocId l : q.cfas[cfa].locs) {
    if (q.locs[l].loopHead) continue;
    for (ir::EdgeId id : q.locs[l].out) {
      const ir::Edge& e = q.edges[id];
      if (!e.loc.valid() || e.loc.line > lines.size() ||
          firstColumn(lines[e.loc.line - 1]) != e.loc.col)
        continue;
      if (e.kind != ir::EdgeKind::Command && e.kind != ir::EdgeKind::Call) continue;
      std::vector<ExprRef> conds;
      TypeRef b = q.types->boolType();
      wrapping(*q.exprs, b, e.guard, conds);
      for (const ir::Assignment& a : e.assigns) wrapping(*q.exprs, b, a.rhs, conds);
      for (ExprRef a : e.args) wrapping(*q.exprs, b, a, conds);
      if (conds.empty()) continue;
      auto& at = out[e.loc.line];
      for (ExprRef c : conds)
        if (std::find(at.begin(), at.end(), c) == at.end()) at.push_back(c);
    }
  }
  return out;
}

struct Attempt {
  symbolic::ProveOnCopy::Outcome outcome;
  std::map<uint32_t, std::string> assumptions;  // line -> condition text (assumed runs)
};

// Proves the assertion `edge` alone on a copy of `p`, with the no-overflow assumptions of its
// procedure when `assumeNoOverflow`.
Attempt proveAlone(const ir::Program& p, const symbolic::ProveOnCopy& hooks, ir::EdgeId edge,
                   bool assumeNoOverflow, const std::vector<std::string>& lines,
                   search::Budget& budget) {
  std::unique_ptr<ir::Program> q = p.clone();
  Attempt a;
  a.outcome.verdict = "unknown";
  ir::assumeAssertions(*q, edge);
  if (assumeNoOverflow) {
    const auto byLine = overflowAssumptions(*q, q->locs[q->edges[edge].from].cfa, lines);
    if (byLine.empty()) return a;  // nothing to assume: no other proof to try
    for (ir::Edge& e : q->edges) {
      auto it = byLine.find(e.loc.line);
      if (it == byLine.end() || q->locs[e.from].cfa != q->locs[q->edges[edge].from].cfa) continue;
      if (e.kind != ir::EdgeKind::Command && e.kind != ir::EdgeKind::Call) continue;
      ExprRef all = q->exprs->mkAnd(std::span<const ExprRef>(it->second));
      e.guard = e.guard ? q->exprs->mkAnd(e.guard, all) : all;
    }
    for (const auto& [line, conds] : byLine)
      a.assumptions[line] = ir::exprToString(*q, q->exprs->mkAnd(std::span<const ExprRef>(conds)));
  }
  a.outcome = hooks.prove(*q, budget.secondsLeft(kProveSeconds));
  return a;
}

// The offset in `text` of (line, col), both 1-based.
size_t offsetOf(const std::vector<std::string>& lines, uint32_t line, uint32_t col) {
  size_t off = 0;
  for (uint32_t i = 0; i + 1 < line; ++i) off += lines[i].size() + 1;
  return off + col - 1;
}

// [begin, end) of the `verified ...` clause of the assertion starting at `at` (begin == end at
// the `;` when it has none); npos when the statement's end is not found.
std::pair<size_t, size_t> premiseSpan(const std::string& text, size_t at) {
  int depth = 0;
  size_t verified = std::string::npos;
  for (size_t i = at; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == std::string::npos) break;
      continue;
    }
    if (ch == '(' || ch == '[') ++depth;
    if (ch == ')' || ch == ']') --depth;
    if (depth == 0 && text.compare(i, 8, "verified") == 0 && i > 0 &&
        std::isspace(static_cast<unsigned char>(text[i - 1])) &&
        (i + 8 >= text.size() || !std::isalnum(static_cast<unsigned char>(text[i + 8]))))
      verified = i;
    if (ch == ';' && depth == 0) {
      size_t b = verified == std::string::npos ? i : verified;
      while (b > at && std::isspace(static_cast<unsigned char>(text[b - 1]))) --b;
      return {b, i};
    }
  }
  return {std::string::npos, std::string::npos};
}

// The rewrite of the model's text: `verified PREMISE` after each assertion, and `assumed C as aN;`
// lines for the no-overflow assumptions a proof needed, each once per (procedure, line).
class Annotator {
 public:
  Annotator(const ir::Program& p, const symbolic::ProveOnCopy& hooks,
            std::vector<std::string> lines)
      : p_(p), hooks_(hooks), lines_(std::move(lines)) {
    for (const std::string& l : lines_) text_ += l + "\n";
    for (const ir::Variable& v : p.vars) taken_.insert(v.name);
  }

  // The assertion on `id` proved alone, else assuming no overflow. Null when the edge is not an
  // `assert` statement as written.
  std::optional<AnnotatedAssertion> annotate(ir::EdgeId id, search::Budget& budget) {
    using Result = AnnotatedAssertion::Result;
    const ir::Edge& e = p_.edges[id];
    const size_t at = offsetOf(lines_, e.loc.line, e.loc.col);
    // Not an `assert` statement as written (or the file changed since it was read).
    if (at >= text_.size() || text_.compare(at, 6, "assert") != 0) return std::nullopt;
    const auto [pb, pe] = premiseSpan(text_, at);
    if (pb == std::string::npos) return std::nullopt;
    AnnotatedAssertion a;
    a.line = e.loc.line;
    a.assertion = e.text;
    a.premise = "false";
    if (budget.pollNow()) {
      a.prove = "not run";
      a.reason = budget.stopped()->reason;
    } else {
      Attempt plain = proveAlone(p_, hooks_, id, false, lines_, budget);
      a.prove = plain.outcome.verdict;
      if (plain.outcome.kind == symbolic::ProveOnCopy::Outcome::Kind::Proved) {
        a.premise = "true";
        a.result = Result::Verified;
      } else if (!budget.pollNow()) {
        Attempt assumed = proveAlone(p_, hooks_, id, true, lines_, budget);
        if (!assumed.assumptions.empty()) a.proveAssumingNoOverflow = assumed.outcome.verdict;
        if (assumed.outcome.kind == symbolic::ProveOnCopy::Outcome::Kind::Proved) {
          a.premise = assume(p_.locs[e.from].cfa, assumed.assumptions);
          a.result = Result::Assumed;
        }
      }
    }
    edits_.push_back({pb, pe, " verified " + a.premise});
    return a;
  }

  // The text with every edit, from the end backwards so that the offsets stay valid.
  std::string text() const {
    std::vector<Edit> edits = edits_;
    std::stable_sort(edits.begin(), edits.end(),
                     [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
    std::string out = text_;
    for (const Edit& ed : edits) out.replace(ed.begin, ed.end - ed.begin, ed.with);
    return out;
  }
  size_t lineCount() const { return lines_.size(); }

 private:
  struct Edit {
    size_t begin, end;
    std::string with;
  };

  // Fresh assumption ids: aN, named nowhere in the program.
  std::string freshId() {
    std::string id;
    do id = "a" + std::to_string(next_++);
    while (taken_.count(id));
    taken_.insert(id);
    return id;
  }

  // The premise naming the assumptions (by line) in procedure `cfa`, added where missing.
  std::string assume(ir::CfaId cfa, const std::map<uint32_t, std::string>& assumptions) {
    std::string premise;
    for (const auto& [line, cond] : assumptions) {
      auto key = std::make_pair(cfa, line);
      auto it = idAt_.find(key);
      if (it == idAt_.end()) {
        it = idAt_.emplace(key, freshId()).first;
        const std::string& l = lines_[line - 1];
        const std::string indent = l.substr(0, l.find_first_not_of(" \t"));
        const size_t start = offsetOf(lines_, line, 1);
        edits_.push_back(
            {start, start,
             indent + "assumed " + cond + " as " + it->second + ";  // tandem prove --annotate\n"});
      }
      premise += (premise.empty() ? "" : " && ") + it->second;
    }
    return premise;
  }

  const ir::Program& p_;
  const symbolic::ProveOnCopy& hooks_;
  std::vector<std::string> lines_;
  std::string text_;
  std::set<std::string> taken_;
  uint32_t next_ = 1;
  std::vector<Edit> edits_;
  std::map<std::pair<ir::CfaId, uint32_t>, std::string> idAt_;  // (procedure, line) -> its id
};

constexpr EnumName<AnnotatedAssertion::Result> kResultNames[] = {
    {AnnotatedAssertion::Result::Verified, "verified"},
    {AnnotatedAssertion::Result::Assumed, "assumed"},
    {AnnotatedAssertion::Result::Unverified, "unverified"}};
}  // namespace

const char* resultName(AnnotatedAssertion::Result r) { return enumName(kResultNames, r); }

Annotation annotateAssertions(const ir::Program& p, ir::CfaId entry, std::vector<std::string> lines,
                              const symbolic::ProveOnCopy& hooks, search::Budget& budget) {
  Annotator annotator(p, hooks, std::move(lines));
  const std::set<ir::CfaId> cfas = covered(p, entry);
  Annotation out;
  for (ir::EdgeId id = 0; id < p.edges.size(); ++id) {
    const ir::Edge& e = p.edges[id];
    if (e.kind != ir::EdgeKind::Assert || e.errorKind != ir::ErrorKind::Assert || !e.loc.valid() ||
        !cfas.count(p.locs[e.from].cfa) || e.loc.line > annotator.lineCount())
      continue;
    if (auto a = annotator.annotate(id, budget)) out.assertions.push_back(std::move(*a));
  }
  out.text = annotator.text();
  return out;
}

}  // namespace tandem::fabricate
