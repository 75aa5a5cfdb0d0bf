#include "testgen/execution.h"

#include <utility>

#include "mc/smt/leaf_key.h"
#include "mc/symbolic/concretizer.h"
#include "mc/symbolic/model_state.h"

namespace tandem::testgen {

namespace {

using symbolic::SymState;
using symbolic::SymValue;

BigInt numberOf(const exec::Value& v) {
  switch (v.kind()) {
    case exec::ValueKind::Bool:
      return BigInt(v.asBool() ? 1 : 0);
    case exec::ValueKind::Enum:
      return BigInt(static_cast<int64_t>(v.enumIndex()));
    default:
      return v.isIntegral() ? v.toBigInt() : BigInt(0);
  }
}

// What one edge attempt met, in order.
struct Event {
  enum class Kind : uint8_t { Cond, Check, Call };
  Kind kind = Kind::Cond;
  ExprRef cond = nullptr;  // Cond: the condition; Check: the failure
  bool value = false;      // on the run's valuation
  exec::ExecError error;   // Check
  CallSite call;           // Call
};

Event event(Event::Kind kind, ExprRef cond, bool value) {
  Event e;
  e.kind = kind;
  e.cond = cond;
  e.value = value;
  return e;
}

// Counters of the whole execution.
struct Run {
  Forest& forest;
  const Inputs& inputs;
  ExecutionResult result;
  uint64_t steps = 0;
  std::vector<ExprRef> params, globals, havocs;  // the entry's input symbols, in order
};

struct Outcome {
  ExecutionResult::End end = ExecutionResult::End::Returned;
  std::optional<exec::Value> value;  // Returned, with a result
  std::vector<ir::EdgeId> path;      // this invocation's edges, its callees' spliced in
};

class Invocation final : public symbolic::TransferPolicy {
 public:
  Invocation(Run& run, ir::CfaId cfa, size_t base)
      : run_(run),
        f_(run.forest),
        p_(f_.program()),
        cfa_(cfa),
        base_(base),
        tree_(f_.tree(cfa)),
        conc_(f_.evaluator().concrete(), scalars_) {}

  void bind(ExprRef symbol, const exec::Value& v) {
    if (v.kind() == exec::ValueKind::Array) {
      smt::ArrayValue a;
      a.length = BigInt(static_cast<int64_t>(v.length()));
      for (size_t i = 0; i < v.length(); ++i)
        a.elements[BigInt(static_cast<int64_t>(i))] = numberOf(v.at(i));
      model_.setArray(smt::LeafKey::of(symbol), std::move(a));
    } else {
      model_.setScalar(smt::LeafKey::of(symbol), numberOf(v));
      scalars_[symbol] = numberOf(v);
    }
  }

  // The entry: its initial state, then its run.
  Outcome runEntry() {
    SymState s;
    begin(s);
    const bool ok = f_.transfer().enter(s, f_.entry(), *this);
    if (!settleEntry(ok, ir::kNone)) return std::move(out_);
    return run(std::move(s));
  }

  // A summarised procedure called by edge `id` from `at` (the caller's state at the call site)
  // with `args` (valued in `caller`'s model).
  Outcome runCall(const SymState& at, ir::EdgeId id, const std::vector<SymValue>& args,
                  const smt::Model& caller) {
    SymState s;
    s.globals = at.globals;
    s.threads = at.threads;
    s.heap = at.heap;
    s.frames = at.frames;
    const ir::Cfa& callee = p_.cfas[cfa_];
    std::vector<SymValue> params;
    for (size_t i = 0; i < callee.params.size() && i < args.size(); ++i) {
      const SymValue& x = f_.param(cfa_, i);
      TypeRef t = p_.vars[callee.params[i]].type;
      bind(x.expr, symbolic::modelValue(args[i], t, caller));
      params.push_back(x);
    }
    begin(s);
    const bool ok = f_.transfer().enterCall(s, id, std::move(params), *this);
    if (!settleEntry(ok, id)) return std::move(out_);
    return run(std::move(s));
  }

  ~Invocation() override { run_.result.concretized += conc_.concretizations(); }
  Invocation(const Invocation&) = delete;
  Invocation& operator=(const Invocation&) = delete;

