#include "mc/search/generic_system.h"

#include "mc/ir/edge_exprs.h"

namespace tandem::search {

// Follows a script of choice indices and records each choice point's domain size, so that every
// combination of choices of one step can be enumerated (depth-first over the choice points).
class GenericSystem::Enumerator final : public exec::Chooser {
 public:
  explicit Enumerator(std::vector<uint32_t> script) : script_(std::move(script)) {}

  exec::Value choose(TypeRef type, SourceLoc loc) override {
    switch (type->kind) {
      case TypeKind::Bool:
        return exec::Value::boolean(pick(2) == 1);
      case TypeKind::Enum:
        return exec::Value::enumMember(type, pick(static_cast<uint32_t>(type->members.size())));
      default:
        unbounded_ = true;  // ints, arrays, refs: not enumerable
        pick(1);
        return exec::defaultValue(type);
    }
  }
  bool chooseBool() override { return pick(2) == 1; }

  // The next script in enumeration order, or false when all were run.
  bool advance() {
    while (!taken_.empty()) {
      size_t i = taken_.size() - 1;
      if (taken_[i] + 1 < domains_[i]) {
        script_.assign(taken_.begin(), taken_.end());
        ++script_.back();
        taken_.clear();
        domains_.clear();
        return true;
      }
      taken_.pop_back();
      domains_.pop_back();
    }
    return false;
  }
  const std::vector<uint32_t>& taken() const { return taken_; }
  bool unbounded() const { return unbounded_; }

