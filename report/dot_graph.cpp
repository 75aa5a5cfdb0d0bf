#include "report/dot_graph.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <ostream>
#include <set>

#include "report/trace_steps.h"

namespace tandem::report {

namespace {

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\')
      o += std::string("\\") + c;
    else if (c == '\n')
      o += "\\n";
    else
      o += c;
  }
  return o;
}

// `P1@A P2@C` (the language's own `P@L`), then one variable per line.
std::string stateLabel(const ir::Program& p, const exec::State& s) {
  std::string where;
  for (exec::ThreadId t = 0; t < s.threads.size(); ++t)
    where += (t ? " " : "") + threadName(p, s, t) + "@" + p.locName(s.threads[t].top().pc);
  std::string label = where;
  for (const auto& [k, v] : stateValues(p, s)) label += "\n" + k + " = " + v;
  return label;
}

std::string moveLabel(const ir::Program& p, const exec::State& before, const search::Move& m) {
  std::string who = m.thread < before.threads.size() ? threadName(p, before, m.thread) + ": " : "";
  return who + moveStatement(p, before, m);
}

void legend(std::ostream& out, const std::vector<std::string>& lines) {
  out << "  subgraph cluster_legend {\n    label=\"legend\"; style=dashed; "
         "fontname=\"monospace\";\n"
      << "    node [shape=plaintext, fontname=\"monospace\", fontsize=9];\n"
      << "    legend [label=\"";
  for (const auto& l : lines) out << esc(l) << "\\l";
  out << "\"];\n  }\n";
}

}  // namespace

void writeCheckDot(std::ostream& out, const CheckGraph& g) {
  const ir::Program& p = g.program;
  using Id = search::StateStore::Id;
  const search::ExploreResult& r = g.result;
  const size_t total = g.store.size();
  const bool failed =
      r.outcome == search::Outcome::ErrorFound || r.outcome == search::Outcome::Deadlock;
  // The error path: the states from an initial one to the state the error was found from.
  std::vector<Id> path;
  if (failed)
    for (Id id = r.errorSource; id != search::StateStore::kNoParent; id = g.store.parent(id))
      path.push_back(id);
  std::reverse(path.begin(), path.end());
  std::set<Id> nodes(path.begin(), path.end());
  for (Id id = 0; id < std::min(total, g.limit); ++id) nodes.insert(id);
  std::set<std::pair<Id, Id>> onPath;
  for (size_t i = 0; i + 1 < path.size(); ++i) onPath.insert({path[i], path[i + 1]});

  out << "digraph states {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
      << "  edge [fontname=\"monospace\", fontsize=9];\n";
  std::map<Id, exec::State> decoded;
  for (Id id : nodes) {
    exec::State s = g.codec.decode(g.store.get(id));
    std::string label = stateLabel(p, s);
    const bool deadlocked = r.outcome == search::Outcome::Deadlock && id == r.errorSource;
    if (deadlocked) label += "\ndeadlock: no process can move";
    out << "  s" << id << " [label=\"" << esc(label) << "\"";
    if (g.store.parent(id) == search::StateStore::kNoParent) out << ", penwidth=2";
    if (std::find(path.begin(), path.end(), id) != path.end()) out << ", color=red";
    if (deadlocked) out << ", style=filled, fillcolor=\"#ffd0d0\"";
    out << "];\n";
    decoded.emplace(id, std::move(s));
  }
  auto edge = [&](Id a, const std::string& to, const search::Move& m, bool red) {
    out << "  s" << a << " -> " << to << " [label=\"" << esc(moveLabel(p, decoded.at(a), m)) << "\""
        << (red ? ", color=red, fontcolor=red, penwidth=2" : "") << "];\n";
  };
  std::set<std::pair<Id, Id>> drawn;
  for (const auto& e : r.graph)
    if (nodes.count(e.from) && nodes.count(e.to) && drawn.insert({e.from, e.to}).second)
      edge(e.from, "s" + std::to_string(e.to), e.move, onPath.count({e.from, e.to}) > 0);
  // Path edges the recording did not keep (past the limit): their moves are the trace's.
  if (g.trace)
    for (size_t i = 0; i + 1 < path.size() && i < g.trace->steps.size(); ++i)
      if (drawn.insert({path[i], path[i + 1]}).second)
        edge(path[i], "s" + std::to_string(path[i + 1]), g.trace->steps[i].move, true);
  // The error: a node of its own (an invariant: the state that violates it), reached from the
  // last state of the path by the failing move.
  if (r.outcome == search::Outcome::ErrorFound && r.error) {
    std::string label = std::string("error: ") + ir::errorKindName(r.error->kind);
    if (r.error->loc.line) label += " (line " + std::to_string(r.error->loc.line) + ")";
    label += "\n" + r.error->message;
    if (g.trace && !g.trace->steps.empty() && r.error->kind == ir::ErrorKind::Invariant)
      label += "\n" + stateLabel(p, g.trace->steps.back().after);
    out << "  error [label=\"" << esc(label)
        << "\", color=red, style=filled, fillcolor=\"#ffd0d0\", penwidth=2];\n";
    if (r.errorSource != search::StateStore::kNoParent)
      edge(r.errorSource, "error", r.error->move, true);
  }
  std::vector<std::string> lines = {"box: a state (each process@location, then the variables)",
                                    "bold box: an initial state",
                                    "edge: process: the statement it runs"};
  if (failed) {
    const size_t steps = (path.empty() ? 0 : path.size() - 1) +
                         (r.outcome == search::Outcome::ErrorFound && !path.empty() ? 1 : 0);
    lines.push_back("red: the counterexample (" + std::to_string(steps) + " steps) and the error");
  }
  if (total > g.limit) {
    lines.push_back("truncated: the first " + std::to_string(g.limit) + " of " +
                    std::to_string(total) + " states (--dot-max-states)");
  }
  legend(out, lines);
  out << "}\n";
}

