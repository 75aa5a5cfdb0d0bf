// From parsed options to the engine's requests (engine/request.h). Combinations the table cannot
// express (a flag that only means something with another one) are usage errors here.
#pragma once

#include <atomic>
#include <iosfwd>

#include "engine/request.h"
#include "mc/cli/options.h"

namespace tandem::cli {

struct Streams {
  std::ostream* progress;  // null: no progress line
  std::ostream* diag;      // warnings and notes
  const std::atomic<bool>* interrupt;
  bool keepMemory = false;             // engine::Request::keepMemory
  search::Transport* ranks = nullptr;  // check --distributed under mpirun (not owned)
};

// Each throws engine::CommandError (usage) for a bad combination.
engine::CheckRequest checkRequest(const Options& o, const Streams& s);
engine::ProveRequest proveRequest(const Options& o, const Streams& s);
engine::TestgenRequest testgenRequest(const Options& o, const Streams& s);
engine::CoverRequest coverRequest(const Options& o, const Streams& s);
engine::RunRequest runRequest(const Options& o, const Streams& s);
engine::ExportChcRequest exportChcRequest(const Options& o, const Streams& s);
engine::ReplayRequest replayRequest(const Options& o, const Streams& s);

}  // namespace tandem::cli