  const smt::Model& model() const { return model_; }

 private:
  // --- the TransferPolicy ---
  bool feasible(SymState& s) override {
    for (; checked_ < s.pathCond.size(); ++checked_) {
      ExprRef c = s.pathCond[checked_];
      auto v = model_.evalBool(c);
      if (!v) {
        undecided_ = true;
        return false;
      }
      events_.push_back(event(Event::Kind::Cond, c, *v));
      if (!*v) return false;
    }
    return true;
  }

  void fail(const SymState&, ExprRef bad, const exec::ExecError& error, ir::EdgeId id) override {
    auto v = model_.evalBool(bad);
    if (!v) {
      undecided_ = true;
      return;
    }
    events_.push_back(event(Event::Kind::Check, bad, *v));
    events_.back().error = error;
    if (*v) {
      failed_ = true;
      failEdge_ = id;
      run_.result.path.error = error;
    }
  }

  SymValue input(SymState&, symbolic::InputKind kind, TypeRef t, const std::string& name) override {
    if (cfa_ != f_.entry() || kind == symbolic::InputKind::MethodArg)
      throw symbolic::NotImplemented("inputs of a summarised procedure");
    std::vector<ExprRef>& list = kind == symbolic::InputKind::Param    ? run_.params
                                 : kind == symbolic::InputKind::Global ? run_.globals
                                                                       : run_.havocs;
    ExprRef symbol = nullptr;
    SymValue v = f_.input(kind, list.size(), name, t, symbol);
    list.push_back(symbol);
    auto it = run_.inputs.find(symbol);
    bind(symbol, it != run_.inputs.end() ? it->second : exec::defaultValue(t));
    return v;
  }

  void successor(SymState&& s, ir::EdgeId) override { next_ = std::move(s); }

  void returned(const SymState&, ir::EdgeId) override { returned_ = true; }

  bool summarise(const SymState& s, ir::EdgeId id, const std::vector<SymValue>& args) override {
    const ir::Edge& e = p_.edges[id];
    if (!f_.summarised(e.callee)) return false;
    Invocation callee(run_, e.callee, s.frames.size());
    Outcome o = callee.runCall(s, id, args, model_);
    f_.evaluator().setPolicy(&conc_);  // the callee's is gone
    calleePath_ = std::move(o.path);
    const ir::Cfa& cfa = p_.cfas[e.callee];
    CallSite site{e.callee, id, {}, nullptr, calls_};
    for (size_t i = 0; i < args.size() && i < cfa.params.size(); ++i) {
      TypeRef t = p_.vars[cfa.params[i]].type;
      site.args.push_back(args[i].kind == SymValue::Kind::Array
                              ? f_.evaluator().arrayTerm(args[i], t)
                              : args[i].expr);
    }
    if (cfa.resultVar != ir::kNone)
      site.result = f_.result(cfa_, calls_, id, p_.vars[cfa.resultVar].type);
    ++calls_;
    events_.push_back(event(Event::Kind::Call, nullptr, true));
    events_.back().call = site;
    if (o.end != ExecutionResult::End::Returned) {
      calleeEnd_ = o.end;
      if (o.end == ExecutionResult::End::Failed) failed_ = true;
      return true;
    }
    std::optional<SymValue> result;
    if (site.result) {
      bind(site.result, *o.value);
      result = SymValue::scalar(site.result);
    }
    f_.transfer().skipCall(s, id, result, *this);
    return true;
  }

  bool stopped() const override { return failed_ || undecided_ || calleeEnd_.has_value(); }

  // --- the run ---
  void begin(const SymState& s) {
    events_.clear();
    checked_ = s.pathCond.size();
    next_.reset();
    failed_ = returned_ = undecided_ = false;
    calleeEnd_.reset();
    calleePath_.clear();
  }

  // After the initial state or the callee's frame was made: false when the run ended there.
  bool settleEntry(bool ok, ir::EdgeId id) {
    apply(events_);
    if (failed_) {
      if (id == ir::kNone) run_.result.path.errorAtEntry = true;
      return end(ExecutionResult::End::Failed);
    }
    if (undecided_) return cut("a condition the run cannot evaluate");
    if (!ok) return end(ExecutionResult::End::Blocked);
    return true;
  }

