#include "mc/ir/ir_printer.h"

#include "mc/expr/enum_names.h"

#include <sstream>

#include "mc/expr/float64.h"

namespace tandem::ir {

namespace {

int precedence(Op op) {
  switch (op) {
    case Op::Ite:
      return 1;
    case Op::Implies:
      return 2;
    case Op::Or:
      return 3;
    case Op::And:
      return 4;
    case Op::Eq:
    case Op::Ne:
      return 5;
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
      return 6;
    case Op::Add:
    case Op::Sub:
      return 7;
    case Op::Mul:
    case Op::Div:
    case Op::Mod:
      return 8;
    case Op::Neg:
    case Op::Not:
    case Op::Deref:
    case Op::AddrOf:
      return 9;
    default:
      return 10;
  }
}

class Printer {
 public:
  explicit Printer(const Program& p) : p_(p) {}

  std::string print(ExprRef e, int outer = 0) {
    std::string s = raw(e);
    return precedence(e->op) < outer ? "(" + s + ")" : s;
  }

 private:
  std::string list(const std::vector<ExprRef>& kids, size_t from = 0) {
    std::string s;
    for (size_t i = from; i < kids.size(); ++i) s += (i > from ? ", " : "") + print(kids[i]);
    return s;
  }

  std::string procName(uint32_t process, ExprRef index) {
    const Cfa& c = p_.cfas[p_.processes[process]];
    if (c.instances == 1 && index->op == Op::IntConst) return c.name;
    return c.name + "[" + print(index) + "]";
  }

  std::string raw(ExprRef e) {
    int prec = precedence(e->op);
    switch (e->op) {
      case Op::IntConst:
        return e->value.toString();
      case Op::BoolConst:
        return e->isTrue() ? "true" : "false";
      case Op::EnumConst:
        return e->type && e->payload < e->type->members.size() ? e->type->members[e->payload] : "?";
      case Op::NullConst:
        return "null";
      case Op::FloatConst:
        return f64::format(f64::fromBits(static_cast<uint64_t>(e->value.small())));
      case Op::Var:
        return p_.vars[e->payload].name;
      case Op::Pid:
        return "pid";
      case Op::Star:
        return "*";
      case Op::Symbol:
        return p_.exprs->symbolName(e->payload);
      case Op::Neg:
        return "-" + print(e->kid(0), prec + 1);
      case Op::Not:
        return "!" + print(e->kid(0), prec + 1);
      case Op::Deref:
        return "*" + print(e->kid(0), prec + 1);
      case Op::AddrOf:
        return "&" + print(e->kid(0), prec + 1);
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Div:
      case Op::Mod:
      case Op::Eq:
      case Op::Ne:
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge:
      case Op::And:
      case Op::Or:
        return print(e->kid(0), prec) + " " + opName(e->op) + " " + print(e->kid(1), prec + 1);
      case Op::Implies:
        return print(e->kid(0), prec + 1) + " ==> " + print(e->kid(1), prec);
      case Op::Ite:
        return print(e->kid(0), prec + 1) + " ? " + print(e->kid(1), prec + 1) + " : " +
               print(e->kid(2), prec);
      case Op::Abs:
      case Op::Min:
      case Op::Max:
      case Op::NoOverflowAdd:
      case Op::NoOverflowMul:
        return std::string(opName(e->op)) + "(" + list(e->kids) + ")";
      case Op::Cast:
        return typeToString(e->type) + "(" + list(e->kids) + ")";
      case Op::Select:
        return print(e->kid(0), 10) + "[" + print(e->kid(1)) + "]";
      case Op::Len:
        return "len(" + print(e->kid(0)) + ")";
      case Op::ArrayLit:
        return "[" + list(e->kids) + "]";
      case Op::NewArray:
        return "new " + typeToString(e->type ? e->type->elem : nullptr) + "[" + print(e->kid(0)) +
               "]";
      case Op::Store:
        return print(e->kid(0), 10) + "[" + print(e->kid(1)) + " := " + print(e->kid(2)) + "]";
      case Op::Field: {
        const Type* ct = e->kid(0)->type;
        std::string f = ct && e->payload < ct->fields.size() ? ct->fields[e->payload].first : "?";
        return print(e->kid(0), 10) + "." + f;
      }
      case Op::Call: {
        const Callee& c = p_.callees[e->payload];
        std::string name = c.native ? p_.natives[c.index].name : p_.cfas[c.index].name;
        return name + "(" + list(e->kids) + ")";
      }
      case Op::Old:
        return "old(" + print(e->kid(0)) + ")";
      case Op::AtLoc: {
        auto loc = static_cast<LocId>(*e->value.toInt64());
        return procName(e->payload, e->kid(0)) + "@" + p_.locName(loc);
      }
      case Op::ProcLocal: {
        auto v = static_cast<VarId>(*e->value.toInt64());
        return procName(e->payload, e->kid(0)) + "." + p_.vars[v].name;
      }
      case Op::Received:
        return "received[" + std::to_string(e->payload + 1) + "]";
    }
    return "?";
  }

