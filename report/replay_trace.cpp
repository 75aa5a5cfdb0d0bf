#include "report/replay_trace.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "mc/exec/chooser.h"
#include "report/trace_steps.h"

namespace tandem::report {

namespace {

using nlohmann::json;

// Every successor and error of one state.
class Capture final : public search::SuccessorSink {
 public:
  struct Item {
    std::string state;
    search::Move move;
  };
  void successor(std::string_view s, const search::Move& m) override {
    items.push_back({std::string(s), m});
  }
  void error(const search::FoundError& e) override { errors.push_back(e); }
  void incomplete(const std::string& why) override { incompleteReason = why; }
  std::vector<Item> items;
  std::vector<search::FoundError> errors;
  std::string incompleteReason;
};

// j[key], or null when j has no such key (a const operator[] on a missing key is undefined).
const json& member(const json& j, const char* key) {
  static const json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

uint32_t lineOf(const ir::Program& p, const search::Move& m) {
  return m.edges.empty() ? 0 : p.edges[m.edges.front()].loc.line;
}

// A saved step, as one line: `P2 (line 24): x2 := x1;`.
std::string stepText(const json& st) {
  std::string out = stringAt(st, "process");
  if (st.value("line", 0u))
    out += (out.empty() ? "" : " ") + std::string("(line ") + std::to_string(st.value("line", 0u)) +
           ")";
  return out + (out.empty() ? "" : ": ") + stringAt(st, "statement");
}

class Replayer {
 public:
  Replayer(const ir::Program& p, const json& saved, exec::Evaluator& ev, search::GenericSystem& sys,
           ir::CfaId entry, uint32_t cls)
      : p_(p),
        saved_(saved),
        ev_(ev),
        sys_(sys),
        entry_(entry),
        cls_(cls),
        err_(saved["error"]),
        steps_(err_["trace"]),
        kind_(stringAt(err_, "kind")),
        fabricated_(err_.value("initial_fabricated", false)) {}

  Report run(search::Budget& budget);

 private:
  std::optional<exec::State> start();
  std::optional<exec::Value> argValue(const json& args, ir::VarId param);
  bool startNextCall(exec::State& s);
  bool moveMatches(const exec::State& before, const search::Move& m, const json& st) const;
  bool stateMatches(const exec::State& s, const json& st) const;
  void differs(size_t step, const std::string& why, const std::vector<std::string>& possible = {});
  // Saved step i from `cur`: the error it raises (into `found`), or the state it leads to; none
  // when no move of the model matches it.
  std::optional<exec::State> step(size_t i, const exec::State& cur, search::Trace& tr,
                                  std::optional<search::FoundError>& found);
  // After the last step: the deadlock or initial invariant violation the trace ends in.
  std::optional<search::FoundError> atEnd(const exec::State& cur);
  ErrorInfo errorInfo(const search::FoundError& found, const search::Trace& tr) const;
  Capture successors(const exec::State& s) {
    Capture cap;
    sys_.codec().encode(s, buf_);
    sys_.successors(buf_, cap);
    return cap;
  }

  const ir::Program& p_;
  const json& saved_;
  exec::Evaluator& ev_;
  search::GenericSystem& sys_;
  ir::CfaId entry_;
  uint32_t cls_;
  const json& err_;
  const json& steps_;
  std::string kind_;
  bool fabricated_;
  exec::RandomChooser chooser_{0};
  size_t call_ = 0;  // the class analysis: the saved call running
  std::string buf_;
  std::optional<ReplayKeys::Difference> difference_;
  std::string problem_;
};

std::optional<exec::Value> Replayer::argValue(const json& args, ir::VarId param) {
  const ir::Variable& v = p_.vars[param];
  exec::Value like = exec::defaultValue(v.type);
  if (!args.is_object() || !args.contains(v.name)) return like;
  return valueFromJson(args[v.name], like);
}

// The state the saved trace starts from: the matching initial state of a closed system, or the
// entry's (the class initialiser's) first state with the saved inputs; a fabricated state is
// rebuilt from its values and the first step's locations.
std::optional<exec::State> Replayer::start() {
  const json& want = err_.contains("initial_state") ? err_["initial_state"] : json();
  std::optional<exec::State> s;
  if (p_.isClosed()) {
    Capture init;
    sys_.initialStates(init);
    for (const auto& it : init.items) {
      exec::State x = sys_.codec().decode(it.state);
      if (!fabricated_ && (!want.is_object() || stateJson(p_, x) == want)) return x;
      if (!s) s = std::move(x);
    }
    if (!s) {
      differs(0, "the model has no initial state");
      return std::nullopt;
    }
  } else {
    const ir::CfaId entry = cls_ != ir::kNone ? p_.classes[cls_].init : entry_;
    const json& calls = saved_.contains("calls") ? saved_["calls"] : json::array();
    const json& args = cls_ != ir::kNone && !calls.empty() ? member(calls[0], "args") : want;
    std::vector<exec::Value> values;
    for (ir::VarId v : p_.cfas[entry].params) {
      auto x = argValue(args, v);
      if (!x) {
        differs(0, "the saved value of " + p_.vars[v].name + " does not fit its type");
        return std::nullopt;
      }
      values.push_back(std::move(*x));
    }
    auto made = cls_ != ir::kNone ? ev_.makeClassInitState(cls_, std::move(values), chooser_)
                                  : ev_.makeEntryState(entry, std::move(values), chooser_);
    if (!made.ok()) {
      differs(0, "the initial state cannot be built: " + made.error().message);
      return std::nullopt;
    }
    s = std::move(made).value();
  }
  std::string problem;
  if (want.is_object() && !setStateValues(p_, *s, want, problem)) {
    differs(0, "the saved initial state does not fit the model: " + problem);
    return std::nullopt;
  }
  if (fabricated_ && !steps_.empty()) {  // the fabricated state's locations
    json where = steps_[0].contains("locations") ? steps_[0]["locations"] : json::object();
    if (!stringAt(steps_[0], "process").empty() && where.is_object())
      where[stringAt(steps_[0], "process")] = stringAt(steps_[0], "label");
    for (exec::ThreadId t = 0; t < s->threads.size(); ++t) {
      std::string label = p_.isClosed() ? stringAt(where, threadName(p_, *s, t).c_str())
                                        : stringAt(steps_[0], "label");
      if (label.empty()) continue;
      exec::Frame& f = s->threads[t].top();
      const auto& locs = p_.cfas[f.cfa].locs;
      auto it = std::find_if(locs.begin(), locs.end(),
                             [&](ir::LocId l) { return p_.locName(l) == label; });
      if (it == locs.end()) {
        differs(0, "the model has no location " + label + " in " + p_.cfas[f.cfa].name);
        return std::nullopt;
      }
      f.pc = *it;
    }
  }
  if (want.is_object() && stateJson(p_, *s) != want) {
    differs(0, "the saved initial state is not a state of the model");
    return std::nullopt;
  }
  return s;
}

// The class analysis: the previous call has returned; the next saved call starts.
bool Replayer::startNextCall(exec::State& s) {
  const json& calls = saved_.contains("calls") ? saved_["calls"] : json::array();
  if (cls_ == ir::kNone || call_ + 1 >= calls.size()) return false;
  const json& c = calls[++call_];
  ir::CfaId method = ir::kNone;
  for (ir::CfaId m : p_.classes[cls_].methods) {
    const std::string& n = p_.cfas[m].name;
    if (n.substr(n.rfind('.') + 1) == stringAt(c, "method")) method = m;
  }
  if (method == ir::kNone) return false;
  std::vector<exec::Value> args;
  for (ir::VarId v : p_.cfas[method].params) {
    auto x = argValue(member(c, "args"), v);
    if (!x) return false;
    args.push_back(std::move(*x));
  }
  const exec::ObjectId self = s.threads[0].top().self;
  return ev_.startMethod(s, 0, method, std::move(args), self, chooser_).ok();
}

bool Replayer::moveMatches(const exec::State& before, const search::Move& m, const json& st) const {
  if (m.method != ir::kNone)  // a method call of the class analysis: `call pop()`
    return stringAt(st, "statement") == moveText(p_, m);
  const std::string proc = stringAt(st, "process");
  if (cls_ == ir::kNone && !proc.empty() &&
      (m.thread >= before.threads.size() || threadName(p_, before, m.thread) != proc))
    return false;
  const uint32_t line = st.value("line", 0u);
  return !line || lineOf(p_, m) == line;
}

bool Replayer::stateMatches(const exec::State& s, const json& st) const {
  if (st.contains("state") && stateJson(p_, s) != st["state"]) return false;
  const json& where = st.contains("locations") ? st["locations"] : json();
  return !where.is_object() || where.empty() || locationsJson(p_, s) == where;
}

void Replayer::differs(size_t step, const std::string& why,
                       const std::vector<std::string>& possible) {
  problem_ = "step " + std::to_string(step) + " differs: " + why;
  difference_ = ReplayKeys::Difference{step, why, possible, std::nullopt};
  if (step < steps_.size()) difference_->expected = stepText(steps_[step]);
}

std::optional<exec::State> Replayer::step(size_t i, const exec::State& cur, search::Trace& tr,
                                          std::optional<search::FoundError>& found) {
  const json& st = steps_[i];
  const bool last = i + 1 == steps_.size();
  exec::State here = cur;
  Capture cap = successors(here);
  // A saved `call m(..)` step is a move of its own (prove's class traces); in check's class
  // traces the calls are in the report's `calls`, and a call starts once the last returned.
  const bool callStep = stringAt(st, "statement").rfind("call ", 0) == 0;
  auto ownMove = [&](const search::Move& m) { return callStep || m.method == ir::kNone; };
  if (std::none_of(cap.items.begin(), cap.items.end(), [&](auto& x) { return ownMove(x.move); }) &&
      std::none_of(cap.errors.begin(), cap.errors.end(),
                   [&](auto& e) { return ownMove(e.move); }) &&
      startNextCall(here))
    cap = successors(here);
  if (last && kind_ != "deadlock")
    for (const auto& e : cap.errors)
      if (!found && ir::errorKindName(e.kind) == kind_ && moveMatches(here, e.move, st)) {
        found = e;
        // An invariant fails in the state the move leads to; other errors stop the move.
        std::optional<exec::State> after;
        if (e.kind == ir::ErrorKind::Invariant) after = sys_.replay(here, e.move, nullptr);
        tr.steps.push_back({e.move, here, after ? *after : here});
      }
  if (found) return here;
  std::vector<std::string> possible;
  for (const auto& it : cap.items) {
    if (!ownMove(it.move)) continue;
    exec::State x = sys_.codec().decode(it.state);
    if (moveMatches(here, it.move, st) && stateMatches(x, st)) {
      tr.steps.push_back({it.move, here, x});
      return x;
    }
    std::string who = p_.isClosed() ? threadName(p_, here, it.move.thread) + " " : "";
    possible.push_back(who + "(line " + std::to_string(lineOf(p_, it.move)) +
                       "): " + moveText(p_, it.move));
  }
  for (const auto& e : cap.errors)
    possible.push_back(std::string("an error: ") + ir::errorKindName(e.kind) + ": " + e.message);
  differs(i, "no move of the model matches it", possible);
  return std::nullopt;
}

std::optional<search::FoundError> Replayer::atEnd(const exec::State& cur) {
  Capture cap = successors(cur);
  sys_.codec().encode(cur, buf_);
  if (kind_ == "deadlock" &&
      search::deadlocked(sys_, buf_, !cap.items.empty() || !cap.errors.empty()))
    return search::FoundError{ir::ErrorKind::Deadlock, {}, "no process can move", {}};
  if (steps_.empty() && kind_ == "invariant") {
    auto st = ev_.checkInvariants(cur);
    if (!st.ok())
      return search::FoundError{st.error().kind, st.error().loc, st.error().message, {}};
  }
  differs(steps_.size(), "the trace ran to its end and raised no " + kind_ + " error");
  return std::nullopt;
}

ErrorInfo Replayer::errorInfo(const search::FoundError& found, const search::Trace& tr) const {
  ErrorInfo e;
  e.kind = found.kind == ir::ErrorKind::Deadlock ? "deadlock" : ir::errorKindName(found.kind);
  e.message = found.message;
  e.line = found.loc.line;
  e.label = stringAt(err_, "label");
  e.trace = traceSteps(p_, tr);
  for (size_t i = 0; cls_ != ir::kNone && i < e.trace.size(); ++i)
    e.trace[i].process = stringAt(steps_[i], "process");  // the call the step belongs to
  for (auto& s : e.trace) s.fabricated = fabricated_ && &s == &e.trace.front();
  e.initial = stateJson(p_, tr.initial);
  e.initialFabricated = fabricated_;
  return e;
}

Report Replayer::run(search::Budget& budget) {
  Report rep;
  rep.command = "replay";
  rep.replay = ReplayKeys{"", stringAt(saved_, "command"), steps_.size(), {}, {}};
  search::Trace tr;
  std::optional<search::FoundError> found;
  std::optional<exec::State> cur = start();
  if (cur) tr.initial = *cur;
  for (size_t i = 0; cur && !found && i < steps_.size(); ++i) {
    if (budget.poll()) break;
    cur = step(i, *cur, tr, found);
  }
  if (cur && !found && !budget.stopped()) found = atEnd(*cur);
  rep.replay->replayedSteps = tr.steps.size();
  if (budget.stopped()) {
    rep.reason = budget.stopped()->reason;
  } else if (found) {
    rep.verdict = fabricated_ ? Verdict::PotentialError : Verdict::Error;
    rep.error = errorInfo(*found, tr);
  } else {
    rep.reason = "not reproduced: " + problem_;
    rep.replay->difference = difference_;
  }
  return rep;
}

}  // namespace

std::string stringAt(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

Report replayTrace(const ir::Program& p, const json& saved, exec::Evaluator& ev,
                   search::GenericSystem& sys, ir::CfaId entry, uint32_t cls,
                   search::Budget& budget) {
  return Replayer(p, saved, ev, sys, entry, cls).run(budget);
}

// The integer arguments of the saved `call m(a, b)` steps: the pool the class analysis draws
// method arguments from.
std::vector<int64_t> callArguments(const json& steps) {
  std::set<int64_t> pool;
  for (const json& st : steps) {
    const std::string s = stringAt(st, "statement");
    if (s.rfind("call ", 0) != 0 || s.find('(') == std::string::npos) continue;
    std::istringstream args(s.substr(s.find('(') + 1));
    for (std::string a; std::getline(args, a, ',');) {
      try {
        pool.insert(std::stoll(a));
      } catch (const std::exception&) {  // a bool or enum argument: not from the pool
      }
    }
  }
  return {pool.begin(), pool.end()};
}

}  // namespace tandem::report
