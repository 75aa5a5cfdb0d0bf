#include "mc/dve/lower.h"

#include <map>
#include <utility>

#include "mc/dve/lower_expr.h"
#include "mc/ir/channels.h"

namespace tandem::dve {

namespace {

// Arrays longer than this are surely a mistake in a DVE model (and would only exhaust memory).
constexpr int64_t kMaxArrayLength = 1 << 16;

class Lowerer {
 public:
  Lowerer(const Model& m, ir::Program& p, Diagnostics& d)
      : m_(m), p_(p), d_(d), ex_(p, syms_, d), channels_(p) {}

  bool run() {
    p_.endStates = false;  // DiVinE: every state without successors is a deadlock
    if (m_.processes.empty()) {
      d_.error({1, 1}, "a DVE model needs at least one process");
      return false;
    }
    for (const VarDecl& v : m_.globals) declare(v, syms_.globals, nullptr, ir::kNone);
    for (const Process& proc : m_.processes) declareProcess(proc);
    // After every variable: syms_.isByte is indexed by the variables declared above.
    declareChannels();
    if (d_.hasErrors()) return false;
    for (const Process& proc : m_.processes) lowerTransitions(proc, syms_.procs.at(proc.name));
    ir::linkEdges(p_);
    return !d_.hasErrors();
  }

 private:
  // A variable or constant of `scope`: a global (`self` null) or a local of `self`.
  void declare(const VarDecl& d, Scope& scope, ProcSym* self, ir::CfaId owner) {
    if (scope.vars.count(d.name) || scope.consts.count(d.name)) {
      d_.error(d.loc, "'" + d.name + "' is already declared");
      return;
    }
    if (!d.size && d.braced) {
      d_.error(d.loc, "scalar '" + d.name + "' cannot take a '{...}' initialiser");
      return;
    }
    if (d.size && d.hasInit && !d.braced) {
      d_.error(d.loc, "array '" + d.name + "' needs a '{...}' initialiser");
      return;
    }
    if (d.isConst && !d.size) {
      if (!d.hasInit) {
        d_.error(d.loc, "constant '" + d.name + "' needs a value");
        return;
      }
      auto v = ex_.constant(*d.init[0], self, "the value of '" + d.name + "'");
      if (v) scope.consts[d.name] = ExprLowerer::wrapConstant(BigInt(*v), d.isByte);
      return;
    }
    int64_t length = -1;
    if (d.size) {
      auto n = ex_.constant(*d.size, self, "the length of '" + d.name + "'");
      if (!n) return;
      if (*n < 1 || *n > kMaxArrayLength) {
        d_.error(d.size->loc, "the length of '" + d.name + "' must be in 1.." +
                                  std::to_string(kMaxArrayLength) + ", got " + std::to_string(*n));
        return;
      }
      length = *n;
    }
    // Initialisers beyond the length are ignored (anderson's `byte Slot[3] = {1, 0, 0, 0};`);
    // missing ones are 0, as are uninitialised variables.
    std::vector<ExprRef> values;
    size_t count = length < 0 ? 1 : static_cast<size_t>(length);
    for (size_t i = 0; i < count; ++i) {
      int64_t v = 0;
      if (i < d.init.size())
        if (auto c = ex_.constant(*d.init[i], self, "the initialiser of '" + d.name + "'"))
          v = ExprLowerer::wrapConstant(BigInt(*c), d.isByte);
      values.push_back(p_.exprs->intConst(BigInt(v)));
    }
    TypeTable& tt = *p_.types;
    ir::Variable var;
    var.name = d.name;
    var.type = length < 0 ? tt.intType() : tt.arrayOf(tt.intType(), length);
    var.scope = self ? ir::VarScope::ProcessLocal : ir::VarScope::Global;
    var.owner = owner;
    var.init = length < 0 ? values[0] : p_.exprs->mk(Op::ArrayLit, var.type, std::move(values));
    var.loc = d.loc;
    auto id = static_cast<ir::VarId>(p_.vars.size());
    if (self) {
      ir::Cfa& c = p_.cfas[owner];
      var.slot = static_cast<uint32_t>(c.processLocals.size());
      c.processLocals.push_back(id);
    } else {
      var.slot = static_cast<uint32_t>(p_.globals.size());
      p_.globals.push_back(id);
    }
    p_.vars.push_back(std::move(var));
    syms_.isByte.push_back(d.isByte);
    scope.vars[d.name] = VarSym{id, d.isByte, d.isConst, length};
  }

