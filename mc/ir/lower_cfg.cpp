// Lowering, phase 1: control flow of one body, then contraction of jumps.
#include <algorithm>
#include <functional>
#include <tuple>

#include "mc/ir/lower_impl.h"

namespace tandem::lower {

using SK = ast::Stmt::Kind;

uint32_t CfgBuilder::newLoc() {
  cfa_.locs.emplace_back();
  return static_cast<uint32_t>(cfa_.locs.size() - 1);
}

void CfgBuilder::edge(uint32_t from, uint32_t to, Role role, const ast::Stmt* s) {
  cfa_.edges.push_back({from, to, role, s});
  if (role != Role::Eps && s && !cfa_.locs[from].loc.valid()) cfa_.locs[from].loc = s->loc;
}

void CfgBuilder::preallocateLabels(const std::vector<ast::StmtPtr>& body) {
  for (auto& s : body) {
    for (auto& l : s->labels)
      if (!cfa_.labelLoc.count(l)) {
        uint32_t loc = newLoc();
        cfa_.labelLoc[l] = loc;
        cfa_.locs[loc].loc = s->loc;
        cfa_.locs[loc].labels.push_back(l);
      }
    preallocateLabels(s->body);
  }
}

namespace {
bool callsAnything(const ast::Expr* e) {
  if (!e) return false;
  if (e->kind == ast::Expr::Kind::Call || e->kind == ast::Expr::Kind::NewObject) return true;
  for (auto& a : e->args)
    if (callsAnything(a.get())) return true;
  return false;
}
}  // namespace

void CfgBuilder::build(const std::vector<ast::StmtPtr>& body, bool entryDeclsAllowed) {
  cfa_.entry = newLoc();
  preallocateLabels(body);
  // Declarations before the first statement that call nothing are initialised on entry.
  size_t first = 0;
  if (entryDeclsAllowed) {
    for (; first < body.size(); ++first) {
      const ast::Stmt& s = *body[first];
      if (!s.labels.empty()) break;
      if (s.kind == SK::Predicate) {
        cfa_.predicates.push_back(s.cond.get());
        continue;
      }
      if (s.kind != SK::VarDecl || (!s.rhs.empty() && callsAnything(s.rhs[0].get()))) break;
      cfa_.entryDecls.push_back(&s);
    }
  }
  uint32_t at = cfa_.entry;
  for (size_t i = first; i < body.size(); ++i) at = stmt(*body[i], at);
  cfa_.exit = at;
}

uint32_t CfgBuilder::stmts(const std::vector<ast::StmtPtr>& body, uint32_t at) {
  for (auto& s : body) at = stmt(*s, at);
  return at;
}

uint32_t CfgBuilder::stmt(const ast::Stmt& s, uint32_t at) {
  if (!s.labels.empty()) {
    uint32_t l = cfa_.labelLoc.at(s.labels.front());
    edge(at, l, Role::Eps, nullptr);
    at = l;
    for (size_t i = 1; i < s.labels.size(); ++i) {
      uint32_t m = cfa_.labelLoc.at(s.labels[i]);
      if (m != l) edge(m, l, Role::Eps, nullptr);
    }
  }
  switch (s.kind) {
    case SK::Predicate:
      cfa_.predicates.push_back(s.cond.get());
      return at;
    case SK::Block:
      return stmts(s.body, at);
    case SK::Atomic: {
      size_t before = cfa_.locs.size();
      uint32_t end = stmts(s.body, at);
      // Locations strictly inside the block keep the turn with their process: the ones made
      // here and those of labels inside (made up front), but not the block's first location.
      for (size_t i = before; i < cfa_.locs.size(); ++i)
        if (i != end) cfa_.locs[i].atomic = true;
      std::function<void(const std::vector<ast::StmtPtr>&)> mark = [&](const auto& body) {
        for (auto& st : body) {
          for (auto& l : st->labels) cfa_.locs[cfa_.labelLoc.at(l)].atomic = true;
          mark(st->body);
        }
      };
      mark(s.body);
      for (const ast::Stmt* first = s.body.empty() ? nullptr : s.body.front().get(); first;
           first = (first->kind == SK::Block || first->kind == SK::Atomic) && !first->body.empty()
                       ? first->body.front().get()
                       : nullptr)
        for (auto& l : first->labels) cfa_.locs[cfa_.labelLoc.at(l)].atomic = false;
      return end;
    }
    case SK::If: {
      uint32_t thenStart = newLoc(), after = newLoc();
      bool star = s.cond->kind == ast::Expr::Kind::Star;
      edge(at, thenStart, star ? Role::Choice : Role::IfTrue, &s);
      uint32_t elseStart = after;
      if (s.hasElse) elseStart = newLoc();
      edge(at, elseStart, star ? Role::Choice : Role::IfFalse, &s);
      edge(stmt(*s.body[0], thenStart), after, Role::Eps, nullptr);
      if (s.hasElse) edge(stmt(*s.body[1], elseStart), after, Role::Eps, nullptr);
      return after;
    }
    case SK::While: {
      uint32_t bodyStart = newLoc(), exit = newLoc();
      bool star = s.cond->kind == ast::Expr::Kind::Star;
      edge(at, bodyStart, star ? Role::Choice : Role::IfTrue, &s);
      edge(at, exit, star ? Role::Choice : Role::IfFalse, &s);
      loops_.push_back({at, exit});
      edge(stmt(*s.body[0], bodyStart), at, Role::Eps, nullptr);
      loops_.pop_back();
      return exit;
    }
    case SK::Break:
      edge(at, loops_.back().exit, Role::Eps, nullptr);
      return newLoc();
    case SK::Continue:
      edge(at, loops_.back().head, Role::Eps, nullptr);
      return newLoc();
    case SK::Goto:
      if (s.targets.size() == 1) {
        edge(at, cfa_.labelLoc.at(s.targets[0]), Role::Eps, nullptr);
      } else {  // a nondeterministic choice is a step
        for (auto& t : s.targets) edge(at, cfa_.labelLoc.at(t), Role::Choice, &s);
      }
      return newLoc();
    case SK::Return:
      if (!s.cond) {
        cfa_.edges.push_back({at, kNone, Role::Eps, &s});  // to the exit, patched below
        return newLoc();
      }
      cfa_.edges.push_back({at, kNone, Role::ReturnValue, &s});
      if (!cfa_.locs[at].loc.valid()) cfa_.locs[at].loc = s.loc;
      return newLoc();
    default: {
      uint32_t next = newLoc();
      edge(at, next, Role::Stmt, &s);
      return next;
    }
  }
}

bool contract(RawCfa& raw, Diagnostics& diags, SourceLoc where) {
  const uint32_t n = static_cast<uint32_t>(raw.locs.size());
  for (auto& e : raw.edges)
    if (e.to == kNone) e.to = raw.exit;  // returns go to the exit location
  std::vector<uint32_t> alias(n, kNone);
  for (auto& e : raw.edges)
    if (e.role == Role::Eps) alias[e.from] = e.to;
  // Follow jump chains; a cycle of jumps never takes a step.
  std::vector<uint32_t> rep(n, kNone);
  for (uint32_t l = 0; l < n; ++l) {
    uint32_t cur = l;
    std::vector<uint32_t> path;
    while (alias[cur] != kNone && rep[cur] == kNone) {
      if (std::find(path.begin(), path.end(), cur) != path.end()) {
        SourceLoc at = raw.locs[cur].loc.valid() ? raw.locs[cur].loc : where;
        diags.error(at, "this loop of jumps ('goto', 'break', 'continue') never takes a step");
        return false;
      }
      path.push_back(cur);
      cur = alias[cur];
    }
    uint32_t r = rep[cur] != kNone ? rep[cur] : cur;
    for (auto p : path) rep[p] = r;
    rep[l] = r;
  }
  for (uint32_t l = 0; l < n; ++l)
    if (rep[l] != l)
      for (auto& lab : raw.locs[l].labels) raw.locs[rep[l]].labels.push_back(lab);
  // Reachability over the step edges from the entry.
  std::vector<std::vector<uint32_t>> succ(n);
  for (auto& e : raw.edges)
    if (e.role != Role::Eps) succ[rep[e.from]].push_back(rep[e.to]);
  std::vector<bool> seen(n, false);
  std::vector<uint32_t> todo{rep[raw.entry]};
  seen[rep[raw.entry]] = true;
  // A labelled location stays, so reports can name it; so do the locations after it, or its
  // edges would lead nowhere (found by scripts/difftest: an unreachable `L: if (*) {...}`).
  for (uint32_t l = 0; l < n; ++l)
    if (rep[l] == l && !raw.locs[l].labels.empty() && !seen[l]) seen[l] = true, todo.push_back(l);
  while (!todo.empty()) {
    uint32_t l = todo.back();
    todo.pop_back();
    for (auto s : succ[l])
      if (!seen[s]) seen[s] = true, todo.push_back(s);
  }
  if (raw.keepExit) seen[rep[raw.exit]] = true;
  raw.final.assign(n, kNone);
  // Number the locations in source order (the exit, which has no statement, comes last).
  std::vector<uint32_t> order;
  for (uint32_t l = 0; l < n; ++l)
    if (rep[l] == l && seen[l]) order.push_back(l);
  auto key = [&](uint32_t l) {
    SourceLoc s = raw.locs[l].loc;
    bool last = !s.valid() || l == rep[raw.exit];
    return std::make_tuple(last, s.line, s.col, l);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  std::vector<uint32_t> number(n, kNone);
  for (uint32_t i = 0; i < order.size(); ++i) number[order[i]] = i;
  for (uint32_t l = 0; l < n; ++l) raw.final[l] = number[rep[l]];
  return true;
}

}  // namespace tandem::lower
