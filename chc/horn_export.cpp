#include "chc/horn_export.h"

#include <deque>
#include <map>
#include <memory>
#include <set>

#include "abstraction/abstraction.h"
#include "chc/certificate.h"
#include "chc/clause_writer.h"
#include "chc/state_layout.h"
#include "chc/unsupported.h"
#include "mc/smt/term_naming.h"
#include "mc/symbolic/fragments.h"

namespace tandem::chc {

namespace {

using symbolic::FragmentEnd;

// "P1@A, P2@B" -> "inv_P1.A_P2.B": a simple SMT-LIB symbol without '!', so it never meets the
// names of the clauses' variables (ExprManager symbols end in "!<id>").
std::string predicateName(const std::string& locations) {
  std::string out = "inv_";
  for (char c : locations) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
      out += c;
    else if (c == '@' || c == '#')
      out += '.';
    else if (c == ',' || c == '>')
      out += '_';
  }
  return out;
}

class Exporter {
 public:
  Exporter(const ir::Program& p, const exec::Evaluator& ev, const HornOptions& o)
      : p_(p),
        o_(o),
        abs_(p, ev, {}),
        sev_(p, ev),
        frag_(p, sev_, ir::computeCutpoints(p, o.cutpoints), o.tracked),
        w_(*p.exprs, smt::programNaming(p)),
        cert_(smt::programNaming(p)) {}

  HornSystem run();

 private:
  struct Predicate {
    std::string name;
    uint64_t depth = 0;           // location vectors from the initial one
    std::vector<SymConfig> pres;  // one per reference combination
    std::unique_ptr<StateLayout> layout;
  };
  Predicate& predicateAt(const std::vector<ir::LocId>& pcs, uint64_t depth);
  // A bound or an interrupt: the export stops and says why.
  bool outOfBudget();
  void clausesFrom(const std::vector<ir::LocId>& pcs);
  std::string describe(const exec::ExecError& e) const;

