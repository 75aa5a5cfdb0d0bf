#include "mc/search/compiled/compiled_system.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace tandem::search {

bool CompiledSystem::eligible(const ir::Program& p, std::string* why) {
  std::string w;
  bool ok = layoutFits(p, w);
  if (ok) {
    SlotLayout layout(p);
    ok = compileProgram(p, layout, w) != nullptr;
  }
  if (!ok && why) *why = w;
  return ok;
}

CompiledSystem::CompiledSystem(const ir::Program& p, exec::Evaluator& ev, GenericOptions opts)
    : p_(p), ev_(ev), opts_(opts), generic_(p, ev, opts), layout_(p) {
  assert(opts.entry == ir::kNone && "the compiled engine explores closed systems");
  std::string why;
  code_ = compileProgram(p, layout_, why);
  receivers_.resize(p.channels.size());
  assert(code_ && "CompiledSystem of an ineligible program");
  outs_.resize(p.cfas.size());
  for (size_t t = 0; t < layout_.threadCount(); ++t) {
    ir::CfaId c = layout_.thread(static_cast<uint32_t>(t)).cfa;
    if (!outs_[c].empty()) continue;
    for (ir::LocId l : p.cfas[c].locs) outs_[c].push_back(&code_->out[l]);
  }
  // Per location, its rendezvous ends: sends first, then receives (the pairing touches no
  // other edge).
  syncOuts_.resize(p.cfas.size());
  for (size_t c = 0; c < outs_.size(); ++c)
    for (const Out* out : outs_[c]) {
      Out sync;
      for (bool sends : {true, false})
        for (uint32_t e : *out)
          if (code_->edges[e].kind == ir::EdgeKind::Sync && code_->edges[e].send == sends)
            sync.push_back(e);
      syncOuts_[c].push_back(std::move(sync));
    }
  codeOf_.assign(p.edges.size(), ir::kNone);
  for (size_t i = 0; i < code_->edges.size(); ++i)
    codeOf_[code_->edges[i].id] = static_cast<uint32_t>(i);
  for (const ir::Property& inv : p.invariants)
    invariantMessages_.push_back(exec::invariantMessage(inv));
  stack_.resize(code_->maxStack + 8);
  scratch_.resize(layout_.slots());
  enc_.resize(layout_.maxEncodedBytes());
}

int64_t* CompiledSystem::buffer(unsigned depth) {
  while (bufs_.size() <= depth) bufs_.emplace_back(layout_.slots());
  return bufs_[depth].data();
}

exec::State CompiledSystem::decode(std::string_view state) const {
  std::vector<int64_t> s(layout_.slots());
  layout_.decode(state, s.data());
  return layout_.toExec(s.data());
}

std::optional<std::string> CompiledSystem::encode(const exec::State& s, std::string* why) const {
  std::vector<int64_t> slots(layout_.slots());
  std::vector<uint8_t> bytes(layout_.maxEncodedBytes());
  std::string w;
  if (!layout_.fromExec(s, slots.data(), w)) {
    if (why) *why = w;
    return std::nullopt;
  }
  size_t n = layout_.encode(slots.data(), bytes.data());
  return std::string(reinterpret_cast<const char*>(bytes.data()), n);
}

// Re-encodes the generic system's initial states (so their Move::choices are the reference's).
class CompiledSystem::Converter final : public SuccessorSink {
 public:
  Converter(CompiledSystem& sys, SuccessorSink& to) : sys_(sys), to_(to) {}
  void successor(std::string_view state, const Move& move) override {
    std::string why;
    auto bytes = sys_.encode(sys_.generic_.codec().decode(state), &why);
    if (!bytes) {
      to_.incomplete("an initial state cannot be stored by the compiled engine: " + why);
      return;
    }
    to_.successor(*bytes, move);
  }
  void error(const FoundError& e) override { to_.error(e); }
  void incomplete(const std::string& reason) override { to_.incomplete(reason); }

 private:
  CompiledSystem& sys_;
  SuccessorSink& to_;
};

void CompiledSystem::initialStates(SuccessorSink& sink) {
  Converter conv(*this, sink);
  generic_.initialStates(conv);
}

bool CompiledSystem::successors(std::string_view state, SuccessorSink& sink) {
  int64_t* s = buffer(0);
  layout_.decode(state, s);
  bool any = false;
  move_.choices.clear();
  for (uint32_t t = 0; t < layout_.threadCount(); ++t) {
    move_.thread = t;
    move_.edges.clear();
    for (uint32_t e : outOf(t, s))
      if (step(s, t, code_->edges[e], 0, sink)) any = true;
  }
  if (code_->rendezvous && rendezvous(s, sink)) any = true;
  return any;
}

