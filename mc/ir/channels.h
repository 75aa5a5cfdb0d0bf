// Channels lowered to the IR (LANGUAGE.md, Channels), one lowering for the .tdm front end and the
// DVE importer. A buffered channel is state: a length and, per message field, an array of slots
// (channel i of an array holds its messages at i*capacity ..); a send and a receive are ordinary
// guarded commands over them, so every engine handles buffered channels unchanged. A rendezvous
// channel has no state: its sends and receives are Sync edges, which the successor functions pair
// across two processes into one step (Evaluator::executeSync and its mirrors).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mc/ir/program.h"

namespace tandem::ir {

class ChannelLowering {
 public:
  explicit ChannelLowering(Program& p) : p_(p) {}

  // Adds `c` (name, count, isArray, capacity, fields, loc) to the program with its state
  // variables (buffered channels) as globals; returns its id.
  uint32_t declare(Channel c);

  // `len(c)`, `empty(c)`, `full(c)`; `index` is null for a single channel.
  ExprRef length(uint32_t ch, ExprRef index) const;
  ExprRef empty(uint32_t ch, ExprRef index) const;
  ExprRef full(uint32_t ch, ExprRef index) const;

  // The operation on channel `ch` as edge `e` (from/to, loc and text are the caller's): a buffered
  // channel gives a guarded command (its guard is added to e.guard; the assignments are appended,
  // to run in parallel unless e.sequential); a rendezvous channel gives a Sync edge. `items` are
  // the values sent, or the receive targets and (`match[i]`) the constants a message must carry.
  void send(uint32_t ch, ExprRef index, const std::vector<ExprRef>& items, Edge& e) const;
  void receive(uint32_t ch, ExprRef index, const std::vector<ExprRef>& items,
               const std::vector<bool>& match, Edge& e) const;

 private:
  ExprRef lengthRef(const Channel& c, ExprRef index) const;  // the length lvalue
  ExprRef slot(const Channel& c, size_t field, ExprRef index, ExprRef offset) const;
  ExprRef fieldDefault(TypeRef t) const;
  ExprRef addGuard(ExprRef guard, ExprRef cond) const;
  // A send or receive on a channel without a buffer: one half of a rendezvous (EdgeKind::Sync).
  static void rendezvous(uint32_t ch, ExprRef index, bool send, Edge& e);
  Program& p_;
};

}  // namespace tandem::ir
