#include "mc/search/explore/termination.h"

namespace tandem::search {

Termination::Action Termination::passive(Token& out) {
  if (rank_ != 0) {
    if (!held_) return Action::None;
    out = {held_->count + count_, held_->black || black_};
    black_ = false;
    held_.reset();
    return Action::Forward;
  }
  if (ranks_ == 1) return Action::Terminated;  // no one to send to: passive is over
  if (roundOut_ && !held_) return Action::None;
  if (held_) {
    const Token t = *held_;
    held_.reset();
    roundOut_ = false;
    if (!t.black && !black_ && t.count + count_ == 0) return Action::Terminated;
  }
  // A new round: rank 0 turns white and sends a white token with count 0.
  black_ = false;
  roundOut_ = true;
  out = {0, false};
  return Action::Forward;
}

}  // namespace tandem::search
