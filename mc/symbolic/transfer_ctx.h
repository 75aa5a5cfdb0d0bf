// One run of the transfer relation (private to transfer.cpp and transfer_frames.cpp).
#pragma once

#include "mc/symbolic/transfer.h"

namespace tandem::symbolic {

struct Transfer::Ctx {
  SymState& s;
  const Mover& t;  // entry states and method calls: no mover (nothing to fold)
  TransferPolicy& policy;
};

}  // namespace tandem::symbolic
