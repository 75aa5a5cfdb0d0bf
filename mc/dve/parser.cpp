#include "mc/dve/parser.h"

#include <array>
#include <set>
#include <string_view>

#include "mc/dve/lexer.h"
#include "mc/lang/parser.h"  // kMaxNesting

namespace tandem::dve {

const char* binOpText(BinOp op) {
  switch (op) {
    case BinOp::Imply:
      return "imply";
    case BinOp::Or:
      return "||";
    case BinOp::And:
      return "&&";
    case BinOp::BitOr:
      return "|";
    case BinOp::BitXor:
      return "^";
    case BinOp::BitAnd:
      return "&";
    case BinOp::Eq:
      return "==";
    case BinOp::Ne:
      return "!=";
    case BinOp::Lt:
      return "<";
    case BinOp::Le:
      return "<=";
    case BinOp::Gt:
      return ">";
    case BinOp::Ge:
      return ">=";
    case BinOp::Shl:
      return "<<";
    case BinOp::Shr:
      return ">>";
    case BinOp::Add:
      return "+";
    case BinOp::Sub:
      return "-";
    case BinOp::Mul:
      return "*";
    case BinOp::Div:
      return "/";
    case BinOp::Mod:
      return "%";
  }
  return "?";
}

namespace {

using EK = Expr::Kind;

// Thrown once a syntax error has been reported; caught by parse().
struct SyntaxError {};

struct BinaryOp {
  Tok tok;
  BinOp op;
  int level;  // 0 = implication (loosest) ... kTightest = `* / %`
};
constexpr int kTightest = 10;
constexpr std::array<BinaryOp, 20> kBinaryOps{{
    {Tok::KwImply, BinOp::Imply, 0}, {Tok::Arrow, BinOp::Imply, 0},  {Tok::OrOr, BinOp::Or, 1},
    {Tok::AndAnd, BinOp::And, 2},    {Tok::Bar, BinOp::BitOr, 3},    {Tok::Caret, BinOp::BitXor, 4},
    {Tok::Amp, BinOp::BitAnd, 5},    {Tok::EqEq, BinOp::Eq, 6},      {Tok::NotEq, BinOp::Ne, 6},
    {Tok::Lt, BinOp::Lt, 7},         {Tok::Le, BinOp::Le, 7},        {Tok::Gt, BinOp::Gt, 7},
    {Tok::Ge, BinOp::Ge, 7},         {Tok::Shl, BinOp::Shl, 8},      {Tok::Shr, BinOp::Shr, 8},
    {Tok::Plus, BinOp::Add, 9},      {Tok::Minus, BinOp::Sub, 9},    {Tok::Star, BinOp::Mul, 10},
    {Tok::Slash, BinOp::Div, 10},    {Tok::Percent, BinOp::Mod, 10},
}};

const BinaryOp* binaryOpAt(Tok t, int level) {
  for (const auto& op : kBinaryOps)
    if (op.tok == t && op.level == level) return &op;
  return nullptr;
}

ExprPtr makeExpr(EK kind, SourceLoc loc) { return makeNode<Expr>(kind, loc); }

class Parser {
 public:
  Parser(std::vector<Token> toks, Diagnostics& diags) : toks_(std::move(toks)), diags_(diags) {
    // `P->x` reads a local of process P; elsewhere `->` is implication. Processes may be
    // referenced before their declaration, so collect their names first.
    for (size_t i = 0; i + 1 < toks_.size(); ++i)
      if (toks_[i].kind == Tok::KwProcess && toks_[i + 1].kind == Tok::Ident)
        processNames_.insert(toks_[i + 1].text);
  }

  std::unique_ptr<Model> model() {
    auto m = std::make_unique<Model>();
    bool sawSystem = false;
    while (!at(Tok::End)) {
      if (sawSystem) failExpected("end of file after the 'system' declaration");
      switch (peek().kind) {
        case Tok::KwByte:
        case Tok::KwInt:
        case Tok::KwConst:
          declaration(m->globals);
          break;
        case Tok::KwChannel:
          channelDecl(m->channels);
          break;
        case Tok::KwProcess:
          m->processes.push_back(process());
          break;
        case Tok::KwSystem:
          system();
          sawSystem = true;
          break;
        default:
          failExpected("a declaration, 'process' or 'system'");
      }
    }
    if (!sawSystem) fail(peek().loc, "expected 'system async;' at the end of the model");
    return m;
  }

