// Type checker: channel declarations, sends, receives, and len/empty/full of a channel
// (LANGUAGE.md, Channels).
#include "mc/lang/checker_impl.h"

namespace tandem::check {

using EK = ast::Expr::Kind;
using SK = ast::Stmt::Kind;

namespace {
// A capacity beyond this is surely a mistake (each slot is part of every state).
constexpr long long kMaxCapacity = 4096;
}  // namespace

void Checker::checkChan(ast::ChanDecl& c) {
  if (c.count) {
    if (auto n =
            instanceCount(*c.count, "the number of channels '" + c.name + "' must be a constant",
                          "channel array '" + c.name + "' must have between 1 and 255 channels"))
      c.instances = *n;
  }
  checkExpr(*c.capacity);
  auto cap = foldConst(*c.capacity);
  if (!cap)
    error(c.capacity->loc, "the capacity of channel '" + c.name + "' must be a constant");
  else if (*cap < 0 || *cap > kMaxCapacity)
    error(c.capacity->loc, "the capacity of channel '" + c.name + "' must be in 0.." +
                               std::to_string(kMaxCapacity) + ", got " + std::to_string(*cap));
  else
    c.cap = *cap;
  c.fieldTypes.clear();
  for (auto& f : c.fields) {
    TypeRef t = resolveType(f.get());
    if (t && !t->isIntegral() && t->kind != TypeKind::Bool && t->kind != TypeKind::Enum) {
      error(f->loc,
            "a message field must be an integer, bool or enum type, got '" + typeToString(t) + "'");
      t = nullptr;
    }
    c.fieldTypes.push_back(t);
  }
}

ast::ChanDecl* Checker::checkChannelRef(ast::Expr& e) {
  ast::Expr* name = e.kind == EK::Index ? e.args[0].get() : &e;
  if (name->kind != EK::Name) {
    error(e.loc, "expected a channel");
    return nullptr;
  }
  const GlobalSym* g = lookupLocal(name->name) ? nullptr : lookupGlobal(name->name);
  if (!g || g->kind != GlobalSym::Kind::Chan) {
    error(name->loc, "'" + name->name + "' is not a channel");
    return nullptr;
  }
  ast::ChanDecl& c = prog_.chans[g->index];
  name->ref = ast::RefKind::Channel;
  name->constValue = static_cast<long long>(g->index);
  if (e.kind == EK::Index) {
    e.ref = ast::RefKind::Channel;
    e.constValue = name->constValue;
    if (!c.count) {
      error(e.loc, "channel '" + c.name + "' is not an array of channels");
      return nullptr;
    }
    TypeRef it = checkExpr(*e.args[1]);
    if (it && !it->isIntegral()) {
      error(e.args[1]->loc, "a channel index must be an integer, got '" + typeToString(it) + "'");
      return nullptr;
    }
  } else if (c.count) {
    error(e.loc, "'" + c.name + "' is an array of channels: name one as '" + c.name + "[i]'");
    return nullptr;
  }
  return &c;
}

void Checker::checkChannelOp(ast::Stmt& s) {
  bool send = s.kind == SK::Send;
  const char* what = send ? "send" : "receive";
  if (!body_ || !body_->process) error(s.loc, std::string("'") + what + "' outside a process");
  ast::ChanDecl* c = checkChannelRef(*s.cond);
  auto& items = send ? s.rhs : s.lhs;
  if (!c) {
    for (auto& i : items) checkExpr(*i);
    return;
  }
  if (c->cap == 0 && body_ && body_->atomicDepth > 0)
    error(s.loc, std::string("a rendezvous ") + what + " inside 'atomic' is not supported");
  if (items.size() != c->fieldTypes.size()) {
    error(s.loc, "channel '" + c->name + "' carries " + std::to_string(c->fieldTypes.size()) +
                     " field" + (c->fieldTypes.size() == 1 ? "" : "s") + ", " + what + " has " +
                     std::to_string(items.size()));
    for (auto& i : items) checkExpr(*i);
    return;
  }
  s.matches.assign(items.size(), false);
  for (size_t i = 0; i < items.size(); ++i) {
    TypeRef want = c->fieldTypes[i];
    ast::Expr& e = *items[i];
    TypeRef t = checkExpr(e, want);
    if (!t || !want) continue;
    std::string field = "field " + std::to_string(i + 1) + " of channel '" + c->name + "'";
    if (send) {
      coerce(e, want, field);
    } else if (isConstantValue(e)) {
      s.matches[i] = true;  // a constant: the message must carry this value
      coerce(e, want, field);
    } else if (checkLvalue(e)) {
      if (t != want)
        error(e.loc, "cannot receive " + field + " ('" + typeToString(want) + "') into '" +
                         typeToString(t) + "'");
    }
  }
}

TypeRef Checker::checkChannelBuiltin(ast::Expr& call) {
  call.ref = ast::RefKind::Builtin;
  if (call.args.size() != 1) {
    error(call.loc, "wrong number of arguments to '" + call.name + "': expected 1, got " +
                        std::to_string(call.args.size()));
    return nullptr;
  }
  if (!checkChannelRef(*call.args[0])) return nullptr;
  return call.name == "len" ? types_.intType() : types_.boolType();
}

bool Checker::namesChannel(const ast::Expr& e) {
  const ast::Expr* name = e.kind == EK::Index ? e.args[0].get() : &e;
  if (name->kind != EK::Name || lookupLocal(name->name)) return false;
  const GlobalSym* g = lookupGlobal(name->name);
  return g && g->kind == GlobalSym::Kind::Chan;
}

}  // namespace tandem::check
