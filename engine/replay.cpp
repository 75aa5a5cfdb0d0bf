// `tandem replay FILE REPORT.json`: the counterexample of a saved --json report re-executed step
// by step by the reference evaluator, as `spin -t` follows a trail. Each saved step names its
// process, its source line and the state after it; the replay takes, from the current state, the
// move of that process from that line that leads to that state. It reproduces when the last step
// raises the saved kind of error (a deadlock: no process can move); otherwise the first step no
// move matches is the difference, reported with the moves that were possible there.
#include <algorithm>
#include <set>
#include <sstream>

#include "engine/api.h"
#include "engine/load.h"
#include "engine/setup.h"
#include "mc/exec/chooser.h"
#include "mc/exec/evaluator.h"
#include "mc/search/generic_system.h"
#include "report/replay_report.h"
#include "report/trace_steps.h"

namespace tandem::engine {

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

std::string text(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

uint32_t lineOf(const ir::Program& p, const search::Move& m) {
  return m.edges.empty() ? 0 : p.edges[m.edges.front()].loc.line;
}

// A saved step, as one line: `P2 (line 24): x2 := x1;`.
std::string stepText(const json& st) {
  std::string out = text(st, "process");
  if (st.value("line", 0u))
    out += (out.empty() ? "" : " ") + std::string("(line ") + std::to_string(st.value("line", 0u)) +
           ")";
  return out + (out.empty() ? "" : ": ") + text(st, "statement");
}

class Replayer {
 public:
  Replayer(const ir::Program& p, const ReplayRequest& r, const json& saved, exec::Evaluator& ev,
           search::GenericSystem& sys, uint32_t cls)
      : p_(p),
        r_(r),
        saved_(saved),
        ev_(ev),
        sys_(sys),
        cls_(cls),
        err_(saved["error"]),
        steps_(err_["trace"]),
        kind_(text(err_, "kind")),
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
  const ReplayRequest& r_;
  const json& saved_;
  exec::Evaluator& ev_;
  search::GenericSystem& sys_;
  uint32_t cls_;
  const json& err_;
  const json& steps_;
  std::string kind_;
  bool fabricated_;
  exec::RandomChooser chooser_{0};
  size_t call_ = 0;  // the class analysis: the saved call running
  std::string buf_;
  json difference_;
  std::string problem_;
};

std::optional<exec::Value> Replayer::argValue(const json& args, ir::VarId param) {
  const ir::Variable& v = p_.vars[param];
  exec::Value like = exec::defaultValue(v.type);
  if (!args.is_object() || !args.contains(v.name)) return like;
  return report::valueFromJson(args[v.name], like);
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
      if (!fabricated_ && (!want.is_object() || report::stateJson(p_, x) == want)) return x;
      if (!s) s = std::move(x);
    }
    if (!s) {
      differs(0, "the model has no initial state");
      return std::nullopt;
    }
  } else {
    const ir::CfaId entry = cls_ != ir::kNone ? p_.classes[cls_].init : entryOf(r_, p_);
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
  if (want.is_object() && !report::setStateValues(p_, *s, want, problem)) {
    differs(0, "the saved initial state does not fit the model: " + problem);
    return std::nullopt;
  }
  if (fabricated_ && !steps_.empty()) {  // the fabricated state's locations
    json where = steps_[0].contains("locations") ? steps_[0]["locations"] : json::object();
    if (!text(steps_[0], "process").empty() && where.is_object())
      where[text(steps_[0], "process")] = text(steps_[0], "label");
    for (exec::ThreadId t = 0; t < s->threads.size(); ++t) {
      std::string label = p_.isClosed() ? text(where, report::threadName(p_, *s, t).c_str())
                                        : text(steps_[0], "label");
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
  if (want.is_object() && report::stateJson(p_, *s) != want) {
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
    if (n.substr(n.rfind('.') + 1) == text(c, "method")) method = m;
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
    return text(st, "statement") == report::moveText(p_, m);
  const std::string proc = text(st, "process");
  if (cls_ == ir::kNone && !proc.empty() &&
      (m.thread >= before.threads.size() || report::threadName(p_, before, m.thread) != proc))
    return false;
  const uint32_t line = st.value("line", 0u);
  return !line || lineOf(p_, m) == line;
}

bool Replayer::stateMatches(const exec::State& s, const json& st) const {
  if (st.contains("state") && report::stateJson(p_, s) != st["state"]) return false;
  const json& where = st.contains("locations") ? st["locations"] : json();
  return !where.is_object() || where.empty() || report::locationsJson(p_, s) == where;
}

void Replayer::differs(size_t step, const std::string& why,
                       const std::vector<std::string>& possible) {
  problem_ = "step " + std::to_string(step) + " differs: " + why;
  difference_ = {{"step", step}, {"why", why}, {"possible", possible}};
  if (step < steps_.size()) difference_["expected"] = stepText(steps_[step]);
}

std::optional<exec::State> Replayer::step(size_t i, const exec::State& cur, search::Trace& tr,
                                          std::optional<search::FoundError>& found) {
  const json& st = steps_[i];
  const bool last = i + 1 == steps_.size();
  exec::State here = cur;
  Capture cap = successors(here);
  // A saved `call m(..)` step is a move of its own (prove's class traces); in check's class
  // traces the calls are in the report's `calls`, and a call starts once the last returned.
  const bool callStep = text(st, "statement").rfind("call ", 0) == 0;
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
    std::string who = p_.isClosed() ? report::threadName(p_, here, it.move.thread) + " " : "";
    possible.push_back(who + "(line " + std::to_string(lineOf(p_, it.move)) +
                       "): " + report::moveText(p_, it.move));
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
  e.label = text(err_, "label");
  e.trace = report::traceSteps(p_, tr);
  for (size_t i = 0; cls_ != ir::kNone && i < e.trace.size(); ++i)
    e.trace[i].process = text(steps_[i], "process");  // the call the step belongs to
  for (auto& s : e.trace) s.fabricated = fabricated_ && &s == &e.trace.front();
  e.initial = report::stateJson(p_, tr.initial);
  e.initialFabricated = fabricated_;
  return e;
}

Report Replayer::run(search::Budget& budget) {
  Report rep;
  rep.command = "replay";
  rep.file = r_.file;
  rep.extra["report"] = r_.reportFile;
  rep.extra["replayed_command"] = text(saved_, "command");
  rep.extra["steps"] = steps_.size();
  search::Trace tr;
  std::optional<search::FoundError> found;
  std::optional<exec::State> cur = start();
  if (cur) tr.initial = *cur;
  for (size_t i = 0; cur && !found && i < steps_.size(); ++i) {
    if (budget.poll()) break;
    cur = step(i, *cur, tr, found);
  }
  if (cur && !found && !budget.stopped()) found = atEnd(*cur);
  rep.extra["replayed_steps"] = tr.steps.size();
  if (budget.stopped()) {
    rep.reason = budget.stopped()->reason;
  } else if (found) {
    rep.verdict = fabricated_ ? Verdict::PotentialError : Verdict::Error;
    rep.error = errorInfo(*found, tr);
  } else {
    rep.reason = "not reproduced: " + problem_;
    rep.extra["difference"] = difference_;
  }
  addRunStats(rep.stats, budget);
  return rep;
}

// The integer arguments of the saved `call m(a, b)` steps: the pool the class analysis draws
// method arguments from.
std::vector<int64_t> callArguments(const json& steps) {
  std::set<int64_t> pool;
  for (const json& st : steps) {
    const std::string s = text(st, "statement");
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

}  // namespace

Report replay(ir::Program& p, const ReplayRequest& r) {
  RunBudget rb(r);  // reading a large report counts against the bounds too
  std::unique_ptr<json> read = report::readReplayReport(r.reportFile, rb.budget, r.keepMemory);
  // Request::keepMemory: the report (a DOM of 1.3 GB for 138 MB of text) is left to the OS.
  struct Release {
    std::unique_ptr<json>& saved;
    bool keep;
    ~Release() {
      if (keep) (void)saved.release();
    }
  } release{read, r.keepMemory};
  if (!read) {  // stopped while reading: the bound is the reason
    Report rep;
    rep.command = "replay";
    rep.file = r.file;
    rep.extra["report"] = r.reportFile;
    rep.reason = rb.budget.stopped()->reason;
    addRunStats(rep.stats, rb.budget);
    return rep;
  }
  const json& saved = *read;
  // The saved run's --invariant properties and --check overflow: part of the semantics the trace
  // was found under.
  if (const auto it = saved.find("invariants"); it != saved.end())
    for (const json& i : *it)
      p.invariants.push_back({i.get<std::string>(),
                              parseGlobalCondition(p, i.get<std::string>(), r.reportFile,
                                                   "an invariant of the report"),
                              {}});
  if (const auto it = saved.find("checks"); it != saved.end())
    if (std::find(it->begin(), it->end(), "overflow") != it->end()) p.checkOverflow = true;
  ReplayRequest req = r;
  if (req.entry.empty() && req.cls.empty()) {
    req.entry = text(saved, "entry");
    req.cls = text(saved, "class");
  }
  exec::NativeRegistry natives;
  loadNatives(req, p, natives);
  exec::Evaluator ev(p, natives);
  search::GenericOptions go;
  go.tracked.fill(true);
  go.initialUnchecked = true;
  const uint32_t cls = classOf(req, p);
  if (cls != ir::kNone) {
    go.entry = p.classes[cls].init;
    go.classIndex = cls;
    go.argPool = callArguments(saved["error"]["trace"]);
  } else if (!p.isClosed()) {
    go.entry = entryOf(req, p);
  }
  search::GenericSystem sys(p, ev, go);
  Replayer replayer(p, req, saved, ev, sys, cls);
  try {
    return replayer.run(rb.budget);
  } catch (const json::exception& e) {  // a value the shape check lets through and JSON refuses
    throw fileError(r.reportFile, std::string("a malformed report: ") + e.what());
  }
}

}  // namespace tandem::engine