 private:
  // Counts the nesting levels one parse function adds; gives them back when it returns.
  class Depth {
   public:
    explicit Depth(Parser& p) : p_(p) {}
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;
    ~Depth() { p_.depth_ -= added_; }
    void deeper(SourceLoc loc) {
      ++added_;
      if (++p_.depth_ > kMaxNesting)
        p_.fail(loc, "expression nested too deeply (more than " + std::to_string(kMaxNesting) +
                         " levels)");
    }

   private:
    Parser& p_;
    int added_ = 0;
  };

  // --- tokens ---
  const Token& peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < toks_.size() ? toks_[i] : toks_.back();
  }
  bool at(Tok t) const { return peek().kind == t; }
  const Token& advance() {
    const Token& t = toks_[pos_];
    if (pos_ + 1 < toks_.size()) ++pos_;  // End is never consumed
    return t;
  }
  bool accept(Tok t) {
    if (!at(t)) return false;
    advance();
    return true;
  }
  [[noreturn]] void fail(SourceLoc loc, std::string message) {
    diags_.error(loc, std::move(message));
    throw SyntaxError{};
  }
  [[noreturn]] void failExpected(std::string_view what) {
    fail(peek().loc, "expected " + std::string(what) + ", found " + describe(peek()));
  }
  const Token& expect(Tok t, std::string_view what) {
    if (!at(t)) failExpected(what);
    return advance();
  }
  std::string ident(std::string_view what, SourceLoc* loc = nullptr) {
    if (!at(Tok::Ident)) failExpected(what);
    if (loc) *loc = peek().loc;
    return advance().text;
  }

  // Reports `construct` (once per file) and skips to just after the next `;` of this level.
  void skipUnsupported(const std::string& construct) {
    unsupported(peek().loc, construct);
    int depth = 0;
    while (!at(Tok::End)) {
      Tok k = advance().kind;
      if (k == Tok::LBrace || k == Tok::LParen || k == Tok::LBracket) ++depth;
      if (k == Tok::RBrace || k == Tok::RParen || k == Tok::RBracket) --depth;
      if (depth < 0) fail(toks_[pos_ - 1].loc, "unbalanced '" + toks_[pos_ - 1].text + "'");
      if (k == Tok::Semi && depth == 0) return;
    }
    failExpected("';'");
  }
  void unsupported(SourceLoc loc, const std::string& construct) {
    if (reported_.insert(construct).second)
      diags_.error(loc, "DVE construct '" + construct + "' is not supported");
  }

  // The tokens [first, last] as written, comments dropped and whitespace collapsed.
  std::string textOf(size_t first, size_t last) const {
    std::string s;
    for (size_t i = first; i <= last && i < toks_.size(); ++i) {
      if (i > first && toks_[i].begin > toks_[i - 1].end) s += ' ';
      s += toks_[i].text;
    }
    return s;
  }

  // --- declarations ---
  // `byte` (true) or `int` (false).
  bool byteOrInt() {
    if (!at(Tok::KwByte) && !at(Tok::KwInt)) failExpected("'byte' or 'int'");
    return advance().kind == Tok::KwByte;
  }

  // `[e]` after a declared name: e, or null without brackets.
  ExprPtr bracketed(const char* closing) {
    if (!accept(Tok::LBracket)) return nullptr;
    ExprPtr e = expression();
    expect(Tok::RBracket, closing);
    return e;
  }

  void declaration(std::vector<VarDecl>& out) {
    bool isConst = accept(Tok::KwConst);
    bool isByte = byteOrInt();
    do {
      VarDecl d;
      d.isConst = isConst;
      d.isByte = isByte;
      d.name = ident("a variable name", &d.loc);
      d.size = bracketed("']' after the array length");
      if (accept(Tok::Assign)) {
        d.hasInit = true;
        if (accept(Tok::LBrace)) {
          d.braced = true;
          if (!at(Tok::RBrace)) {
            do d.init.push_back(expression());
            while (accept(Tok::Comma));
          }
          expect(Tok::RBrace, "'}' after the initialisers");
        } else {
          d.init.push_back(expression());
        }
      }
      out.push_back(std::move(d));
    } while (accept(Tok::Comma));
    expect(Tok::Semi, "';' after the declaration");
  }

