#include "report/trace_steps.h"

#include <cmath>
#include <limits>
#include <set>

#include "mc/exec/state_format.h"
#include "mc/expr/float64.h"

namespace tandem::report {

std::string threadName(const ir::Program& p, const exec::State& s, exec::ThreadId t) {
  const exec::Thread& th = s.threads[t];
  const ir::Cfa& c = p.cfas[th.cfa];
  if (c.kind == ir::CfaKind::Process && c.instances > 1)
    return c.name + "[" + std::to_string(th.instance) + "]";
  return c.name;
}

namespace {

nlohmann::json namedValueJson(const exec::Value& v, const exec::ValueNames& names) {
  switch (v.kind()) {
    case exec::ValueKind::Int:
      if (auto s = v.asInt().toInt64()) return *s;
      return v.asInt().toString();
    case exec::ValueKind::I32:
    case exec::ValueKind::I64:
      return v.asBits();
    case exec::ValueKind::F64:  // JSON has no NaN or infinity: those are the strings of format
      if (std::isfinite(v.asF64())) return v.asF64();
      return f64::format(v.asF64());
    case exec::ValueKind::Bool:
      return v.asBool();
    case exec::ValueKind::Null:
      return nullptr;
    case exec::ValueKind::Array: {
      auto a = nlohmann::json::array();
      for (const auto& e : v.elements()) a.push_back(namedValueJson(e, names));
      return a;
    }
    default:
      return v.toString(&names);
  }
}

// Every user-visible variable of `s` by its report name (the one naming rule: stateValues,
// stateJson and setStateValues all walk it). `S` is State or const State.
template <typename S, typename F>
void forEachVariable(const ir::Program& p, S& s, F&& f) {
  for (size_t i = 0; i < s.globals.size(); ++i) f(p.vars[p.globals[i]].name, s.globals[i]);
  bool several = s.threads.size() > 1;
  for (exec::ThreadId t = 0; t < s.threads.size(); ++t) {
    auto& th = s.threads[t];
    std::string prefix = several ? threadName(p, s, t) + "." : "";  // as in changedValues
    const ir::Cfa& proc = p.cfas[th.cfa];
    for (size_t i = 0; i < th.processLocals.size(); ++i)
      f(threadName(p, s, t) + "." + p.vars[proc.processLocals[i]].name, th.processLocals[i]);
    auto& fr = th.top();
    const ir::Cfa& c = p.cfas[fr.cfa];
    for (size_t i = 0; i < fr.locals.size(); ++i)
      if (!p.vars[c.locals[i]].hidden) f(prefix + p.vars[c.locals[i]].name, fr.locals[i]);
    if (fr.self != exec::kNoObject && fr.self < s.heap.size()) {
      auto& obj = s.heap[fr.self];
      const auto& fields = p.classes[obj.classIndex].fields;
      for (size_t i = 0; i < obj.fields.size(); ++i)
        f(prefix + p.vars[fields[i]].name, obj.fields[i]);
    }
  }
}

}  // namespace

std::optional<exec::Value> valueFromJson(const nlohmann::json& j, const exec::Value& like) {
  auto integer = [&]() -> std::optional<BigInt> {
    if (j.is_number_integer()) return BigInt(j.get<int64_t>());
    if (j.is_string()) return BigInt::parse(j.get<std::string>());
    return std::nullopt;
  };
  switch (like.kind()) {
    case exec::ValueKind::Int:
      if (auto v = integer()) return exec::Value::integer(*v);
      return std::nullopt;
    case exec::ValueKind::I32:
    case exec::ValueKind::I64:
      if (!j.is_number_integer()) return std::nullopt;
      return exec::Value::bits(like.bitWidth(), j.get<int64_t>());
    case exec::ValueKind::F64:
      if (j.is_number()) return exec::Value::f64(j.get<double>());
      if (j.is_string() && j.get<std::string>() == "nan") return exec::Value::f64(std::nan(""));
      if (j.is_string() && j.get<std::string>() == "inf")
        return exec::Value::f64(std::numeric_limits<double>::infinity());
      if (j.is_string() && j.get<std::string>() == "-inf")
        return exec::Value::f64(-std::numeric_limits<double>::infinity());
      return std::nullopt;
    case exec::ValueKind::Bool:
      if (!j.is_boolean()) return std::nullopt;
      return exec::Value::boolean(j.get<bool>());
    case exec::ValueKind::Enum: {
      if (!j.is_string()) return std::nullopt;
      int i = like.enumType()->memberIndex(j.get<std::string>());
      if (i < 0) return std::nullopt;
      return exec::Value::enumMember(like.enumType(), static_cast<uint32_t>(i));
    }
    case exec::ValueKind::Array: {
      if (!j.is_array()) return std::nullopt;
      std::vector<exec::Value> elems;
      for (size_t i = 0; i < j.size(); ++i) {
        // A dynamic array may have grown: its new elements take the shape of the JSON.
        exec::Value shape = i < like.length()   ? like.at(i)
                            : j[i].is_boolean() ? exec::Value::boolean(false)
                                                : exec::Value::integer(BigInt(0));
        auto e = valueFromJson(j[i], shape);
        if (!e) return std::nullopt;
        elems.push_back(std::move(*e));
      }
      return exec::Value::array(std::move(elems));
    }
    default:
      if (j.is_null()) return exec::Value::null();
      return std::nullopt;
  }
}

bool setStateValues(const ir::Program& p, exec::State& s, const nlohmann::json& values,
                    std::string& problem) {
  std::set<std::string> seen;
  forEachVariable(p, s, [&](const std::string& n, exec::Value& v) {
    if (!values.contains(n) || !problem.empty()) return;
    seen.insert(n);
    auto x = valueFromJson(values[n], v);
    if (!x)
      problem = "cannot set " + n + " to " + values[n].dump();
    else
      v = std::move(*x);
  });
  for (const auto& [k, v] : values.items())
    if (problem.empty() && !seen.count(k)) problem = "the model has no variable " + k;
  return problem.empty();
}

std::map<std::string, std::string> stateValues(const ir::Program& p, const exec::State& s) {
  std::map<std::string, std::string> out;
  auto names = exec::valueNames(p, s);
  forEachVariable(p, s,
                  [&](const std::string& n, const exec::Value& v) { out[n] = v.toString(&names); });
  return out;
}

nlohmann::json stateJson(const ir::Program& p, const exec::State& s) {
  nlohmann::json out = nlohmann::json::object();
  auto names = exec::valueNames(p, s);
  forEachVariable(
      p, s, [&](const std::string& n, const exec::Value& v) { out[n] = namedValueJson(v, names); });
  return out;
}

std::map<std::string, std::string> changedValues(const ir::Program& p, const exec::State& before,
                                                 const exec::State& after) {
  return changedValues(p, stateValues(p, before), frameCounts(before), after);
}

std::vector<size_t> frameCounts(const exec::State& s) {
  std::vector<size_t> out;
  out.reserve(s.threads.size());
  for (const exec::Thread& th : s.threads) out.push_back(th.frames.size());
  return out;
}

std::map<std::string, std::string> changedValues(const ir::Program& p,
                                                 const std::map<std::string, std::string>& before,
                                                 const std::vector<size_t>& framesBefore,
                                                 const exec::State& after) {
  // The locals of a frame the step pushed that neither a parameter nor an initialised
  // declaration sets: not assigned yet, so not "changed" (they hold their type's default).
  std::set<std::string> unassigned;
  const bool several = after.threads.size() > 1;
  for (exec::ThreadId t = 0; t < after.threads.size() && t < framesBefore.size(); ++t) {
    if (after.threads[t].frames.size() <= framesBefore[t]) continue;
    const ir::Cfa& c = p.cfas[after.threads[t].top().cfa];
    std::set<ir::VarId> set(c.params.begin(), c.params.end());
    for (const ir::Assignment& a : c.entryInits)
      if (a.lhs && a.lhs->op == Op::Var) set.insert(a.lhs->payload);
    const std::string prefix = several ? threadName(p, after, t) + "." : "";
    for (ir::VarId v : c.locals)
      if (!set.count(v)) unassigned.insert(prefix + p.vars[v].name);
  }
  std::map<std::string, std::string> out;
  for (auto& [k, v] : stateValues(p, after)) {
    auto it = before.find(k);
    if ((it == before.end() ? std::string() : it->second) != v && !unassigned.count(k)) out[k] = v;
  }
  return out;
}

nlohmann::json locationsJson(const ir::Program& p, const exec::State& s) {
  nlohmann::json out = nlohmann::json::object();
  for (exec::ThreadId t = 0; t < s.threads.size(); ++t)
    if (p.cfas[s.threads[t].cfa].kind == ir::CfaKind::Process)
      out[threadName(p, s, t)] = p.locName(s.threads[t].top().pc);
  return out;
}

std::string moveText(const ir::Program& p, const search::Move& m) {
  if (m.method != ir::kNone) {  // a method call of the class analysis
    const ir::Cfa& cfa = p.cfas[m.method];
    std::string s = "call " + cfa.name.substr(cfa.name.rfind('.') + 1) + "(";
    for (size_t i = 0; i < m.args.size(); ++i) {
      TypeRef t = i < cfa.params.size() ? p.vars[cfa.params[i]].type : nullptr;
      std::string v = std::to_string(m.args[i]);
      if (t && t->kind == TypeKind::Bool) v = m.args[i] ? "true" : "false";
      if (t && t->kind == TypeKind::Enum) v = t->members[static_cast<size_t>(m.args[i])];
      s += (i ? ", " : "") + v;
    }
    return s + ")";
  }
  std::string s;
  for (auto e : m.edges) s += (s.empty() ? "" : "; ") + p.edges[e].text;
  return s;
}

std::string moveStatement(const ir::Program& p, const exec::State& before, const search::Move& m) {
  std::string s = moveText(p, m);
  if (m.partner < before.threads.size())  // a rendezvous: the receiver's side too
    s += "  =>  " + threadName(p, before, m.partner) + ": " + p.edges[m.partnerEdge].text;
  return s;
}

std::vector<TraceStep> traceSteps(const ir::Program& p, const search::Trace& tr) {
  std::vector<TraceStep> out;
  for (size_t i = 0; i < tr.steps.size(); ++i) {
    const auto& st = tr.steps[i];
    TraceStep ts;
    ts.step = i;
    const exec::State& before = st.before;
    ts.thread = st.move.thread;
    if (st.move.thread < before.threads.size()) {
      ts.process = threadName(p, before, st.move.thread);
      ts.label = p.locName(before.threads[st.move.thread].top().pc);
    }
    ts.statement = moveStatement(p, before, st.move);
    if (!st.move.edges.empty()) ts.line = p.edges[st.move.edges.front()].loc.line;
    ts.changed = changedValues(p, before, st.after);
    ts.state = stateJson(p, st.after);
    if (p.isClosed()) ts.locations = locationsJson(p, st.after);
    out.push_back(std::move(ts));
  }
  return out;
}

std::string callText(const ir::Program& p, ir::CfaId cfa, const std::vector<exec::Value>& args,
                     bool source) {
  const ir::Cfa& c = p.cfas[cfa];
  std::string name = c.kind == ir::CfaKind::ClassInit ? p.classes[c.classIndex].name : c.name;
  if (c.kind == ir::CfaKind::Method) name = name.substr(name.rfind('.') + 1);
  std::string out = name + "(";
  exec::ValueNames names;
  names.source = source;
  for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + args[i].toString(&names);
  return out + ")";
}

std::vector<TraceStep> replayTrace(const ir::Program& p, ir::CfaId entry, const symbolic::Replay& r,
                                   const symbolic::PathEnd& end) {
  const bool classAnalysis = p.cfas[entry].kind == ir::CfaKind::ClassInit;
  std::vector<TraceStep> steps;
  for (size_t i = 0; i < end.path.size() && i < r.states.size(); ++i) {
    const exec::State& before = r.before(i);
    TraceStep ts;
    ts.step = i;
    if (classAnalysis) {  // the call this step belongs to
      ts.process = callText(p, entry, end.args);
      for (const symbolic::CallInputs& c : end.calls)
        if (c.pathStart <= i) ts.process = callText(p, c.method, c.args);
    }
    ts.label = p.locName(before.threads[0].top().pc);
    ts.statement = p.edges[end.path[i]].text;
    ts.line = p.edges[end.path[i]].loc.line;
    const exec::State& after = i + 1 < r.states.size() ? r.states[i + 1] : before;
    ts.changed = changedValues(p, before, after);
    ts.state = stateJson(p, after);
    steps.push_back(std::move(ts));
  }
  return steps;
}

ErrorInfo replayError(const ir::Program& p, ir::CfaId entry, const symbolic::Replay& r,
                      const symbolic::PathEnd& end) {
  ErrorInfo e;
  e.kind = ir::errorKindName(r.error->kind);
  e.message = r.error->message;
  e.line = r.error->loc.line;
  e.trace = replayTrace(p, entry, r, end);
  if (!r.states.empty()) e.initial = stateJson(p, r.states.front());
  e.label = p.locName(r.errorLoc);
  return e;
}

nlohmann::json valueJson(const exec::Value& v) {
  if (v.isIntegral() && v.toBigInt().toInt64()) return *v.toBigInt().toInt64();
  if (v.kind() == exec::ValueKind::Bool) return v.asBool();
  if (v.kind() == exec::ValueKind::Array) {
    nlohmann::json a = nlohmann::json::array();
    for (const exec::Value& x : v.elements()) a.push_back(valueJson(x));
    return a;
  }
  return v.toString();
}

std::vector<SymbolicKeys::Call> methodCalls(const ir::Program& p, ir::CfaId entry,
                                            const symbolic::PathEnd& end) {
  std::vector<SymbolicKeys::Call> calls;
  auto add = [&](ir::CfaId cfa, const std::vector<exec::Value>& args) {
    const ir::Cfa& c = p.cfas[cfa];
    nlohmann::json named = nlohmann::json::object();
    for (size_t i = 0; i < args.size() && i < c.params.size(); ++i)
      named[p.vars[c.params[i]].name] = valueJson(args[i]);
    const std::string method =
        c.kind == ir::CfaKind::ClassInit ? "init" : c.name.substr(c.name.rfind('.') + 1);
    calls.push_back({method, callText(p, cfa, args), std::move(named)});
  };
  add(entry, end.args);
  for (const symbolic::CallInputs& c : end.calls) add(c.method, c.args);
  return calls;
}

nlohmann::json inputsJson(const symbolic::PathEnd& end) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, v] : end.inputs) j[name] = valueJson(v);
  return j;
}

}  // namespace tandem::report
