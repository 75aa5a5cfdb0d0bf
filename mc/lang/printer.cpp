#include "mc/lang/printer.h"

#include <iterator>

namespace tandem {

namespace {

using EK = ast::Expr::Kind;
using SK = ast::Stmt::Kind;

// Binding strength, loosest first; mirrors parser_expr.cpp.
enum Prec : int {
  kCond = 1,
  kImplies,
  kOr,
  kAnd,
  kEquality,
  kRelational,
  kAdditive,
  kMultiplicative,
  kUnary,
  kPostfix,
  kPrimary,
};

struct BinOpInfo {
  const char* text;
  int prec;
};
// Indexed by ast::BinOp.
constexpr BinOpInfo kBinOps[] = {
    {"+", kAdditive},
    {"-", kAdditive},
    {"*", kMultiplicative},
    {"/", kMultiplicative},
    {"%", kMultiplicative},
    {"==", kEquality},
    {"!=", kEquality},
    {"<", kRelational},
    {"<=", kRelational},
    {">", kRelational},
    {">=", kRelational},
    {"&&", kAnd},
    {"||", kOr},
    {"==>", kImplies},
};
static_assert(std::size(kBinOps) == static_cast<size_t>(ast::BinOp::Implies) + 1);

const BinOpInfo& binOp(ast::BinOp op) { return kBinOps[static_cast<size_t>(op)]; }

int precOf(const ast::Expr& e) {
  switch (e.kind) {
    case EK::Cond:
      return kCond;
    case EK::Binary:
      return binOp(e.binop).prec;
    // `new T[n]` swallows every following `[...]`, so as the base of a postfix it needs parens.
    case EK::Unary:
    case EK::NewArray:
      return kUnary;
    case EK::Index:
    case EK::Field:
    case EK::AtLabel:
      return kPostfix;
    default:
      return kPrimary;
  }
}

std::string expr(const ast::Expr& e, int minPrec);

std::string list(const std::vector<ast::ExprPtr>& es) {
  std::string out;
  for (size_t i = 0; i < es.size(); ++i) {
    if (i) out += ", ";
    out += expr(*es[i], kCond);
  }
  return out;
}

std::string exprBody(const ast::Expr& e) {
  switch (e.kind) {
    case EK::IntLit:
    case EK::FloatLit:
      return e.text;
    case EK::BoolLit:
      return e.boolValue ? "true" : "false";
    case EK::Null:
      return "null";
    case EK::Star:
      return "*";
    case EK::Name:
      return e.name;
    case EK::Unary: {
      static constexpr const char* kOps[] = {"-", "!", "*", "&"};  // UnOp order
      std::string operand = expr(*e.args[0], kUnary);
      std::string op = kOps[static_cast<int>(e.unop)];
      if (op == "&" && !operand.empty() && operand[0] == '&')
        op += ' ';  // `&&` would lex as one token
      return op + operand;
    }
    case EK::Binary: {
      int p = binOp(e.binop).prec;
      bool right = e.binop == ast::BinOp::Implies;  // the only right-associative binary op
      return expr(*e.args[0], right ? p + 1 : p) + " " + binOp(e.binop).text + " " +
             expr(*e.args[1], right ? p : p + 1);
    }
    case EK::Cond:
      return expr(*e.args[0], kImplies) + " ? " + expr(*e.args[1], kCond) + " : " +
             expr(*e.args[2], kCond);
    case EK::Index:
      return expr(*e.args[0], kPostfix) + "[" + expr(*e.args[1], kCond) + "]";
    case EK::Field:
      return expr(*e.args[0], kPostfix) + "." + e.name;
    case EK::AtLabel:
      return expr(*e.args[0], kPostfix) + "@" + e.name;
    case EK::Call:
      return e.name + "(" + list(e.args) + ")";
    case EK::NewArray: {
      std::string t = printType(*e.elemType);
      if (e.elemType->kind == ast::TypeExpr::Kind::Ref) t = "(" + t + ")";
      return "new " + t + "[" + expr(*e.args[0], kCond) + "]";
    }
    case EK::NewObject:
      return "new " + e.name + "(" + list(e.args) + ")";
    case EK::ArrayLit:
      return "[" + list(e.args) + "]";
  }
  return "?";
}

std::string expr(const ast::Expr& e, int minPrec) {
  std::string s = exprBody(e);
  return precOf(e) < minPrec ? "(" + s + ")" : s;
}

std::string params(const std::vector<ast::Param>& ps) {
  std::string out = "(";
  for (size_t i = 0; i < ps.size(); ++i) {
    if (i) out += ", ";
    out += ps[i].name + ": " + printType(*ps[i].type);
  }
  return out + ")";
}

std::string partitions(const std::vector<ast::ExprPtr>& ps) {
  return ps.empty() ? "" : " partition(" + list(ps) + ")";
}

// Would an `else` printed after `s` attach to an `if` inside it?
bool endsWithOpenIf(const ast::Stmt& s) {
  if (s.kind == SK::If) return !s.hasElse || endsWithOpenIf(*s.body[1]);
  if (s.kind == SK::While) return endsWithOpenIf(*s.body[0]);
  return false;
}

class StmtPrinter {
 public:
  explicit StmtPrinter(std::string& out) : out_(out) {}

