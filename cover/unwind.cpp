#include "cover/unwind.h"

#include <algorithm>
#include <deque>
#include <unordered_map>

#include "mc/symbolic/sym_state.h"

namespace tandem::cover {

namespace {

// The edges that stay in one frame: a call steps over to its return location here (the callee
// runs in a frame of its own).
bool intraprocedural(const ir::Edge& e) { return e.kind != ir::EdgeKind::Return; }

}  // namespace

Loops::Loops(const ir::Program& p)
    : back_(p.edges.size(), false), loopsOf_(p.locs.size()), loopAt_(p.locs.size(), ir::kNone) {
  // Iterative depth-first search per procedure; an edge to a location on the stack is a back edge.
  std::vector<uint8_t> state(p.locs.size(), 0);  // 0 new, 1 on the stack, 2 done
  std::vector<std::vector<ir::EdgeId>> backInto(p.locs.size());
  for (const ir::Cfa& cfa : p.cfas) {
    if (cfa.entry == ir::kNone || state[cfa.entry]) continue;
    std::vector<std::pair<ir::LocId, size_t>> stack{{cfa.entry, 0}};
    state[cfa.entry] = 1;
    while (!stack.empty()) {
      auto& [l, next] = stack.back();
      const std::vector<ir::EdgeId>& out = p.locs[l].out;
      if (next == out.size()) {
        state[l] = 2;
        stack.pop_back();
        continue;
      }
      const ir::EdgeId e = out[next++];
      const ir::Edge& edge = p.edges[e];
      if (!intraprocedural(edge) || edge.to == ir::kNone) continue;
      if (state[edge.to] == 1) {
        back_[e] = true;
        backInto[edge.to].push_back(e);
      } else if (state[edge.to] == 0) {
        state[edge.to] = 1;
        stack.emplace_back(edge.to, 0);
      }
    }
  }
  // Natural loops: backwards from each back edge's source to the head.
  std::vector<std::vector<ir::EdgeId>> preds(p.locs.size());
  for (ir::EdgeId e = 0; e < p.edges.size(); ++e)
    if (intraprocedural(p.edges[e]) && p.edges[e].to != ir::kNone)
      preds[p.edges[e].to].push_back(e);
  for (ir::LocId h = 0; h < p.locs.size(); ++h) {
    if (backInto[h].empty()) continue;
    const uint32_t loop = static_cast<uint32_t>(heads_.size());
    heads_.push_back(h);
    loopAt_[h] = loop;
    std::vector<bool> in(p.locs.size(), false);
    in[h] = true;
    std::vector<ir::LocId> todo;
    for (ir::EdgeId e : backInto[h])
      if (!in[p.edges[e].from]) {
        in[p.edges[e].from] = true;
        todo.push_back(p.edges[e].from);
      }
    while (!todo.empty()) {
      const ir::LocId l = todo.back();
      todo.pop_back();
      for (ir::EdgeId e : preds[l])
        if (!in[p.edges[e].from]) {
          in[p.edges[e].from] = true;
          todo.push_back(p.edges[e].from);
        }
    }
    for (ir::LocId l = 0; l < p.locs.size(); ++l)
      if (in[l]) loopsOf_[l].push_back(loop);
  }
}

bool Loops::contains(uint32_t loop, ir::LocId l) const {
  return std::binary_search(loopsOf_[l].begin(), loopsOf_[l].end(), loop);
}

namespace {

struct KeyHash {
  size_t operator()(const std::vector<uint32_t>& k) const {
    size_t h = k.size();
    for (uint32_t x : k) h = h * 1000003u ^ x;
    return h;
  }
};

}  // namespace

std::vector<Unwinding::Frame> Unwinding::decode(const std::vector<uint32_t>& key) const {
  std::vector<Frame> fs;
  for (size_t i = 0; i < key.size();) {
    Frame f{key[i], key[i + 1], {}};
    const size_t n = loops_.loopsOf(f.pc).size();
    f.counts.assign(key.begin() + static_cast<std::ptrdiff_t>(i + 2),
                    key.begin() + static_cast<std::ptrdiff_t>(i + 2 + n));
    i += 2 + n;
    fs.push_back(std::move(f));
  }
  return fs;
}

std::vector<uint32_t> Unwinding::encode(const std::vector<Frame>& frames) {
  std::vector<uint32_t> key;
  for (const Frame& f : frames) {
    key.push_back(f.callEdge);
    key.push_back(f.pc);
    key.insert(key.end(), f.counts.begin(), f.counts.end());
  }
  return key;
}

std::optional<Unwinding::Frame> Unwinding::move(const Frame& f, ir::EdgeId e, ir::LocId to) const {
  // A loop head after K iterations keeps only the edges that leave its loop.
  const uint32_t here = loops_.loopAt(f.pc);
  if (here != ir::kNone && loops_.contains(here, to)) {
    const auto& ls = loops_.loopsOf(f.pc);
    const size_t i = static_cast<size_t>(std::find(ls.begin(), ls.end(), here) - ls.begin());
    if (f.counts[i] >= k_) return std::nullopt;
  }
  Frame g{f.callEdge, to, {}};
  for (uint32_t loop : loops_.loopsOf(to)) {
    const auto& from = loops_.loopsOf(f.pc);
    auto it = std::find(from.begin(), from.end(), loop);
    uint32_t count = 0;  // entering the loop
    if (it != from.end()) {
      count = f.counts[static_cast<size_t>(it - from.begin())];
      if (loops_.isBackEdge(e) && to == loops_.head(loop)) ++count;
    }
    g.counts.push_back(count);
  }
  return g;
}

Unwinding::Unwinding(const ir::Program& p, ir::CfaId entry, uint32_t k, search::Budget& budget,
                     const SummaryTable* summaries)
    : p_(p), loops_(p), k_(k), budget_(budget) {
  std::unordered_map<std::vector<uint32_t>, uint32_t, KeyHash> ids;
  std::deque<uint32_t> todo;
  auto node = [&](const std::vector<Frame>& frames, uint32_t depth) -> std::optional<uint32_t> {
    std::vector<uint32_t> key = encode(frames);
    auto it = ids.find(key);
    if (it != ids.end()) return it->second;
    if (budget_.chargeState()) {
      budget_.stop(search::StopKind::States, search::stateBoundReason(*budget_.limits().maxStates));
      stopped_ = true;
      return std::nullopt;
    }
    // A vector that doubles allocates its new half at once: stop before, not after, the limit.
    if (nodes_.size() == nodes_.capacity() &&
        budget_.wouldExceedMemory(std::max<size_t>(nodes_.capacity(), 1) * sizeof(UnwindNode))) {
      stopped_ = true;
      return std::nullopt;
    }
    const uint32_t id = static_cast<uint32_t>(nodes_.size());
    UnwindNode n;
    n.loc = frames.back().pc;
    n.key = key;
    n.depth = depth;
    nodes_.push_back(std::move(n));
    ids.emplace(std::move(key), id);
    todo.push_back(id);
    const ir::CfaId cfa = p_.locs[frames.back().pc].cfa;
    if (std::find(cfas_.begin(), cfas_.end(), cfa) == cfas_.end()) cfas_.push_back(cfa);
    return id;
  };
  const ir::Cfa& c = p.cfas[entry];
  Frame first{ir::kNone, c.entry, std::vector<uint32_t>(loops_.loopsOf(c.entry).size(), 0)};
  node({first}, 0);
  while (!todo.empty() && !stopped_) {
    if (budget_.poll()) {
      stopped_ = true;
      break;
    }
    const uint32_t n = todo.front();
    todo.pop_front();
    if (budget_.depthExceeded(nodes_[n].depth)) {
      budget_.stop(search::StopKind::Depth, search::depthBoundReason(*budget_.limits().maxDepth));
      stopped_ = true;
      break;
    }
    const std::vector<Frame> frames = decode(nodes_[n].key);
    const Frame& top = frames.back();
    for (ir::EdgeId e : p_.locs[top.pc].out) {
      const ir::Edge& edge = p_.edges[e];
      std::vector<Frame> next = frames;
      bool exits = false;
      // A step within the frame; false when the bound cuts it.
      auto stay = [&] {
        auto g = move(top, e, edge.to);
        if (g) next.back() = std::move(*g);
        cuts_ += !g;
        return g.has_value();
      };
      switch (edge.kind) {
        case ir::EdgeKind::Command:
        case ir::EdgeKind::Assert:
        case ir::EdgeKind::Assumed:
          if (!stay()) continue;
          break;
        case ir::EdgeKind::Call: {
          if (summaries && summaries->of(edge.callee)) {  // the summary stands for the callee
            if (!stay()) continue;
            summarised_ = true;
            break;
          }
          const ir::Cfa& callee = p_.cfas[edge.callee];
          if (callee.kind == ir::CfaKind::Process || callee.kind == ir::CfaKind::Rules)
            throw symbolic::NotImplemented("calls of processes");
          if (!move(top, e, edge.to)) {  // a loop head's call into its body after K iterations
            ++cuts_;
            continue;
          }
          uint32_t active = 0;
          for (const Frame& f : frames) active += p_.locs[f.pc].cfa == edge.callee;
          if (active > k_) {
            ++cuts_;
            continue;
          }
          next.push_back(Frame{e, callee.entry,
                               std::vector<uint32_t>(loops_.loopsOf(callee.entry).size(), 0)});
          break;
        }
        case ir::EdgeKind::Return: {
          if (frames.size() == 1) {
            exits = true;
            break;
          }
          const ir::Edge& call = p_.edges[top.callEdge];
          next.pop_back();
          auto g = move(next.back(), top.callEdge, call.to);
          if (!g) continue;  // checked when the call was made
          next.back() = std::move(*g);
          break;
        }
        case ir::EdgeKind::Sync:
          throw symbolic::NotImplemented("rendezvous channels in cover");
      }
      uint32_t to = ir::kNone;
      if (!exits) {
        auto id = node(next, nodes_[n].depth + 1);
        if (!id) break;
        to = *id;
      }
      if (arcs_.size() == arcs_.capacity() &&
          budget_.wouldExceedMemory(std::max<size_t>(arcs_.capacity(), 1) * sizeof(UnwindArc))) {
        stopped_ = true;
        break;
      }
      const uint32_t a = static_cast<uint32_t>(arcs_.size());
      arcs_.push_back(UnwindArc{n, e, to});
      nodes_[n].out.push_back(a);
      if (to != ir::kNone) nodes_[to].in.push_back(a);
    }
  }
  sort();
}

void Unwinding::sort() {
  // Reverse post-order of a depth-first search from the entry: the graph is acyclic (a cycle of
  // the procedure passes a back edge, which raises an iteration count that nothing on the cycle
  // lowers).
  if (nodes_.empty()) return;
  std::vector<uint8_t> seen(nodes_.size(), 0);
  std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
  seen[0] = 1;
  std::vector<uint32_t> post;
  while (!stack.empty()) {
    auto& [n, next] = stack.back();
    if (next == nodes_[n].out.size()) {
      post.push_back(n);
      stack.pop_back();
      continue;
    }
    const uint32_t to = arcs_[nodes_[n].out[next++]].to;
    if (to != ir::kNone && !seen[to]) {
      seen[to] = 1;
      stack.emplace_back(to, 0);
    }
  }
  order_.assign(post.rbegin(), post.rend());
}

}  // namespace tandem::cover