  void channelDecl(std::vector<ChannelDecl>& out) {
    advance();
    bool typed = false;
    std::vector<bool> fields;
    if (accept(Tok::LBrace)) {
      typed = true;
      do fields.push_back(byteOrInt());
      while (accept(Tok::Comma));
      expect(Tok::RBrace, "'}' after the message fields");
    }
    do {
      ChannelDecl d;
      d.typed = typed;
      d.fieldIsByte = fields;
      d.name = ident("a channel name", &d.loc);
      d.capacity = bracketed("']' after the channel's buffer size");
      out.push_back(std::move(d));
    } while (accept(Tok::Comma));
    expect(Tok::Semi, "';' after the channel declaration");
  }

  Process process() {
    Process p;
    p.loc = advance().loc;
    p.name = ident("a process name");
    expect(Tok::LBrace, "'{' after the process name");
    while (true) {
      if (at(Tok::KwByte) || at(Tok::KwInt) || at(Tok::KwConst))
        declaration(p.vars);
      else if (at(Tok::KwChannel))
        skipUnsupported("channel");
      else
        break;
    }
    expect(Tok::KwState, "'state' (the list of the process's states)");
    do {
      State s;
      s.name = ident("a state name", &s.loc);
      p.states.push_back(std::move(s));
    } while (accept(Tok::Comma));
    expect(Tok::Semi, "';' after the states");
    while (!accept(Tok::RBrace)) {
      switch (peek().kind) {
        case Tok::KwInit: {
          SourceLoc loc = advance().loc;
          if (!p.init.empty()) fail(loc, "process '" + p.name + "' has a second 'init'");
          p.init = ident("the initial state", &p.initLoc);
          expect(Tok::Semi, "';' after the initial state");
          break;
        }
        case Tok::KwAccept:
          skipUnsupported("accept");
          break;
        case Tok::KwCommit:
          skipUnsupported("commit");
          break;
        case Tok::KwAssert:
          skipUnsupported("assert");
          break;
        case Tok::KwTrans:
          advance();
          while (at(Tok::Ident)) {
            p.trans.push_back(transition());
            accept(Tok::Comma);
          }
          accept(Tok::Semi);
          break;
        default:
          failExpected("'init', 'trans' or '}'");
      }
    }
    return p;
  }

  Transition transition() {
    Transition t;
    size_t first = pos_;
    t.from = ident("a source state", &t.loc);
    expect(Tok::Arrow, "'->' after the source state");
    t.to = ident("a target state", &t.toLoc);
    expect(Tok::LBrace, "'{' to start the transition");
    while (!at(Tok::RBrace)) {
      if (accept(Tok::KwGuard)) {
        do t.guards.push_back(expression());
        while (accept(Tok::Comma));
        expect(Tok::Semi, "';' after the guard");
      } else if (accept(Tok::KwEffect)) {
        do {
          Effect e;
          e.loc = peek().loc;
          e.lhs = postfix();
          expect(Tok::Assign, "'=' in an effect");
          e.rhs = expression();
          t.effects.push_back(std::move(e));
        } while (accept(Tok::Comma));
        expect(Tok::Semi, "';' after the effects");
      } else if (at(Tok::KwSync)) {
        SourceLoc loc = advance().loc;
        if (t.sync.present) fail(loc, "a transition has at most one 'sync'");
        t.sync.present = true;
        t.sync.channel = ident("a channel name", &t.sync.loc);
        if (!at(Tok::Bang) && !at(Tok::Question)) failExpected("'!' or '?' after the channel");
        t.sync.send = advance().kind == Tok::Bang;
        if (accept(Tok::LBrace)) {
          do t.sync.items.push_back(t.sync.send ? expression() : postfix());
          while (accept(Tok::Comma));
          expect(Tok::RBrace, "'}' after the message");
        } else if (!at(Tok::Semi)) {
          t.sync.items.push_back(t.sync.send ? expression() : postfix());
        }
        expect(Tok::Semi, "';' after the sync");
      } else {
        failExpected("'guard', 'effect' or '}'");
      }
    }
    t.text = textOf(first, pos_);
    advance();  // `}`
    return t;
  }

