// The rendezvous step: a send and a receive on a rendezvous channel, in two threads, as one step
// (LANGUAGE.md, Channels). The successor functions pair the candidates (System::forEachRendezvous);
// this is the one rule of what the pair does.
#include <string>
#include <utility>

#include "mc/exec/eval_context.h"

namespace tandem::exec {

StepResult Evaluator::executeSync(State& s, ThreadId t, ir::EdgeId sendId, ThreadId u,
                                  ir::EdgeId recvId, Chooser& chooser) const {
  const ir::Edge& send = program_.edges[sendId];
  const ir::Edge& recv = program_.edges[recvId];
  auto at = [&](ThreadId th, const ir::Edge& e) {
    return th < s.threads.size() && !s.threads[th].frames.empty() &&
           s.threads[th].top().pc == e.from;
  };
  if (t == u || send.kind != ir::EdgeKind::Sync || recv.kind != ir::EdgeKind::Sync ||
      !send.syncSend || recv.syncSend || send.channel != recv.channel || !at(t, send) ||
      !at(u, recv))
    return StepResult::failedAt(internalError("not a rendezvous pair"), send.loc);
  const ir::Channel& ch = program_.channels[send.channel];
  std::vector<Value> message;
  {
    const Ctx cs(s, t);
    Ctx cr(s, u);
    auto g = guardHolds(cs, send.guard);
    if (!g) return StepResult::failedAt(std::move(g).error(), send.loc);
    if (!g.value()) return StepResult::blocked();
    if (ch.isArray) {
      BigInt idx[2];
      const Ctx* ctx[2] = {&cs, &cr};
      const ir::Edge* edge[2] = {&send, &recv};
      for (int i = 0; i < 2; ++i) {
        auto v = evalIn(*ctx[i], edge[i]->chanIndex);
        if (!v) return StepResult::failedAt(std::move(v).error(), edge[i]->loc);
        idx[i] = v.value().toBigInt();
        if (idx[i] < BigInt(0) || idx[i] >= BigInt(static_cast<int64_t>(ch.count)))
          return StepResult::failed(
              ExecError{ir::ErrorKind::IndexOutOfBounds, edge[i]->loc,
                        "channel index " + idx[i].toString() + " out of bounds for the " +
                            std::to_string(ch.count) + " channels '" + ch.name + "'",
                        false});
      }
      if (idx[0] != idx[1]) return StepResult::blocked();
    }
    for (size_t k = 0; k < send.args.size(); ++k) {
      auto v = evalIn(cs, send.args[k]);
      if (!v) return StepResult::failedAt(std::move(v).error(), send.loc);
      message.push_back(coerceIntegral(v.value(), ch.fields[k]));
    }
    cr.message = &message;
    auto h = guardHolds(cr, recv.guard);
    if (!h) return StepResult::failedAt(std::move(h).error(), recv.loc);
    if (!h.value()) return StepResult::blocked();
  }
  StepResult r = runAssignments(s, t, send, chooser, 0);
  if (!r.ok()) return r;
  r = runAssignments(s, u, recv, chooser, 0, &message);
  if (!r.ok()) return r;
  s.threads[t].top().pc = send.to;
  s.threads[u].top().pc = recv.to;
  return StepResult::executed();
}

}  // namespace tandem::exec