  bool end(ExecutionResult::End e) {
    out_.end = e;
    TreeNode& n = tree_.node(node_);
    if (e == ExecutionResult::End::Failed) n.failed = true;
    if (e == ExecutionResult::End::Blocked) n.blocked = true;
    if (e == ExecutionResult::End::Cut) n.cut = true;
    return false;
  }

  bool cut(const std::string& reason) {
    if (run_.result.reason.empty()) run_.result.reason = reason;
    return end(ExecutionResult::End::Cut);
  }

  // The taken attempt's events: the path goes down the tree.
  void apply(const std::vector<Event>& evs) {
    for (const Event& ev : evs) {
      switch (ev.kind) {
        case Event::Kind::Cond:
          if (!ev.value) return;
          node_ = tree_.child(node_, ev.cond, edge_);
          tree_.node(node_).explored = true;
          break;
        case Event::Kind::Check: {
          const uint32_t k = tree_.child(node_, ev.cond, edge_);
          tree_.node(k).error = ev.error;
          if (ev.value) {
            tree_.node(k).explored = true;
            node_ = k;
            return;
          }
          break;
        }
        case Event::Kind::Call:
          tree_.addCall(node_, ev.call);
          break;
      }
    }
  }

  // An attempt not taken: the other side of the branch, from `from`.
  void alternative(uint32_t from, const std::vector<Event>& evs, ir::EdgeId edge) {
    uint32_t m = from;
    for (size_t i = 0; i < evs.size(); ++i) {
      const Event& ev = evs[i];
      if (ev.kind == Event::Kind::Check) {
        if (!ev.value) tree_.node(tree_.child(m, ev.cond, edge)).error = ev.error;
        continue;
      }
      if (ev.kind != Event::Kind::Cond) continue;
      if (ev.value) {
        bool descended = false;
        for (uint32_t k : tree_.node(m).kids)
          if (tree_.node(k).cond == ev.cond && tree_.node(k).explored) {
            m = k;
            descended = true;
          }
        if (descended) continue;
      }
      // The rest of the attempt's conditions, up to the false one, is the dangling node's.
      std::vector<ExprRef> rest;
      for (size_t j = i; j < evs.size(); ++j)
        if (evs[j].kind == Event::Kind::Cond) rest.push_back(evs[j].cond);
      tree_.child(m, f_.exprs().mkAnd(rest), edge);
      return;
    }
  }

  Outcome run(SymState s) {
    const symbolic::Mover mover;
    for (;;) {
      search::Budget& b = f_.budget();
      if (b.poll() || b.chargeState()) {
        cut(b.stopped() ? b.stopped()->reason : "a bound");
        break;
      }
      if (b.depthExceeded(++run_.steps)) {
        cut(search::depthBoundReason(*b.limits().maxDepth));
        break;
      }
      const std::vector<ir::EdgeId>& outs = p_.locs[s.top().pc].out;
      if (base_ > 0 && s.frames.size() == base_ + 1) {
        ir::EdgeId ret = ir::kNone;
        for (ir::EdgeId e : outs)
          if (p_.edges[e].kind == ir::EdgeKind::Return) ret = e;
        if (ret != ir::kNone) {  // the invocation returns
          const ir::Cfa& cfa = p_.cfas[cfa_];
          out_.path.push_back(ret);
          TreeNode& n = tree_.node(node_);
          n.returned = true;
          if (cfa.resultVar != ir::kNone) {
            const ir::Variable& v = p_.vars[cfa.resultVar];
            const SymValue& r = s.top().locals[v.slot];
            n.ret = r.expr;
            out_.value = symbolic::modelValue(r, v.type, model_);
          }
          out_.end = ExecutionResult::End::Returned;
          break;
        }
      }
      const uint32_t from = node_;
      std::optional<SymState> taken;
      std::vector<Event> takenEvents;
      std::vector<ir::EdgeId> takenCallee;
      ir::EdgeId takenEdge = ir::kNone;
      std::vector<std::pair<ir::EdgeId, std::vector<Event>>> others;
      bool stop = false, ret = false;
      for (ir::EdgeId e : outs) {
        begin(s);
        edge_ = e;
        f_.evaluator().setPolicy(&conc_);
        f_.transfer().step(s, mover, e, *this);
        if (failed_ || undecided_ || calleeEnd_ || returned_) {
          takenEvents = std::move(events_);
          takenCallee = std::move(calleePath_);
          takenEdge = e;
          stop = true;
          ret = returned_;
          break;
        }
        if (next_ && !taken) {
          taken = std::move(next_);
          takenEvents = std::move(events_);
          takenCallee = std::move(calleePath_);
          takenEdge = e;
        } else {
          others.emplace_back(e, std::move(events_));
        }
      }
      // The taken path first: the attempts not taken share its conditions up to where they part.
      edge_ = takenEdge;
      apply(takenEvents);
      for (const auto& [e, evs] : others) alternative(from, evs, e);
      if (takenEdge != ir::kNone && !ret && !undecided_) {
        out_.path.push_back(takenEdge);
        out_.path.insert(out_.path.end(), takenCallee.begin(), takenCallee.end());
      }
      if (stop) {
        if (ret) {
          tree_.node(node_).returned = true;
          out_.end = ExecutionResult::End::Returned;
        } else if (failed_) {
          if (failEdge_ == ir::kNone && !calleeEnd_) run_.result.path.errorAtEntry = true;
          end(ExecutionResult::End::Failed);
        } else if (undecided_) {
          cut("a condition the run cannot evaluate");
        } else {
          end(*calleeEnd_);
        }
        break;
      }
      if (!taken) {
        end(ExecutionResult::End::Blocked);
        break;
      }
      s = std::move(*taken);
    }
    return std::move(out_);
  }