  // `sameLine`: continue the current line (after `else `) instead of starting an indented one.
  void stmt(const ast::Stmt& s, int ind, bool sameLine = false) {
    if (!sameLine) indent(ind);
    for (const auto& l : s.labels) out_ += l + ": ";
    switch (s.kind) {
      case SK::VarDecl:
        out_ += "var " + s.name + ": " + printType(*s.declType);
        if (!s.rhs.empty()) out_ += " = " + expr(*s.rhs[0], kCond);
        out_ += ";\n";
        return;
      case SK::Assign:
        out_ += list(s.lhs) + " := " + list(s.rhs) + ";\n";
        return;
      case SK::Havoc:
        out_ += "havoc " + list(s.lhs) + ";\n";
        return;
      case SK::If:
        ifStmt(s, ind);
        return;
      case SK::While:
        out_ += "while (" + expr(*s.cond, kCond) + ")";
        if (body(*s.body[0], ind, false)) out_ += "\n";
        return;
      case SK::Break:
        out_ += "break;\n";
        return;
      case SK::Continue:
        out_ += "continue;\n";
        return;
      case SK::Goto: {
        out_ += "goto ";
        for (size_t i = 0; i < s.targets.size(); ++i) out_ += (i ? ", " : "") + s.targets[i];
        out_ += ";\n";
        return;
      }
      case SK::Assume:
        out_ += "assume " + expr(*s.cond, kCond) + ";\n";
        return;
      case SK::Assert:
        out_ += "assert " + expr(*s.cond, kCond);
        if (s.premise) out_ += " verified " + expr(*s.premise, kCond);
        out_ += ";\n";
        return;
      case SK::Assumed:
        out_ += "assumed " + expr(*s.cond, kCond) + " as " + s.name + ";\n";
        return;
      case SK::Skip:
        out_ += "skip;\n";
        return;
      case SK::Return:
        out_ += s.cond ? "return " + expr(*s.cond, kCond) + ";\n" : "return;\n";
        return;
      case SK::CallStmt:
        out_ += "call " + expr(*s.cond, kCond) + ";\n";
        return;
      case SK::Await:
        out_ += "await " + expr(*s.cond, kCond) + ";\n";
        return;
      case SK::Atomic:
        out_ += "atomic ";
        braced(s.body, ind);
        out_ += "\n";
        return;
      case SK::Block:
        braced(s.body, ind);
        out_ += "\n";
        return;
      case SK::Predicate:
        out_ += "predicate " + expr(*s.cond, kCond) + ";\n";
        return;
      case SK::Send:
        out_ += expr(*s.cond, kPostfix) + " ! " + list(s.rhs) + ";\n";
        return;
      case SK::Receive:
        out_ += expr(*s.cond, kPostfix) + " ? " + list(s.lhs) + ";\n";
        return;
    }
  }

  // `{`, the statements one level deeper, `}` (no newline after it).
  void braced(const std::vector<ast::StmtPtr>& body, int ind) {
    out_ += "{\n";
    for (const auto& c : body) stmt(*c, ind + 1);
    indent(ind);
    out_ += "}";
  }