  const Program& p_;
};

// ` partition(c1, ..., ck)` of a native or @concrete procedure (nothing when it has none).
void printPartitions(std::ostream& os, Printer& pr, const std::vector<ExprRef>& parts) {
  if (parts.empty()) return;
  os << " partition(";
  for (size_t i = 0; i < parts.size(); ++i) os << (i ? ", " : "") << pr.print(parts[i]);
  os << ")";
}

std::string edgeToString(const Program& p, const Edge& e) {
  Printer pr(p);
  std::ostringstream os;
  switch (e.kind) {
    case EdgeKind::Command: {
      bool any = false;
      if (e.guard) {
        os << "[" << pr.print(e.guard) << "]";
        any = true;
      }
      if (!e.assigns.empty()) {
        os << (any ? " " : "");
        for (size_t i = 0; i < e.assigns.size(); ++i)
          os << (i ? ", " : "") << pr.print(e.assigns[i].lhs);
        os << " := ";
        for (size_t i = 0; i < e.assigns.size(); ++i)
          os << (i ? ", " : "") << (e.assigns[i].rhs ? pr.print(e.assigns[i].rhs) : "*");
        any = true;
      }
      if (!any) os << "skip";
      break;
    }
    case EdgeKind::Assert:
      os << "assert " << pr.print(e.cond);
      if (e.premise) os << " verified " << pr.print(e.premise);
      break;
    case EdgeKind::Assumed:
      os << "assumed " << pr.print(e.cond) << " as " << p.vars[e.assumedId].name;
      break;
    case EdgeKind::Call: {
      if (e.result) os << pr.print(e.result) << " := ";
      os << "call " << p.cfas[e.callee].name << "(";
      for (size_t i = 0; i < e.args.size(); ++i) os << (i ? ", " : "") << pr.print(e.args[i]);
      os << ")";
      break;
    }
    case EdgeKind::Return:
      os << "return to caller";
      break;
    case EdgeKind::Sync: {
      const Channel& c = p.channels[e.channel];
      os << "rendezvous " << c.name;
      if (e.chanIndex) os << "[" << pr.print(e.chanIndex) << "]";
      os << (e.syncSend ? " !" : " ?");
      for (size_t i = 0; i < e.args.size(); ++i) os << (i ? ", " : " ") << pr.print(e.args[i]);
      if (e.guard) os << " [" << pr.print(e.guard) << "]";
      for (size_t i = 0; i < e.assigns.size(); ++i)
        os << (i ? ", " : " ") << pr.print(e.assigns[i].lhs)
           << " := " << (e.assigns[i].rhs ? pr.print(e.assigns[i].rhs) : "*");
      break;
    }
  }
  return os.str();
}

}  // namespace

std::string exprToString(const Program& p, ExprRef e) { return Printer(p).print(e); }

std::string programToString(const Program& p, const std::vector<std::vector<std::string>>* notes) {
  std::ostringstream os;
  Printer pr(p);
  os << "// " << p.file << ": " << (p.isClosed() ? "closed system" : "open system") << ", "
     << p.cfas.size() << " automata, " << p.locs.size() << " locations, " << p.edges.size()
     << " edges\n";
  for (VarId g : p.globals) {
    const Variable& v = p.vars[g];
    os << "global " << v.name << ": " << typeToString(v.type);
    if (v.init)
      os << " = " << pr.print(v.init);
    else
      os << " (input)";
    os << "\n";
  }
  for (auto e : p.inits) os << "init " << pr.print(e) << "\n";
  for (auto e : p.predicates) os << "predicate " << pr.print(e) << "\n";
  for (auto& inv : p.invariants)
    os << "invariant " << inv.name << ": " << pr.print(inv.expr) << "\n";
  for (const auto& n : p.natives) {
    os << "native " << n.name << "(";
    for (size_t i = 0; i < n.params.size(); ++i) os << (i ? ", " : "") << typeToString(n.params[i]);
    os << "): " << typeToString(n.returnType);
    printPartitions(os, pr, n.partitions);
    os << "\n";
  }
  for (const auto& c : p.cfas) {
    os << "\n" << cfaKindName(c.kind) << " " << c.name;
    if (c.instances > 1) os << "[" << c.instances << "]";
    os << "(";
    for (size_t i = 0; i < c.params.size(); ++i)
      os << (i ? ", " : "") << p.vars[c.params[i]].name << ": "
         << typeToString(p.vars[c.params[i]].type);
    os << ")";
    if (c.returnType) os << ": " << typeToString(c.returnType);
    printPartitions(os, pr, c.partitions);
    if (c.concrete) os << " @concrete";
    if (c.pure && c.kind == CfaKind::Proc) os << " pure";
    os << "\n";
    for (VarId v : c.locals)
      if (!c.params.empty() && std::find(c.params.begin(), c.params.end(), v) != c.params.end())
        continue;
      else
        os << "  var " << p.vars[v].name << ": " << typeToString(p.vars[v].type)
           << (p.vars[v].hidden ? " (hidden)" : "") << "\n";
    for (VarId v : c.processLocals) {
      os << "  var " << p.vars[v].name << ": " << typeToString(p.vars[v].type);
      if (p.vars[v].init) os << " = " << pr.print(p.vars[v].init);
      os << "\n";
    }
    for (auto& a : c.entryInits)
      os << "  on entry: " << pr.print(a.lhs) << " := " << (a.rhs ? pr.print(a.rhs) : "*") << "\n";
    for (auto e : c.predicates) os << "  predicate " << pr.print(e) << "\n";
    for (LocId l : c.locs) {
      const Location& loc = p.locs[l];
      os << "  " << p.locName(l) << ":";
      if (loc.labels.size() > 1)
        for (size_t i = 1; i < loc.labels.size(); ++i) os << " (" << loc.labels[i] << ")";
      std::string flags;
      if (loc.isEntry) flags += " entry";
      if (loc.isExit) flags += " exit";
      if (loc.loopHead) flags += " loop-head";
      if (loc.callSite) flags += " call-site";
      if (loc.afterCall) flags += " after-call";
      if (loc.property) flags += " property";
      if (loc.atomic) flags += " atomic";
      if (!flags.empty()) os << "  //" << flags;
      if (loc.loc.valid()) os << (flags.empty() ? "  //" : ",") << " line " << loc.loc.line;
      os << "\n";
      if (notes)
        for (const std::string& n : (*notes)[l]) os << "    " << n << "\n";
      for (EdgeId ei : loc.out) {
        const Edge& e = p.edges[ei];
        os << "    " << edgeToString(p, e);
        if (e.to != kNone) os << "  -> " << p.locName(e.to);
        os << "\n";
      }
    }
  }
  return os.str();
}

namespace {
constexpr EnumName<CfaKind> kCfaKindNames[] = {{CfaKind::Proc, "proc"},
                                               {CfaKind::Method, "method"},
                                               {CfaKind::ClassInit, "init"},
                                               {CfaKind::Process, "process"},
                                               {CfaKind::Rules, "rules"}};
}  // namespace

const char* cfaKindName(CfaKind k) { return enumName(kCfaKindNames, k); }

}  // namespace tandem::ir
