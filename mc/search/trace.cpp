#include "mc/search/trace.h"

#include <algorithm>

#include "mc/exec/system.h"

namespace tandem::search {

namespace {

class Capture final : public SuccessorSink {
 public:
  struct Item {
    std::string state;
    Move move;
  };
  void successor(std::string_view s, const Move& m) override {
    items.push_back({std::string(s), m});
  }
  void error(const FoundError&) override {}
  void incomplete(const std::string&) override {}
  std::vector<Item> items;
};

bool sameChoices(const Move& a, const Move& b) { return a.choices == b.choices; }

}  // namespace

Trace buildTrace(TransitionSystem& sys, const StateStore& store, const ExploreResult& res,
                 GenericSystem& ref, exec::Evaluator& ev) {
  // The path of states, initial state first, by the parent pointers.
  std::vector<std::string> path;
  for (auto id = res.errorSource; id != StateStore::kNoParent; id = store.parent(id))
    path.emplace_back(store.get(id));
  std::reverse(path.begin(), path.end());
  return buildTrace(sys, path, res, ref, ev);
}

Trace buildTrace(TransitionSystem& sys, const std::vector<std::string>& path,
                 const ExploreResult& res, GenericSystem& ref, exec::Evaluator& ev) {
  Trace tr;
  // The initial state's choices, then the move between each pair of states.
  Capture init;
  sys.initialStates(init);
  Move initMove;
  if (!path.empty()) {
    const std::string& root = path.front();
    auto it = std::find_if(init.items.begin(), init.items.end(),
                           [&](auto& i) { return i.state == root; });
    if (it == init.items.end()) {
      tr.problem = "the trace's first state is not an initial state";
      return tr;
    }
    initMove = it->move;
  } else if (res.error) {
    initMove = res.error->move;  // an error in an initial state: its choices
  }
  std::vector<Move> moves;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    Capture cap;
    sys.successors(path[i], cap);
    const std::string& next = path[i + 1];
    auto it =
        std::find_if(cap.items.begin(), cap.items.end(), [&](auto& x) { return x.state == next; });
    if (it == cap.items.end()) {
      tr.problem = "no move leads from trace state " + std::to_string(i) + " to the next";
      return tr;
    }
    moves.push_back(it->move);
  }
  // Replay with the reference evaluator.
  Capture refInit;
  ref.initialStates(refInit);
  auto it = std::find_if(refInit.items.begin(), refInit.items.end(),
                         [&](auto& i) { return sameChoices(i.move, initMove); });
  if (it == refInit.items.end()) {
    if (!path.empty() || !res.error) {
      tr.problem = "the reference evaluator has no matching initial state";
      return tr;
    }
    // The error is in the initial state itself: an invariant it violates (the state is then
    // the trace's whole story), or an error in building it.
    if (auto s = ref.initialState(initMove)) {
      tr.initial = *s;
      tr.replayed = res.error->kind != ir::ErrorKind::Invariant || !ev.checkInvariants(*s).ok();
      if (!tr.replayed) tr.problem = "the initial state does not violate an invariant on replay";
      return tr;
    }
    tr.replayed = true;
    return tr;
  }
  tr.initial = ref.codec().decode(it->state);
  exec::State cur = tr.initial;
  for (auto& m : moves) {
    auto next = ref.replay(cur, m, nullptr);
    if (!next) {
      tr.problem =
          "the reference evaluator could not replay step " + std::to_string(tr.steps.size());
      return tr;
    }
    tr.steps.push_back({m, cur, *next});
    cur = std::move(*next);
  }
  if (res.outcome == Outcome::Deadlock) {
    const exec::System sys(ev);
    exec::ScriptedChooser probe;  // tries the rendezvous candidates
    const bool moved = !sys.enabledMoves(cur, exec::kNoThread, probe).empty();
    tr.replayed = sys.status(cur, moved) == exec::SystemStatus::Deadlock;
    if (!tr.replayed) tr.problem = "the replayed final state is not a deadlock";
    return tr;
  }
  if (!res.error) return tr;
  if (path.empty() && res.error->move.edges.empty()) {  // invariant violated initially
    tr.replayed = !ev.checkInvariants(cur).ok();
    if (!tr.replayed) tr.problem = "the initial state does not violate an invariant on replay";
    return tr;
  }
  std::optional<FoundError> err;
  auto last = ref.replay(cur, res.error->move, &err);
  if (err) {
    tr.steps.push_back({res.error->move, cur, cur});
    tr.replayed = err->kind == res.error->kind;
    if (!tr.replayed) tr.problem = "the replay raised a different error";
    return tr;
  }
  // The state after the step violates an invariant, or cannot evaluate one (an index out of
  // bounds inside it is the error's kind then).
  if (last)
    if (auto inv = ev.checkInvariants(*last); !inv.ok() && inv.error().kind == res.error->kind) {
      tr.steps.push_back({res.error->move, cur, *last});
      tr.replayed = true;
      return tr;
    }
  tr.problem = "the replayed final step does not fail";
  return tr;
}

}  // namespace tandem::search
