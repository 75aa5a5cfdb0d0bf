#include "mc/cli/trace_format.h"

#include <iomanip>
#include <ostream>

#include "mc/exec/state_format.h"

namespace tandem::cli {

std::string threadName(const ir::Program& p, const exec::State& s, exec::ThreadId t) {
  const exec::Thread& th = s.threads[t];
  const ir::Cfa& c = p.cfas[th.cfa];
  if (c.kind == ir::CfaKind::Process && c.instances > 1)
    return c.name + "[" + std::to_string(th.instance) + "]";
  return c.name;
}

namespace {

nlohmann::json valueJson(const exec::Value& v, const exec::ValueNames& names) {
  switch (v.kind()) {
    case exec::ValueKind::Int:
      if (auto s = v.asInt().toInt64()) return *s;
      return v.asInt().toString();
    case exec::ValueKind::I32:
    case exec::ValueKind::I64:
      return v.asBits();
    case exec::ValueKind::Bool:
      return v.asBool();
    case exec::ValueKind::Null:
      return nullptr;
    case exec::ValueKind::Array: {
      auto a = nlohmann::json::array();
      for (const auto& e : v.elements()) a.push_back(valueJson(e, names));
      return a;
    }
    default:
      return v.toString(&names);
  }
}

template <typename F>
void forEachVariable(const ir::Program& p, const exec::State& s, F&& f) {
  for (size_t i = 0; i < s.globals.size(); ++i) f(p.vars[p.globals[i]].name, s.globals[i]);
  bool several = s.threads.size() > 1;
  for (exec::ThreadId t = 0; t < s.threads.size(); ++t) {
    const exec::Thread& th = s.threads[t];
    std::string prefix = several ? threadName(p, s, t) + "." : "";
    const ir::Cfa& proc = p.cfas[th.cfa];
    for (size_t i = 0; i < th.processLocals.size(); ++i)
      f(threadName(p, s, t) + "." + p.vars[proc.processLocals[i]].name, th.processLocals[i]);
    const exec::Frame& fr = th.top();
    const ir::Cfa& c = p.cfas[fr.cfa];
    for (size_t i = 0; i < fr.locals.size(); ++i)
      if (!p.vars[c.locals[i]].hidden) f(prefix + p.vars[c.locals[i]].name, fr.locals[i]);
    if (fr.self != exec::kNoObject && fr.self < s.heap.size()) {
      const auto& obj = s.heap[fr.self];
      const auto& fields = p.classes[obj.classIndex].fields;
      for (size_t i = 0; i < obj.fields.size(); ++i)
        f(prefix + p.vars[fields[i]].name, obj.fields[i]);
    }
  }
}

}  // namespace

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
      p, s, [&](const std::string& n, const exec::Value& v) { out[n] = valueJson(v, names); });
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

std::vector<TraceStep> traceSteps(const ir::Program& p, const search::Trace& tr) {
  std::vector<TraceStep> out;
  for (size_t i = 0; i < tr.steps.size(); ++i) {
    const auto& st = tr.steps[i];
    TraceStep ts;
    ts.step = i;
    const exec::State& before = st.before;
    if (st.move.thread < before.threads.size()) {
      ts.process = threadName(p, before, st.move.thread);
      ts.label = p.locName(before.threads[st.move.thread].top().pc);
    }
    ts.statement = moveText(p, st.move);
    auto a = stateValues(p, before), b = stateValues(p, st.after);
    for (auto& [k, v] : b)
      if (a[k] != v) ts.changed[k] = v;
    ts.state = stateJson(p, st.after);
    if (p.isClosed()) ts.locations = locationsJson(p, st.after);
    out.push_back(std::move(ts));
  }
  return out;
}

void printTrace(std::ostream& os, const std::vector<TraceStep>& steps) {
  for (const auto& s : steps) {
    os << std::setw(5) << s.step << "  ";
    if (!s.process.empty()) os << s.process << "  ";
    os << s.label << ": " << s.statement;
    if (!s.changed.empty()) {
      os << "    {";
      bool first = true;
      for (auto& [k, v] : s.changed) os << (first ? "" : ", ") << k << " = " << v, first = false;
      os << "}";
    }
    os << '\n';
  }
}

}  // namespace tandem::cli
