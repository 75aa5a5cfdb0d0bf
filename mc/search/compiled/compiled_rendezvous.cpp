// Rendezvous in the compiled engine: the pairs of exec::System::forEachRendezvous, each run as
// Evaluator::executeSync does (sender's guard, channel indices, values, receiver's guard on the
// message; then the sender's effects, the receiver's, both moves). A value that leaves int64
// hands the pair to the reference evaluator.
#include <cstring>
#include <tuple>

#include "mc/search/compiled/compiled_system.h"

namespace tandem::search {

bool CompiledSystem::rendezvous(const int64_t* s, SuccessorSink& sink) {
  // The receives at the threads' locations, by channel, once; then each send meets those of its
  // channel, in the order of exec::System::forEachRendezvous (sender, its edge, receiver, its
  // edge).
  for (uint32_t u = 0; u < layout_.threadCount(); ++u)
    for (uint32_t re : syncOutOf(u, s)) {
      const EdgeCode& recv = code_->edges[re];
      if (recv.send) continue;
      auto& bucket = receivers_[recv.channel];
      if (bucket.empty()) receiving_.push_back(recv.channel);
      bucket.emplace_back(u, re);
    }
  if (receiving_.empty()) return false;
  bool any = false;
  for (uint32_t t = 0; t < layout_.threadCount(); ++t)
    for (uint32_t se : syncOutOf(t, s)) {
      const EdgeCode& send = code_->edges[se];
      if (!send.send) break;  // the receives follow
      for (auto [u, re] : receivers_[send.channel])
        if (u != t && syncPair(s, t, send, u, code_->edges[re], sink)) any = true;
    }
  for (uint32_t c : receiving_) receivers_[c].clear();
  receiving_.clear();
  return any;
}

bool CompiledSystem::syncPair(const int64_t* s, uint32_t t, const EdgeCode& send, uint32_t u,
                              const EdgeCode& recv, SuccessorSink& sink) {
  const ir::Edge& se = p_.edges[send.id];
  const ir::Edge& re = p_.edges[recv.id];
  move_.thread = t;
  move_.edges.assign(1, send.id);
  move_.partner = u;
  move_.partnerEdge = recv.id;
  auto finish = [&](bool happened) {
    move_.partner = kNoPartner;
    move_.partnerEdge = ir::kNone;
    move_.edges.clear();
    return happened;
  };
  auto failed = [&](const ir::Edge& at) {
    if (tracked(err_.kind)) sink.error({err_.kind, at.loc, err_.message, move_});
    return finish(true);
  };
  auto fallback = [&] { return finish(refSync(s, t, send.id, u, recv.id, sink)); };
  int64_t* slots = const_cast<int64_t*>(s);  // guards, indices and values only read
  RunContext cs = context(t, slots), cr = context(u, slots);
  int64_t v = 1;
  if (!send.guard.empty()) {
    RunStatus st = run(send.guard, cs, v, err_);
    if (st == RunStatus::Overflow) return fallback();
    if (st == RunStatus::Error) return failed(se);
    if (!v) return finish(false);
  }
  if (!send.index.empty()) {
    int64_t idx[2];
    const Code* code[2] = {&send.index, &recv.index};
    const RunContext* ctx[2] = {&cs, &cr};
    const ir::Edge* edge[2] = {&se, &re};
    const ir::Channel& c = p_.channels[se.channel];
    for (int i = 0; i < 2; ++i) {
      RunStatus st = run(*code[i], *ctx[i], idx[i], err_);
      if (st == RunStatus::Overflow) return fallback();
      if (st == RunStatus::Error) return failed(*edge[i]);
      if (idx[i] < 0 || idx[i] >= static_cast<int64_t>(c.count)) return fallback();  // its error
    }
    if (idx[0] != idx[1]) return finish(false);
  }
  int64_t msg[16];
  if (send.values.size() > 16) return fallback();
  for (size_t k = 0; k < send.values.size(); ++k) {
    RunStatus st = run(send.values[k], cs, msg[k], err_);
    if (st == RunStatus::Overflow) return fallback();
    if (st == RunStatus::Error) return failed(se);
  }
  cr.msg = msg;
  if (!recv.guard.empty()) {
    RunStatus st = run(recv.guard, cr, v, err_);
    if (st == RunStatus::Overflow) return fallback();
    if (st == RunStatus::Error) return failed(re);
    if (!v) return finish(false);
  }
  int64_t* n = buffer(1);
  std::memcpy(n, s, layout_.slots() * sizeof(int64_t));
  for (auto [ctx, code, edge] :
       {std::tuple{context(t, n), &send, &se}, std::tuple{context(u, n), &recv, &re}}) {
    if (code->effects.empty()) continue;
    ctx.msg = msg;
    int64_t unused;
    RunStatus st = run(code->effects, ctx, unused, err_);
    if (st == RunStatus::Overflow) return fallback();
    if (st == RunStatus::Error) return failed(*edge);
  }
  n[layout_.thread(t).base] = send.to;
  n[layout_.thread(u).base] = recv.to;
  emit(n, sink);
  return finish(true);
}

}  // namespace tandem::search