bool CompiledSystem::step(const int64_t* s, uint32_t t, const EdgeCode& ec, unsigned depth,
                          SuccessorSink& sink) {
  if (ec.kind == ir::EdgeKind::Sync) return false;  // only with a partner (rendezvous)
  const ir::Edge& edge = p_.edges[ec.id];
  RunContext ctx = context(t, const_cast<int64_t*>(s));  // guards only read
  int64_t holds = 1;
  RunStatus st = ec.guard.empty() ? RunStatus::Ok : run(ec.guard, ctx, holds, err_);
  if (st == RunStatus::Overflow) return refStep(s, t, ec.id, depth, sink);
  if (st == RunStatus::Ok && !holds && ec.kind == ir::EdgeKind::Command) return false;
  move_.edges.push_back(ec.id);
  auto done = [&] {
    move_.edges.pop_back();
    return true;
  };
  if (st == RunStatus::Error) {
    if (tracked(err_.kind)) sink.error({err_.kind, edge.loc, err_.message, move_});
    return done();
  }
  if (ec.kind == ir::EdgeKind::Assert && !holds) {
    if (tracked(edge.errorKind)) sink.error({edge.errorKind, edge.loc, ec.failMessage, move_});
    return done();
  }
  int64_t* n = buffer(depth + 1);
  std::memcpy(n, s, layout_.slots() * sizeof(int64_t));
  if (!ec.effects.empty()) {
    ctx.slots = n;
    int64_t unused;
    st = run(ec.effects, ctx, unused, err_);
    if (st == RunStatus::Overflow) {
      move_.edges.pop_back();
      return refStep(s, t, ec.id, depth, sink);
    }
    if (st == RunStatus::Error) {
      if (tracked(err_.kind)) sink.error({err_.kind, edge.loc, err_.message, move_});
      return done();
    }
  }
  n[layout_.thread(t).base] = ec.to;
  if (ec.toAtomic && depth < opts_.atomicDepth && anyEnabled(n, t)) {
    for (uint32_t e : outOf(t, n)) step(n, t, code_->edges[e], depth + 1, sink);
    return done();
  }
  if (ec.toAtomic && depth >= opts_.atomicDepth)
    sink.incomplete("an atomic block ran for more than " + std::to_string(opts_.atomicDepth) +
                    " steps");
  emit(n, sink);
  return done();
}

bool CompiledSystem::anyEnabled(const int64_t* s, uint32_t t) {
  for (uint32_t e : outOf(t, s)) {
    const EdgeCode& ec = code_->edges[e];
    if (ec.kind == ir::EdgeKind::Sync) continue;  // never a step alone
    if (ec.kind != ir::EdgeKind::Command || ec.guard.empty()) return true;
    int64_t holds = 0;
    switch (run(ec.guard, context(t, const_cast<int64_t*>(s)), holds, err_)) {
      case RunStatus::Ok:
        if (holds) return true;
        break;
      case RunStatus::Error:  // executing it reports the error
        return true;
      case RunStatus::Overflow:
        if (ev_.enabled(layout_.toExec(s), t, ec.id)) return true;
        break;
    }
  }
  return false;
}

std::optional<exec::ExecError> CompiledSystem::failingInvariant(const int64_t* s) {
  RunContext ctx = context(0, const_cast<int64_t*>(s));
  for (size_t i = 0; i < code_->invariants.size(); ++i) {
    int64_t holds = 0;
    const ir::Property& inv = p_.invariants[i];
    switch (run(code_->invariants[i], ctx, holds, err_)) {
      case RunStatus::Ok:
        if (holds) continue;
        return exec::ExecError{ir::ErrorKind::Invariant, inv.loc, invariantMessages_[i]};
      case RunStatus::Error:
        return exec::ExecError{err_.kind, inv.loc, err_.message};
      case RunStatus::Overflow:  // the reference checks them all
        return refInvariants(s);
    }
  }
  return std::nullopt;
}

void CompiledSystem::emit(const int64_t* s, SuccessorSink& sink) {
  if (tracked(ir::ErrorKind::Invariant)) {
    if (auto e = failingInvariant(s)) return reportError(sink, *e, move_);
  }
  emitBytes(s, sink);
}

void CompiledSystem::emitBytes(const int64_t* s, SuccessorSink& sink) {
  size_t n = layout_.encode(s, enc_.data());
  sink.successor(std::string_view(reinterpret_cast<const char*>(enc_.data()), n), move_);
}

std::optional<FoundError> CompiledSystem::checkInvariants(std::string_view state) {
  int64_t* s = scratch_.data();
  layout_.decode(state, s);
  if (auto e = failingInvariant(s)) return FoundError{e->kind, e->loc, e->message, {}};
  return std::nullopt;
}

bool CompiledSystem::allAtValidEnd(std::string_view state) {
  if (!p_.endStates) return false;
  int64_t* s = scratch_.data();
  layout_.decode(state, s);
  // Processes have no Return edges: a thread has terminated where no edge leaves.
  for (uint32_t t = 0; t < layout_.threadCount(); ++t) {
    const SlotLayout::ThreadInfo& th = layout_.thread(t);
    if (!outOf(t, s).empty() && !p_.endLabelled(layout_.locAt(th.cfa, s[th.base]))) return false;
  }
  return true;
}

std::optional<bool> CompiledSystem::guardConjunct(uint32_t t, ir::EdgeId e, uint32_t k) {
  if (e >= codeOf_.size() || codeOf_[e] == ir::kNone || t >= layout_.threadCount())
    return std::nullopt;
  const EdgeCode& ec = code_->edges[codeOf_[e]];
  if (k >= ec.conjuncts.size()) return std::nullopt;
  int64_t holds = 0;
  // buffer(0) still holds the state successors() decoded (its steps write deeper buffers).
  if (run(ec.conjuncts[k], context(t, buffer(0)), holds, err_) != RunStatus::Ok)
    return std::nullopt;
  return holds != 0;
}

void CompiledSystem::locations(std::string_view state, std::vector<ir::LocId>& out) {
  int64_t* s = scratch_.data();
  layout_.decode(state, s);
  out.clear();
  for (uint32_t t = 0; t < layout_.threadCount(); ++t) {
    const SlotLayout::ThreadInfo& th = layout_.thread(t);
    out.push_back(layout_.locAt(th.cfa, s[th.base]));
  }
}

}  // namespace tandem::search