  Run& run_;
  Forest& f_;
  const ir::Program& p_;
  ir::CfaId cfa_;
  size_t base_;  // frames below the procedure's (the caller's)
  ExecTree& tree_;
  smt::Model model_;
  symbolic::SymbolValues scalars_;  // the scalar part of model_, for the concretizer
  symbolic::DartConcretizer conc_;
  uint32_t node_ = 0;
  uint32_t calls_ = 0;  // calls of summarised procedures made so far
  Outcome out_;
  // The current attempt.
  std::vector<Event> events_;
  size_t checked_ = 0;
  ir::EdgeId edge_ = ir::kNone;
  std::optional<SymState> next_;
  bool failed_ = false, returned_ = false, undecided_ = false;
  ir::EdgeId failEdge_ = ir::kNone;
  std::optional<ExecutionResult::End> calleeEnd_;
  std::vector<ir::EdgeId> calleePath_;
};

exec::Value valueOf(const Inputs& in, ExprRef symbol) {
  auto it = in.find(symbol);
  return it != in.end() ? it->second : exec::defaultValue(symbol->type);
}

}  // namespace

ExecutionResult execute(Forest& forest, const Inputs& inputs) {
  Run run{forest, inputs, {}, 0, {}, {}, {}};
  Outcome o;
  {
    Invocation entry(run, forest.entry(), 0);
    o = entry.runEntry();
  }  // (its concretizations are counted when it ends)
  ExecutionResult r = std::move(run.result);
  r.end = o.end;
  r.path.path = std::move(o.path);
  const ir::Program& p = forest.program();
  const ir::Cfa& cfa = p.cfas[forest.entry()];
  for (size_t i = 0; i < run.params.size(); ++i) {
    r.path.args.push_back(valueOf(inputs, run.params[i]));
    r.path.inputs.emplace_back(p.vars[cfa.params[i]].name, r.path.args.back());
  }
  for (ExprRef g : run.globals) {
    r.path.script.push_back(valueOf(inputs, g));
    r.path.inputs.emplace_back(forest.exprs().symbolName(g->payload), r.path.script.back());
  }
  for (size_t i = 0; i < run.havocs.size(); ++i) {
    r.path.script.push_back(valueOf(inputs, run.havocs[i]));
    r.path.inputs.emplace_back("havoc#" + std::to_string(i + 1), r.path.script.back());
  }
  if (o.end != ExecutionResult::End::Failed) r.path.error.reset();
  return r;
}

}  // namespace tandem::testgen