 private:
  void indent(int ind) { out_.append(2 * static_cast<size_t>(ind), ' '); }

  void ifStmt(const ast::Stmt& s, int ind) {
    out_ += "if (" + expr(*s.cond, kCond) + ")";
    bool closed = body(*s.body[0], ind, s.hasElse && endsWithOpenIf(*s.body[0]));
    if (s.hasElse) {
      if (closed) {
        out_ += " else";
      } else {
        indent(ind);
        out_ += "else";
      }
      const ast::Stmt& e = *s.body[1];
      if (e.kind == SK::If && e.labels.empty()) {  // `else if` chains stay flat
        out_ += " ";
        stmt(e, ind, true);
        return;
      }
      closed = body(e, ind, false);
    }
    if (closed) out_ += "\n";
  }

  // The body of an if/while/else after its header. Returns true if it ended with a `}` on the
  // current line (the caller adds ` else` or the newline).
  bool body(const ast::Stmt& b, int ind, bool forceBraces) {
    if (b.kind == SK::Block && b.labels.empty()) {
      out_ += " ";
      braced(b.body, ind);
      return true;
    }
    if (forceBraces) {  // keeps a following `else` from binding to an inner `if`
      out_ += " {\n";
      stmt(b, ind + 1);
      indent(ind);
      out_ += "}";
      return true;
    }
    out_ += "\n";
    stmt(b, ind + 1);
    return false;
  }

