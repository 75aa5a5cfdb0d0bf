#include "mc/ir/program.h"

#include "mc/expr/enum_names.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace tandem::ir {

namespace {
constexpr EnumName<ErrorKind> kErrorKindNames[] = {
    {ErrorKind::Assert, "assert"},
    {ErrorKind::Invariant, "invariant"},
    {ErrorKind::IndexOutOfBounds, "index-out-of-bounds"},
    {ErrorKind::NullDeref, "null-deref"},
    {ErrorKind::DivByZero, "div-by-zero"},
    {ErrorKind::NegativeSize, "negative-size"},
    {ErrorKind::Deadlock, "deadlock"},
    {ErrorKind::Overflow, "overflow"},
    {ErrorKind::FloatConversion, "float-conversion"}};
}  // namespace

const char* errorKindName(ErrorKind k) { return enumName(kErrorKindNames, k); }

std::optional<ErrorKind> parseErrorKind(const std::string& s) {
  return enumFromName(kErrorKindNames, s);
}

const Cfa* Program::findCfa(const std::string& name) const {
  for (const auto& c : cfas)
    if (c.name == name) return &c;
  return nullptr;
}

CfaId Program::findCfaId(const std::string& name, CfaKind kind) const {
  for (CfaId i = 0; i < cfas.size(); ++i)
    if (cfas[i].name == name && cfas[i].kind == kind) return i;
  return kNone;
}

std::optional<LocId> Program::findLabel(const std::string& label) const {
  for (const auto& l : locs)
    for (const auto& name : l.labels)
      if (name == label) return l.id;
  return std::nullopt;
}

std::string Program::locName(LocId l) const {
  const Location& loc = locs[l];
  if (!loc.labels.empty()) return loc.labels.front();
  const Cfa& c = cfas[loc.cfa];
  // Lowering appends locations in creation order, so c.locs is sorted: a binary search (a linear
  // one per name made `tandem ir` quadratic: 14.6 s for 100,000 statements). The scan is for a
  // program built otherwise.
  auto it = std::lower_bound(c.locs.begin(), c.locs.end(), l);
  if (it == c.locs.end() || *it != l) it = std::find(c.locs.begin(), c.locs.end(), l);
  if (it != c.locs.end()) return c.name + "#" + std::to_string(it - c.locs.begin());
  return "#" + std::to_string(l);
}

CalleePartitions Program::partitionsOf(uint32_t callee) const {
  if (callee >= callees.size()) return {};
  const Callee& c = callees[callee];
  if (c.native) {
    const Native& n = natives[c.index];
    return {n.partitions, n.paramVars};
  }
  const Cfa& f = cfas[c.index];
  return {f.partitions, f.params};
}

std::string Program::calleeName(uint32_t callee) const {
  if (callee >= callees.size()) return "?";
  const Callee& c = callees[callee];
  return c.native ? natives[c.index].name : cfas[c.index].name;
}

std::vector<std::vector<size_t>> Program::initSchedule() const {
  std::unordered_map<VarId, size_t> position;
  for (size_t i = 0; i < globals.size(); ++i) position.emplace(globals[i], i + 1);
  std::vector<std::vector<size_t>> due(globals.size() + 1);
  for (size_t k = 0; k < inits.size(); ++k) {
    size_t after = 0;
    for (uint32_t v : freeVars(inits[k]))
      if (auto it = position.find(v); it != position.end()) after = std::max(after, it->second);
    due[after].push_back(k);
  }
  return due;
}

void assumeAssertions(Program& p, EdgeId keep) {
  for (EdgeId id = 0; id < p.edges.size(); ++id) {
    Edge& e = p.edges[id];
    if (e.kind != EdgeKind::Assert || id == keep) continue;
    e.kind = EdgeKind::Command;
    e.guard = e.cond;
    e.cond = nullptr;
  }
}

VarId Program::addVariable(std::string name, TypeRef type, VarScope scope, CfaId owner,
                           uint32_t slot) {
  Variable v;
  v.name = std::move(name);
  v.type = type;
  v.scope = scope;
  v.owner = owner;
  v.slot = slot;
  vars.push_back(std::move(v));
  return static_cast<VarId>(vars.size() - 1);
}

// Iterative: a generated model may have long chains of states.
void linkEdges(Program& p) {
  for (EdgeId i = 0; i < p.edges.size(); ++i) p.locs[p.edges[i].from].out.push_back(i);
  std::vector<uint8_t> state(p.locs.size(), 0);  // 0 new, 1 on the stack, 2 done
  for (CfaId pc : p.processes) {
    const LocId entry = p.cfas[pc].entry;
    if (entry == kNone) continue;
    std::vector<std::pair<LocId, size_t>> stack{{entry, 0}};
    state[entry] = 1;
    while (!stack.empty()) {
      auto& [l, next] = stack.back();
      if (next == p.locs[l].out.size()) {
        state[l] = 2;
        stack.pop_back();
        continue;
      }
      const LocId to = p.edges[p.locs[l].out[next++]].to;
      if (state[to] == 1) {
        p.locs[to].loopHead = true;
      } else if (state[to] == 0) {
        state[to] = 1;
        stack.emplace_back(to, 0);
      }
    }
  }
}

}  // namespace tandem::ir