void writeProveDot(std::ostream& out, const fabricate::ProveResult& r,
                   const abstraction::Abstraction& abs) {
  out << "digraph abstract_states {\n  node [shape=box, fontname=\"monospace\"];\n";
  for (size_t i = 0; i < r.nodes.size(); ++i) {
    const auto& n = r.nodes[i];
    out << "  a" << i << " [label=\"" << esc(abs.locationText(n.state.pcs)) << "\\n"
        << esc(abs.formulaText(n.state)) << "\"";
    if (n.error) out << ", color=red, penwidth=2";
    if (n.fabricated) out << ", style=dashed";
    out << "];\n";
  }
  for (const auto& e : r.edges)
    out << "  a" << e.from << " -> a" << e.to << (e.fabricated ? " [style=dashed]" : "") << ";\n";
  legend(out, {"box: an abstract state (the locations, then the predicates that hold)",
               "solid edge: a concrete execution step between the abstract states",
               "dashed edge: the strongest postcondition left the source's states; the target",
               "  holds the state fabricated from the solver's model",
               "dashed box: first reached by executing from a fabricated state",
               "red box: a tracked error happens from one of its states"});
  out << "}\n";
}

void writeCheckDotFile(const std::string& path, const CheckGraph& g, std::ostream* diag) {
  std::ofstream out(path);
  if (!out) throw inputError(path, "cannot write --dot file '" + path + "'");
  writeCheckDot(out, g);
  if (!out.flush()) throw inputError(path, "cannot write --dot file '" + path + "'");
  if (diag && g.store.size() > g.limit)
    *diag << "tandem: --dot: the graph has " << g.store.size() << " states; " << path
          << " shows the first " << g.limit
          << (g.result.errorSource != search::StateStore::kNoParent ? " and the error path" : "")
          << " (--dot-max-states N draws more)\n";
}

void writeProveDotFile(const std::string& path, const fabricate::ProveResult& r,
                       const abstraction::Abstraction& abs) {
  std::ofstream out(path);
  if (!out) throw inputError(path, "cannot write --dot file '" + path + "'");
  writeProveDot(out, r, abs);
  if (!out.flush()) throw inputError(path, "cannot write --dot file '" + path + "'");
}

}  // namespace tandem::report