 private:
  uint32_t pick(uint32_t domain) {
    size_t i = taken_.size();
    uint32_t v = i < script_.size() ? script_[i] : 0;
    taken_.push_back(v);
    domains_.push_back(domain);
    return v;
  }
  std::vector<uint32_t> script_, taken_, domains_;
  bool unbounded_ = false;
};

namespace {

exec::Value poolValue(TypeRef t, int64_t v) {
  switch (t->kind) {
    case TypeKind::I32:
      return exec::Value::i32(v);
    case TypeKind::I64:
      return exec::Value::i64(v);
    case TypeKind::Bool:
      return exec::Value::boolean(v != 0);
    case TypeKind::Enum:
      return exec::Value::enumMember(t, static_cast<uint32_t>(v));
    default:
      return exec::Value::integer(BigInt(v));
  }
}

std::vector<exec::Value> poolValues(const ir::Program& p, const std::vector<ir::VarId>& params,
                                    const std::vector<int64_t>& args) {
  std::vector<exec::Value> out;
  for (size_t i = 0; i < params.size() && i < args.size(); ++i)
    out.push_back(poolValue(p.vars[params[i]].type, args[i]));
  return out;
}

}  // namespace

GenericSystem::GenericSystem(const ir::Program& p, exec::Evaluator& ev, GenericOptions opts)
    : p_(p), ev_(ev), sys_(ev), opts_(opts), codec_(p) {}

void GenericSystem::emit(const exec::State& s, const Move& move, SuccessorSink& sink,
                         bool initial) {
  if (tracked(ir::ErrorKind::Invariant) && !(initial && opts_.initialUnchecked)) {
    auto st = ev_.checkInvariants(s);
    if (!st.ok()) return reportError(sink, st.error(), move);
  }
  codec_.encode(s, buf_);
  sink.successor(buf_, move);
}

std::optional<exec::State> GenericSystem::initialState(const Move& move) {
  class Find final : public SuccessorSink {
   public:
    explicit Find(const Move& m) : want_(m) {}
    void successor(std::string_view s, const Move& m) override {
      if (!found && m.choices == want_.choices) found = std::string(s);
    }
    void error(const FoundError&) override {}
    void incomplete(const std::string&) override {}
    std::optional<std::string> found;

   private:
    const Move& want_;
  } find(move);
  const bool unchecked = opts_.initialUnchecked;
  opts_.initialUnchecked = true;
  initialStates(find);
  opts_.initialUnchecked = unchecked;
  if (!find.found) return std::nullopt;
  return codec_.decode(*find.found);
}

void GenericSystem::initialStates(SuccessorSink& sink) {
  uint32_t source = 0;
  auto make = [&](auto&& build) {
    ++source;
    Enumerator en({});
    do {
      auto r = build(en);
      if (en.unbounded() && opts_.initial) {
        for (size_t i = 0; i < opts_.initial->size(); ++i) {
          const exec::State& s = (*opts_.initial)[i];
          auto holds = ev_.initsHold(s);
          if (!holds.ok() || !holds.value()) continue;
          Move m;  // named by its position among the given states
          m.choices = {source, static_cast<uint32_t>(i)};
          emit(s, m, sink, true);
        }
        return;
      }
      if (en.unbounded()) {
        sink.incomplete(
            "an initial value of an unbounded type is not fixed (an input): "
            "explicit-state search cannot enumerate it; symbolic execution is "
            "not implemented yet");
        return;
      }
      if (!r.ok()) {
        if (r.error().excluded) continue;  // inputs that `init` excludes: no initial state
        reportStepError(sink, r.error(), {}, opts_.tracked);
        continue;
      }
      auto holds = ev_.initsHold(r.value());
      if (!holds.ok() || !holds.value()) continue;  // excluded by `init`
      Move m;  // an initial state is named by its source (which test) and its choices
      m.choices.push_back(source);
      m.choices.insert(m.choices.end(), en.taken().begin(), en.taken().end());
      emit(r.value(), m, sink, true);
    } while (en.advance());
  };
  auto emitSeeds = [&] {
    for (const exec::State& s : opts_.seeds) {
      Move m;
      m.choices.push_back(++source);
      emit(s, m, sink);
    }
  };
  if (opts_.entry == ir::kNone) {
    bool fromTests = false;
    for (const auto& t : p_.tests)
      if (t.isState) {
        fromTests = true;
        make([&](exec::Chooser& c) { return ev_.makeTestState(t, c); });
      }
    if (!fromTests) make([&](exec::Chooser& c) { return ev_.makeInitialState(c); });
    emitSeeds();
    return;
  }
  if (opts_.entryHasNoInputs && opts_.classIndex == ir::kNone) {
    make([&](exec::Chooser& c) { return ev_.makeEntryState(opts_.entry, {}, c); });
    emitSeeds();
    return;
  }
  bool fromTests = false;
  for (const auto& t : p_.tests)
    if (!t.isState && t.cfa == opts_.entry) {
      fromTests = true;
      make([&](exec::Chooser& c) { return ev_.makeTestState(t, c); });
    }
  emitSeeds();
  if (fromTests || opts_.classIndex == ir::kNone) return;
  const ir::Cfa& init = p_.cfas[opts_.entry];
  auto tuples = argTuples(init.params, 256);
  if (!tuples) {
    sink.incomplete("an argument of " + init.name + " cannot take values from the pool");
    return;
  }
  for (const auto& tuple : *tuples)
    make([&](exec::Chooser& c) {
      return ev_.makeClassInitState(opts_.classIndex, poolValues(p_, init.params, tuple), c);
    });
}

std::optional<std::vector<std::vector<int64_t>>> GenericSystem::argTuples(
    const std::vector<ir::VarId>& params, size_t limit) const {
  std::vector<std::vector<int64_t>> out{{}};
  for (ir::VarId v : params) {
    TypeRef t = p_.vars[v].type;
    std::vector<int64_t> domain;
    if (t->kind == TypeKind::Bool) {
      domain = {0, 1};
    } else if (t->kind == TypeKind::Enum) {
      for (size_t i = 0; i < t->members.size(); ++i) domain.push_back(static_cast<int64_t>(i));
    } else if (t->isIntegral()) {
      domain = opts_.argPool;
    } else {
      return std::nullopt;
    }
    std::vector<std::vector<int64_t>> next;
    for (const auto& prefix : out)
      for (int64_t x : domain) {
        if (next.size() >= limit) break;  // a bounded sample: execution is only a heuristic here
        next.push_back(prefix);
        next.back().push_back(x);
      }
    out = std::move(next);
  }
  return out;
}

void GenericSystem::methodCalls(const exec::State& s, SuccessorSink& sink) {
  const exec::Frame& f = s.threads[0].top();
  for (ir::CfaId m : p_.classes[opts_.classIndex].methods) {
    auto tuples = argTuples(p_.cfas[m].params, 64);
    if (!tuples) {
      sink.incomplete("an argument of " + p_.cfas[m].name + " cannot take values from the pool");
      continue;
    }
    for (const auto& tuple : *tuples) {
      Enumerator en({});
      do {
        exec::State n = s;
        auto st = ev_.startMethod(n, 0, m, poolValues(p_, p_.cfas[m].params, tuple), f.self, en);
        Move mv;
        mv.method = m;
        mv.args = tuple;
        mv.choices.assign(en.taken().begin(), en.taken().end());
        if (en.unbounded()) {
          sink.incomplete("a nondeterministic value of an unbounded type in the declarations of " +
                          p_.cfas[m].name);
          break;
        }
        if (!st.ok()) {
          reportStepError(sink, st.error(), mv, opts_.tracked);
          continue;
        }
        emit(n, mv, sink);
      } while (en.advance());
    }
  }
}

std::string GenericSystem::unenumerable(ir::EdgeId e) const {
  return "a nondeterministic value of an unbounded type at line " +
         std::to_string(p_.edges[e].loc.line) + " cannot be enumerated";
}

void GenericSystem::expand(const exec::State& s, exec::ThreadId turn, const Move& move,
                           unsigned depth, SuccessorSink& sink) {
  bool go = true;
  sys_.forEachMove(s, turn, [&](const exec::Move& mv) {
    if (go) go = stepLocal(s, mv, move, depth, sink);
  });
}

bool GenericSystem::stepLocal(const exec::State& s, const exec::Move& mv, const Move& move,
                              unsigned depth, SuccessorSink& sink) {
  Enumerator en({});
  do {
    exec::State n = s;
    auto r = sys_.step(n, mv, en);
    if (en.unbounded()) {
      sink.incomplete(unenumerable(mv.edge) + "; symbolic execution is not implemented yet");
      return false;
    }
    Move m = move;
    m.edges.push_back(mv.edge);
    m.choices.insert(m.choices.end(), en.taken().begin(), en.taken().end());
    switch (r.status()) {
      case exec::StepStatus::Blocked:
      case exec::StepStatus::Terminated:
        break;
      case exec::StepStatus::Error:
        reportStepError(sink, r.error(), m, opts_.tracked);
        break;
      case exec::StepStatus::Ok: {
        // Inside an atomic block the thread goes on; its intermediate states are not emitted.
        const exec::ThreadId turn = sys_.turnAfter(n, mv);
        const bool inAtomic = turn != exec::kNoThread;
        if (inAtomic && depth < opts_.atomicDepth && sys_.turnIn(n, turn) != exec::kNoThread) {
          expand(n, turn, m, depth + 1, sink);
        } else {
          if (inAtomic && depth >= opts_.atomicDepth)
            sink.incomplete("an atomic block ran for more than " +
                            std::to_string(opts_.atomicDepth) + " steps");
          emit(n, m, sink);
        }
        break;
      }
    }
  } while (en.advance());
  return true;
}

bool GenericSystem::stepRendezvous(const exec::State& s, const exec::Move& mv,
                                   SuccessorSink& sink) {
  bool moved = false;
  Enumerator en({});
  do {
    exec::State n = s;
    auto r = sys_.step(n, mv, en);
    if (en.unbounded()) {
      sink.incomplete(unenumerable(mv.edge));
      return moved;
    }
    Move m;
    m.thread = mv.thread;
    m.edges.push_back(mv.edge);
    m.partner = mv.partner;
    m.partnerEdge = mv.partnerEdge;
    m.choices.assign(en.taken().begin(), en.taken().end());
    if (r.status() == exec::StepStatus::Error) {
      moved = true;  // a step was possible: it fails
      reportStepError(sink, r.error(), m, opts_.tracked);
    } else if (r.ok()) {
      moved = true;
      emit(n, m, sink);
    }
  } while (en.advance());
  return moved;
}

bool GenericSystem::successors(std::string_view state, SuccessorSink& sink) {
  last_ = codec_.decode(state);
  const exec::State& s = last_;
  if (opts_.classIndex != ir::kNone && s.threads.size() == 1 && ev_.terminated(s, 0) &&
      s.threads[0].top().self != exec::kNoObject) {
    methodCalls(s, sink);
    return true;
  }
  bool any = false;
  exec::ThreadId stuck = exec::kNoThread;  // a step's choices could not be enumerated: skip it
  sys_.forEachMove(s, exec::kNoThread, [&](const exec::Move& mv) {
    if (mv.isRendezvous()) {
      if (stepRendezvous(s, mv, sink)) any = true;
      return;
    }
    any = true;
    if (mv.thread == stuck) return;
    Move m;
    m.thread = mv.thread;
    if (!stepLocal(s, mv, m, 0, sink)) stuck = mv.thread;
  });
  return any;
}

std::optional<FoundError> GenericSystem::checkInvariants(std::string_view state) {
  auto st = ev_.checkInvariants(codec_.decode(state));
  if (st.ok()) return std::nullopt;
  return FoundError{st.error().kind, st.error().loc, st.error().message, {}};
}

bool GenericSystem::allAtValidEnd(std::string_view state) {
  return sys_.allAtValidEnd(codec_.decode(state));
}

std::optional<bool> GenericSystem::guardConjunct(uint32_t t, ir::EdgeId e, uint32_t k) {
  if (t >= last_.threads.size() || e >= p_.edges.size()) return std::nullopt;
  const ir::Edge& edge = p_.edges[e];
  if (edge.kind != ir::EdgeKind::Command) return std::nullopt;
  conjuncts_.clear();
  ir::conjuncts(edge.guard, conjuncts_);
  if (k >= conjuncts_.size()) return std::nullopt;
  auto v = ev_.eval(conjuncts_[k], last_, t);
  if (!v.ok() || v.value().kind() != exec::ValueKind::Bool) return std::nullopt;
  return v.value().asBool();
}

void GenericSystem::locations(std::string_view state, std::vector<ir::LocId>& out) {
  exec::State s = codec_.decode(state);
  out.clear();
  for (const auto& th : s.threads)
    for (const auto& f : th.frames) out.push_back(f.pc);
}

std::optional<exec::State> GenericSystem::replay(const exec::State& state, const Move& move,
                                                 std::optional<FoundError>* error) const {
  exec::State s = state;
  // The choices of all edges of the move, consumed in order.
  class Script final : public exec::Chooser {
   public:
    explicit Script(const std::vector<uint32_t>& c) : c_(c) {}
    exec::Value choose(TypeRef type, SourceLoc) override {
      uint32_t v = next();
      if (type->kind == TypeKind::Bool) return exec::Value::boolean(v == 1);
      if (type->kind == TypeKind::Enum) return exec::Value::enumMember(type, v);
      return exec::defaultValue(type);
    }
    bool chooseBool() override { return next() == 1; }

   private:
    uint32_t next() { return i_ < c_.size() ? c_[i_++] : 0; }
    const std::vector<uint32_t>& c_;
    size_t i_ = 0;
  } script(move.choices);
  if (move.method != ir::kNone) {
    const exec::ObjectId self = s.threads[move.thread].top().self;
    auto st = ev_.startMethod(s, move.thread, move.method,
                              poolValues(p_, p_.cfas[move.method].params, move.args), self, script);
    if (!st.ok()) {
      if (error) *error = FoundError{st.error().kind, st.error().loc, st.error().message, move};
      return std::nullopt;
    }
    return s;
  }
  if (move.partner != kNoPartner) {
    auto r =
        move.edges.size() == 1
            ? sys_.step(s, {move.thread, move.edges[0], move.partner, move.partnerEdge}, script)
            : exec::StepResult::blocked();
    if (r.status() == exec::StepStatus::Error && error)
      *error = FoundError{r.error().kind, r.error().loc, r.error().message, move};
    if (!r.ok()) return std::nullopt;
    return s;
  }
  for (size_t i = 0; i < move.edges.size(); ++i) {
    auto r = sys_.step(s, {move.thread, move.edges[i], exec::kNoThread, ir::kNone}, script);
    if (r.status() == exec::StepStatus::Error) {
      if (error && i + 1 == move.edges.size())
        *error = FoundError{r.error().kind, r.error().loc, r.error().message, move};
      return std::nullopt;
    }
    if (!r.ok()) return std::nullopt;
  }
  return s;
}

}  // namespace tandem::search