  void system() {
    advance();
    if (at(Tok::KwSync))
      unsupported(advance().loc, "system sync");
    else
      expect(Tok::KwAsync, "'async' after 'system'");
    if (at(Tok::KwProperty)) {
      unsupported(advance().loc, "property");
      ident("the property process");
    }
    expect(Tok::Semi, "';' after the system declaration");
  }

  // --- expressions ---
  ExprPtr expression() {
    Depth d(*this);
    d.deeper(peek().loc);
    return binary(0);
  }

  ExprPtr binary(int level) {
    if (level > kTightest) return unary();
    Depth d(*this);  // each operator of a chain deepens the (left-leaning) tree by one
    ExprPtr e = binary(level + 1);
    while (const BinaryOp* op = binaryOpAt(peek().kind, level)) {
      SourceLoc loc = advance().loc;
      d.deeper(loc);
      auto b = makeExpr(EK::Binary, loc);
      b->binop = op->op;
      b->kids.push_back(std::move(e));
      b->kids.push_back(binary(level + 1));
      e = std::move(b);
    }
    return e;
  }

  ExprPtr unary() {
    UnOp op;
    switch (peek().kind) {
      case Tok::Bang:
        op = UnOp::Not;
        break;
      case Tok::Minus:
        op = UnOp::Neg;
        break;
      case Tok::Tilde:
        op = UnOp::BitNot;
        break;
      default:
        return postfix();
    }
    Depth d(*this);
    auto e = makeExpr(EK::Unary, advance().loc);
    d.deeper(e->loc);
    e->unop = op;
    e->kids.push_back(unary());
    return e;
  }

  ExprPtr postfix() {
    ExprPtr e = primary();
    while (at(Tok::LBracket)) {
      auto ix = makeExpr(EK::Index, e->loc);
      advance();
      ix->kids.push_back(std::move(e));
      ix->kids.push_back(expression());
      expect(Tok::RBracket, "']' after the index");
      e = std::move(ix);
      if (at(Tok::LBracket)) fail(peek().loc, "DVE arrays have one dimension");
    }
    return e;
  }

  ExprPtr primary() {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::IntLit: {
        auto e = makeExpr(EK::Int, t.loc);
        auto v = BigInt::parse(t.text);
        if (!v || !v->fitsIn(63)) fail(t.loc, "integer literal '" + t.text + "' is too large");
        e->value = *v;
        advance();
        return e;
      }
      case Tok::KwTrue:
      case Tok::KwFalse: {
        auto e = makeExpr(EK::Bool, t.loc);
        e->value = BigInt(advance().kind == Tok::KwTrue ? 1 : 0);
        return e;
      }
      case Tok::Ident: {
        bool member =
            peek(1).kind == Tok::Dot || (peek(1).kind == Tok::Arrow && peek(2).kind == Tok::Ident &&
                                         processNames_.count(t.text));
        auto e = makeExpr(member ? EK::ProcMember : EK::Name, t.loc);
        e->name = advance().text;
        if (member) {
          e->arrow = advance().kind == Tok::Arrow;
          e->member = ident("a state or variable name", &e->memberLoc);
        }
        return e;
      }
      case Tok::LParen: {
        advance();
        ExprPtr e = expression();
        expect(Tok::RParen, "')'");
        return e;
      }
      default:
        failExpected("an expression");
    }
  }

  std::vector<Token> toks_;
  size_t pos_ = 0;
  Diagnostics& diags_;
  int depth_ = 0;
  std::set<std::string> processNames_;
  std::set<std::string> reported_;  // unsupported constructs already reported
};

}  // namespace

std::unique_ptr<Model> parse(const SourceFile& file, Diagnostics& diags) {
  std::vector<Token> toks = lex(file, diags);
  if (diags.hasErrors()) return nullptr;
  try {
    return Parser(std::move(toks), diags).model();
  } catch (const SyntaxError&) {
    return nullptr;
  }
}

}  // namespace tandem::dve