  const ir::Program& p_;
  const HornOptions& o_;
  abstraction::Abstraction abs_;
  symbolic::SymEvaluator sev_;
  symbolic::FragmentBuilder frag_;
  ClauseWriter w_;
  CertificateWriter cert_;
  std::map<std::vector<ir::LocId>, Predicate> preds_;
  std::set<std::string> names_;
  std::deque<std::vector<ir::LocId>> work_;
  HornSystem out_;
};

bool Exporter::outOfBudget() {
  if (!out_.incomplete.empty()) return true;
  search::Budget* b = o_.budget;
  if (!b) return false;
  bool stop = b->poll() || b->statesExhausted();
  // The finished script is the text again, and the report copies it twice more: keep room.
  if (!stop && b->limits().memoryLimitMb) stop = b->wouldExceedMemory(3 * w_.bytes());
  if (!stop) return false;
  if (!b->stopped()) b->stop(search::StopKind::States);
  out_.incomplete = b->stopped()->reason;
  return true;
}

Exporter::Predicate& Exporter::predicateAt(const std::vector<ir::LocId>& pcs, uint64_t depth) {
  auto it = preds_.find(pcs);
  if (it != preds_.end()) return it->second;
  if (o_.budget) o_.budget->chargeState();
  Predicate pr;
  pr.depth = depth;
  const std::string where = abs_.locationText(pcs);
  pr.name = predicateName(where);
  for (unsigned n = 1; names_.count(pr.name); ++n)
    pr.name = predicateName(where) + "_" + std::to_string(n);
  names_.insert(pr.name);
  pr.pres = frag_.prestates(pcs);
  pr.layout = std::make_unique<StateLayout>(p_, sev_, pr.pres);
  std::string over;
  for (const std::string& n : pr.layout->names()) over += (over.empty() ? "" : " ") + n;
  w_.declare(pr.name, pr.layout->types(), where + " (" + over + ")");
  if (o_.invariant) {
    // One prestate per reference combination: the definition would need a case per code.
    if (pr.pres.size() != 1) throw Unsupported("a certificate for a program with references");
    cert_.define(pr.name, pr.layout->args(pr.pres[0]), o_.invariant(pr.pres[0]), where);
  }
  out_.maxArity = std::max(out_.maxArity, pr.layout->types().size());
  work_.push_back(pcs);
  return preds_.emplace(pcs, std::move(pr)).first->second;
}

std::string Exporter::describe(const exec::ExecError& e) const {
  return std::string(ir::errorKindName(e.kind)) + " (line " + std::to_string(e.loc.line) +
         "): " + e.message;
}

void Exporter::clausesFrom(const std::vector<ir::LocId>& pcs) {
  // The map's nodes stay put while predicateAt adds others.
  const Predicate& from = preds_.at(pcs);
  const std::string where = abs_.locationText(pcs);
  const bool invariants = o_.tracked[static_cast<size_t>(ir::ErrorKind::Invariant)];
  ExprManager& em = *p_.exprs;
  if (o_.budget && o_.budget->depthExceeded(from.depth)) {
    if (out_.incomplete.empty())
      out_.incomplete = search::depthBoundReason(*o_.budget->limits().maxDepth);
    return;
  }
  for (const SymConfig& pre : from.pres) {
    if (outOfBudget()) return;
    const Atom body{from.name, from.layout->args(pre), &from.layout->names()};
    for (const ir::Property& inv : p_.invariants) {
      if (!invariants) break;
      std::vector<symbolic::Obligation>
          ignored;  // as prove: the property's own checks do not count
      ExprRef v = sev_.eval(abs_.foldLocations(inv.expr, pre.pcs), pre.st, ignored).expr;
      if (v->isTrue()) continue;
      if (w_.clause("invariant '" + inv.name + "' at " + where, body, {em.mkNot(v)}, std::nullopt))
        ++out_.queryClauses;
    }
    for (const FragmentEnd& end : frag_.fragments(pre)) {
      // Per clause: one location vector of 255 processes writes 255 clauses of 500 arguments
      // (export_chc_overshoot_p255.tdm ended 55 s after --timeout 20).
      if (outOfBudget()) return;
      switch (end.kind) {
        case FragmentEnd::Kind::Terminated:
          continue;
        case FragmentEnd::Kind::Error:
          if (w_.clause(describe(*end.error) + ", from " + where, body, end.pathCond, std::nullopt))
            ++out_.queryClauses;
          continue;
        case FragmentEnd::Kind::Cutpoint: {
          const Predicate& to = predicateAt(end.post.pcs, from.depth + 1);
          if (w_.clause(where + " -> " + abs_.locationText(end.post.pcs), body, end.pathCond,
                        Atom{to.name, to.layout->args(end.post), &to.layout->names()}))
            ++out_.stepClauses;
          continue;
        }
      }
    }
  }
}

HornSystem Exporter::run() {
  std::vector<ExprRef> initCond;
  std::vector<FragmentEnd> failing;  // failing initialisers: errors without a step
  SymConfig c0 = frag_.initialConfig(o_.entry, initCond, &failing);
  for (FragmentEnd& e : failing) {
    SymConfig inputs = c0;  // the same input symbols, in the same element form
    inputsToElementForm(p_, sev_, inputs, e.pathCond);
    if (w_.clause(describe(*e.error) + ", in an initialiser", std::nullopt, e.pathCond,
                  std::nullopt))
      ++out_.queryClauses;
  }
  // No locations: no initial state exists (every way to start fails), only the queries above.
  if (!c0.pcs.empty()) {
    inputsToElementForm(p_, sev_, c0, initCond);
    if (!frag_.isCutpoint(c0.pcs))
      throw Unsupported("initial locations that are not cutpoints (" + abs_.locationText(c0.pcs) +
                        ")");
    const Predicate& init = predicateAt(c0.pcs, 0);
    if (w_.clause("initial states", std::nullopt, initCond,
                  Atom{init.name, init.layout->args(c0), &init.layout->names()}))
      ++out_.initClauses;
  }
  while (!work_.empty() && !outOfBudget()) {
    std::vector<ir::LocId> pcs = std::move(work_.front());
    work_.pop_front();
    clausesFrom(pcs);
  }
  out_.predicates = preds_.size();
  out_.clauses = w_.clauses();
  std::string header = "; " + p_.file + ": Horn clauses written by tandem export-chc\n";
  header += "; sat: the program is safe; unsat: an error is reachable\n";
  if (!out_.incomplete.empty())
    header += "; INCOMPLETE (" + out_.incomplete +
              "): clauses of the location vectors not reached yet are missing, so `sat` proves "
              "nothing\n";
  // A run the budget stopped (time, memory, a signal, --max-states) prints no clauses: hundreds of
  // MB took seconds past the bound to print, and a part proves nothing. A --max-depth cut does.
  const bool stopped = o_.budget && o_.budget->stopped();
  if ((o_.text && !stopped) || out_.incomplete.empty())
    out_.text = w_.script(header, out_.incomplete.empty());
  if (o_.invariant && out_.incomplete.empty()) out_.certificate = cert_.text("");
  return std::move(out_);
}

}  // namespace

HornSystem exportHorn(const ir::Program& p, const exec::Evaluator& ev, const HornOptions& o) {
  return Exporter(p, ev, o).run();
}

}  // namespace tandem::chc