  void declareProcess(const Process& proc) {
    if (syms_.procs.count(proc.name)) {
      d_.error(proc.loc, "process '" + proc.name + "' is already declared");
      return;
    }
    auto cfaId = static_cast<ir::CfaId>(p_.cfas.size());
    ir::Cfa c;
    c.name = proc.name;
    c.kind = ir::CfaKind::Process;
    c.instances = 1;
    p_.cfas.push_back(std::move(c));
    ProcSym& ps = syms_.procs[proc.name];
    ps.name = proc.name;
    ps.index = static_cast<uint32_t>(p_.processes.size());
    ps.cfa = cfaId;
    p_.processes.push_back(cfaId);
    for (const State& s : proc.states) {
      if (ps.states.count(s.name)) {
        d_.error(s.loc, "state '" + s.name + "' is already declared");
        continue;
      }
      ir::Location l;
      l.id = static_cast<ir::LocId>(p_.locs.size());
      l.cfa = cfaId;
      l.labels.push_back(s.name);
      l.loc = s.loc;
      ps.states[s.name] = l.id;
      p_.cfas[cfaId].locs.push_back(l.id);
      p_.locs.push_back(std::move(l));
    }
    if (proc.init.empty()) {
      d_.error(proc.loc, "process '" + proc.name + "' has no 'init' state");
    } else if (auto it = ps.states.find(proc.init); it == ps.states.end()) {
      d_.error(proc.initLoc, "process '" + proc.name + "' has no state '" + proc.init + "'");
    } else {
      p_.cfas[cfaId].entry = it->second;
      p_.locs[it->second].isEntry = true;
    }
    for (const VarDecl& v : proc.vars) declare(v, ps.locals, &ps, cfaId);
  }

  // Untyped channels carry one value or none, as their syncs use them (all alike).
  void declareChannels() {
    std::map<std::string, std::pair<size_t, SourceLoc>> arity;
    for (const Process& proc : m_.processes)
      for (const Transition& t : proc.trans) {
        if (!t.sync.present) continue;
        auto [it, isNew] = arity.try_emplace(t.sync.channel, t.sync.items.size(), t.sync.loc);
        if (!isNew && it->second.first != t.sync.items.size())
          d_.error(t.sync.loc, "channel '" + t.sync.channel + "' carries " +
                                   std::to_string(it->second.first) + " value(s) at line " +
                                   std::to_string(it->second.second.line) + " but " +
                                   std::to_string(t.sync.items.size()) + " here");
      }
    for (const ChannelDecl& c : m_.channels) {
      if (channelIds_.count(c.name) || syms_.globals.vars.count(c.name) ||
          syms_.globals.consts.count(c.name)) {
        d_.error(c.loc, "'" + c.name + "' is already declared");
        continue;
      }
      ir::Channel ch;
      ch.name = c.name;
      ch.loc = c.loc;
      if (c.capacity) {
        auto n = ex_.constant(*c.capacity, nullptr, "the buffer size of '" + c.name + "'");
        if (!n) continue;
        if (*n < 0 || *n > 4096) {
          d_.error(c.capacity->loc, "the buffer size of '" + c.name + "' must be in 0..4096");
          continue;
        }
        ch.capacity = static_cast<uint32_t>(*n);
      }
      if (!c.typed && ch.capacity > 0) {
        d_.error(c.loc, "a buffered channel needs its message type: channel {byte} " + c.name +
                            "[" + std::to_string(ch.capacity) + "]");
        continue;
      }
      std::vector<bool> isByte = c.fieldIsByte;
      if (!c.typed) {
        auto it = arity.find(c.name);
        isByte.assign(it == arity.end() ? 0 : it->second.first, false);
      }
      for (size_t i = 0; i < isByte.size(); ++i) ch.fields.push_back(p_.types->intType());
      channelIds_[c.name] = {channels_.declare(std::move(ch)), std::move(isByte)};
    }
  }