  std::string& out_;
};

void procedure(std::string& out, const ast::ProcDecl& p, const std::string& head, int ind) {
  out.append(2 * static_cast<size_t>(ind), ' ');
  out += head + params(p.params);
  if (p.returnType) out += ": " + printType(*p.returnType);
  out += partitions(p.partitions);
  const std::string in(2 * static_cast<size_t>(ind + 1), ' ');
  for (const auto& r : p.preconditions) out += "\n" + in + "requires " + printExpr(*r) + ";";
  for (const auto& e : p.postconditions) out += "\n" + in + "ensures " + printExpr(*e) + ";";
  out += (p.preconditions.empty() && p.postconditions.empty()) ? " " : "\n" + in.substr(2);
  StmtPrinter(out).braced(p.body, ind);
  out += "\n";
}

void classDecl(std::string& out, const ast::ClassDecl& c) {
  out += "class " + c.name + " {\n";
  for (const auto& f : c.fields) {
    out += "  var " + f->name + ": " + printType(*f->type);
    if (f->init) out += " = " + printExpr(*f->init);
    out += ";\n";
  }
  for (const auto& p : c.predicates) out += "  predicate " + printExpr(*p.expr) + ";\n";
  for (const auto& i : c.invariants)
    out += "  invariant " + (i.name.empty() ? "" : i.name + ": ") + printExpr(*i.expr) + ";\n";
  bool first = c.fields.empty() && c.predicates.empty() && c.invariants.empty();
  if (c.init) {
    if (!first) out += "\n";
    procedure(out, *c.init, "init", 1);
    first = false;
  }
  for (const auto& m : c.methods) {
    if (!first) out += "\n";
    procedure(out, *m, "method " + m->name, 1);
    first = false;
  }
  out += "}\n";
}

void decl(std::string& out, const ast::Program& prog, ast::Program::DeclRef ref) {
  using DK = ast::Program::DeclKind;
  switch (ref.kind) {
    case DK::Const: {
      const auto& d = prog.consts[ref.index];
      out += "const " + d.name + ": " + printType(*d.type) + " = " + printExpr(*d.value) + ";\n";
      return;
    }
    case DK::Enum: {
      const auto& d = prog.enums[ref.index];
      out += "enum " + d.name + " { ";
      for (size_t i = 0; i < d.members.size(); ++i) out += (i ? ", " : "") + d.members[i];
      out += " }\n";
      return;
    }
    case DK::Var: {
      const auto& d = *prog.globals[ref.index];
      out += "var " + d.name + ": " + printType(*d.type);
      if (d.init) out += " = " + printExpr(*d.init);
      out += ";\n";
      return;
    }
    case DK::Init:
      out += "init " + printExpr(*prog.inits[ref.index].expr) + ";\n";
      return;
    case DK::Predicate:
      out += "predicate " + printExpr(*prog.predicates[ref.index].expr) + ";\n";
      return;
    case DK::Invariant: {
      const auto& d = prog.invariants[ref.index];
      out += "invariant " + (d.name.empty() ? "" : d.name + ": ") + printExpr(*d.expr) + ";\n";
      return;
    }
    case DK::Native: {
      const auto& d = prog.natives[ref.index];
      out += "native " + d.name + params(d.params) + ": " + printType(*d.returnType) +
             partitions(d.partitions) + ";\n";
      return;
    }
    case DK::Proc: {
      const auto& d = *prog.procs[ref.index];
      procedure(out, d, (d.concrete ? "@concrete proc " : "proc ") + d.name, 0);
      return;
    }
    case DK::Class:
      classDecl(out, *prog.classes[ref.index]);
      return;
    case DK::Process: {
      const auto& d = *prog.processes[ref.index];
      out += "process " + d.name;
      if (d.count) out += "[" + printExpr(*d.count) + "]";
      out += " ";
      StmtPrinter(out).braced(d.body, 0);
      out += "\n";
      return;
    }
    case DK::Rule: {
      const auto& d = prog.rules[ref.index];
      out += "rule " + d.name + ": " + printExpr(*d.guard) + " ->";
      for (size_t i = 0; i < d.lhs.size(); ++i)
        out += (i ? ", " : " ") + printExpr(*d.lhs[i]) + " := " + printExpr(*d.rhs[i]);
      out += ";\n";
      return;
    }
    case DK::Chan: {
      const auto& d = prog.chans[ref.index];
      out += "chan " + d.name;
      if (d.count) out += "[" + printExpr(*d.count) + "]";
      out += " = [" + printExpr(*d.capacity) + "] of { ";
      for (size_t i = 0; i < d.fields.size(); ++i) out += (i ? ", " : "") + printType(*d.fields[i]);
      out += " };\n";
      return;
    }
    case DK::Test: {
      const auto& d = prog.tests[ref.index];
      if (!d.isState) {
        out += "test " + d.target + "(" + list(d.args) + ");\n";
        return;
      }
      out += "test {";
      for (size_t i = 0; i < d.names.size(); ++i)
        out += (i ? ", " : " ") + d.names[i] + " = " + printExpr(*d.values[i]);
      out += d.names.empty() ? "};\n" : " };\n";
      return;
    }
  }
}

bool hasBody(ast::Program::DeclKind k) {
  using DK = ast::Program::DeclKind;
  return k == DK::Proc || k == DK::Class || k == DK::Process;
}

}  // namespace

std::string printExpr(const ast::Expr& e) { return expr(e, kCond); }

std::string printType(const ast::TypeExpr& t) {
  using TK = ast::TypeExpr::Kind;
  switch (t.kind) {
    case TK::Int:
      return "int";
    case TK::I32:
      return "i32";
    case TK::I64:
      return "i64";
    case TK::F64:
      return "f64";
    case TK::Bool:
      return "bool";
    case TK::Named:
      return t.name;
    case TK::Ref:
      return "ref " + printType(*t.elem);
    case TK::Array: {
      std::string elem = printType(*t.elem);
      if (t.elem->kind == TK::Ref) elem = "(" + elem + ")";  // `ref` would take the brackets
      return elem + "[" + (t.size ? printExpr(*t.size) : "") + "]";
    }
  }
  return "?";
}

std::string printStmt(const ast::Stmt& s, int indent) {
  std::string out;
  StmtPrinter(out).stmt(s, indent);
  return out;
}

// Declarations keep their order; a blank line separates bodies and changes of kind.
std::string printProgram(const ast::Program& prog) {
  std::string out;
  for (size_t i = 0; i < prog.order.size(); ++i) {
    auto ref = prog.order[i];
    if (i > 0) {
      auto prev = prog.order[i - 1].kind;
      if (prev != ref.kind || hasBody(prev) || hasBody(ref.kind)) out += "\n";
    }
    decl(out, prog, ref);
  }
  return out;
}

}  // namespace tandem
