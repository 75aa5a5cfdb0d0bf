// The rendezvous step in symbolic execution: a send of one process and a receive of another as
// one step, in the order of the reference evaluator (mc/exec/rendezvous.cpp): the sender's guard,
// the channel indices (sender's, then receiver's), the message, the receiver's guard (reading the
// message), the sender's assignments, then the receiver's. Processes have no frame variables in
// the symbolic closed systems (fragments.h refuses them), so the receiver is evaluated by naming
// it the current thread (SymState::thread: its `pid` and process locals); its own frame is not
// needed.
#include "mc/symbolic/transfer.h"
#include "mc/symbolic/transfer_ctx.h"

namespace tandem::symbolic {

void Transfer::stepSync(SymState s, const Mover& t, ir::EdgeId sendId, exec::ThreadId u,
                        ir::EdgeId recvId, TransferPolicy& policy) const {
  const ir::Edge& send = p_.edges[sendId];
  const ir::Edge& recv = p_.edges[recvId];
  const ir::Channel& ch = p_.channels[send.channel];
  const Mover r{u, t.locations};
  Ctx cs{s, t, policy};
  Ctx cr{s, r, policy};
  auto as = [&](exec::ThreadId th) { s.thread = th; };
  std::vector<Obligation> obls;
  as(t.thread);
  ExprRef g = send.guard ? eval(cs, send.guard, obls).expr : em_.trueExpr();
  if (!require(cs, obls, sendId) || !assume(cs, g)) return;
  if (ch.isArray) {
    TypeRef bt = em_.types().boolType();
    ExprRef idx[2];
    const ir::Edge* edge[2] = {&send, &recv};
    const ir::EdgeId id[2] = {sendId, recvId};
    for (int i = 0; i < 2; ++i) {
      Ctx& c = i == 0 ? cs : cr;
      as(i == 0 ? t.thread : u);
      obls.clear();
      idx[i] = ev_.coerce(eval(c, edge[i]->chanIndex, obls), em_.types().intType()).expr;
      ExprRef inRange = em_.mkAnd(
          ev_.mk(Op::Le, bt, {em_.intConst(BigInt(0)), idx[i]}),
          ev_.mk(Op::Lt, bt, {idx[i], em_.intConst(BigInt(static_cast<int64_t>(ch.count)))}));
      obls.push_back(Obligation{inRange, ir::ErrorKind::IndexOutOfBounds,
                                "channel index out of bounds for the " + std::to_string(ch.count) +
                                    " channels '" + ch.name + "'",
                                false});
      if (!require(c, obls, id[i])) return;
    }
    if (!assume(cs, ev_.mk(Op::Eq, bt, {idx[0], idx[1]}))) return;
  }
  as(t.thread);
  obls.clear();
  std::vector<SymValue> message;
  for (size_t k = 0; k < send.args.size(); ++k)
    message.push_back(ev_.coerce(eval(cs, send.args[k], obls), ch.fields[k]));
  if (!require(cs, obls, sendId)) return;
  as(u);
  obls.clear();
  s.message = message;
  ExprRef h = recv.guard ? eval(cr, recv.guard, obls).expr : em_.trueExpr();
  if (!require(cr, obls, recvId) || !assume(cr, h)) return;
  s.message.clear();
  as(t.thread);
  if (!runAssignments(cs, send.assigns, !send.sequential, sendId)) return;
  as(u);
  s.message = std::move(message);
  if (!runAssignments(cr, recv.assigns, !recv.sequential, recvId)) return;
  s.message.clear();
  as(t.thread);
  s.top().pc = send.to;
  s.pathCondAt.resize(s.pathCond.size(), static_cast<uint32_t>(s.path.size()));
  s.path.push_back(sendId);
  s.path.push_back(recvId);
  ++s.depth;
  policy.synced(std::move(s), sendId, u, recvId);
}

}  // namespace tandem::symbolic