  // The transition's sync as the channel operation of edge `e`.
  void lowerSync(const SyncOp& s, const ProcSym& ps, ir::Edge& e) {
    auto it = channelIds_.find(s.channel);
    if (it == channelIds_.end()) {
      d_.error(s.loc, "unknown channel '" + s.channel + "'");
      return;
    }
    const auto& [ch, isByte] = it->second;
    if (s.items.size() != isByte.size()) {
      d_.error(s.loc, "channel '" + s.channel + "' carries " + std::to_string(isByte.size()) +
                          " value(s), this sync has " + std::to_string(s.items.size()));
      return;
    }
    std::vector<ExprRef> items;
    if (s.send) {
      for (size_t i = 0; i < s.items.size(); ++i)
        items.push_back(ex_.wrap(ex_.value(*s.items[i], &ps), isByte[i]));
      channels_.send(ch, nullptr, items, e);
      return;
    }
    std::vector<bool> targetIsByte;
    for (const ExprPtr& x : s.items) {
      auto t = ex_.target(*x, ps, "a receive");
      if (!t) return;
      items.push_back(t->first);
      targetIsByte.push_back(t->second);
    }
    channels_.receive(ch, nullptr, items, {}, e);
    // The targets' assignments come first (channels.h): store as DiVinE does, wrapped.
    for (size_t i = 0; i < items.size(); ++i)
      e.assigns[i].rhs = ex_.wrap(e.assigns[i].rhs, targetIsByte[i]);
  }

  void lowerTransitions(const Process& proc, const ProcSym& ps) {
    for (const Transition& t : proc.trans) {
      auto from = ps.states.find(t.from);
      auto to = ps.states.find(t.to);
      if (from == ps.states.end() || to == ps.states.end()) {
        bool f = from == ps.states.end();
        d_.error(f ? t.loc : t.toLoc,
                 "process '" + proc.name + "' has no state '" + (f ? t.from : t.to) + "'");
        continue;
      }
      ir::Edge e;
      e.kind = ir::EdgeKind::Command;
      e.from = from->second;
      e.to = to->second;
      ExprRef guard = p_.exprs->trueExpr();
      for (const ExprPtr& g : t.guards) guard = p_.exprs->mkAnd(guard, ex_.condition(*g, &ps));
      e.guard = guard->isTrue() ? nullptr : guard;
      for (const Effect& eff : t.effects)
        if (auto a = ex_.assignment(eff, ps)) e.assigns.push_back(*a);
      e.sequential = true;  // DVE effects run left to right
      if (t.sync.present) lowerSync(t.sync, ps, e);
      e.loc = t.loc;
      e.text = t.text;
      p_.edges.push_back(std::move(e));
    }
  }

  const Model& m_;
  ir::Program& p_;
  Diagnostics& d_;
  Symbols syms_;
  ExprLowerer ex_;
  ir::ChannelLowering channels_;
  // By name: the channel's id and whether each message field is a byte.
  std::map<std::string, std::pair<uint32_t, std::vector<bool>>> channelIds_;
};

}  // namespace

bool lowerModel(const Model& model, ir::Program& prog, Diagnostics& diags) {
  return Lowerer(model, prog, diags).run();
}

}  // namespace tandem::dve
