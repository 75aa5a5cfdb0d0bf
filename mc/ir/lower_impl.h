// Internal to lowering (lower_*.cpp). Lowering runs in two phases:
//  1. control flow: every body becomes a raw graph in which statements are edges and pure jumps
//     (goto, break, continue, bare return, block boundaries) are epsilon edges; epsilon edges
//     are then contracted, so each remaining location is the point before a step;
//  2. expressions: once every label has its final location (P@L may name a label of a process
//     lowered later), the statements on the raw edges are turned into guarded commands.
#pragma once

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "mc/ir/lower.h"
#include "mc/lang/ast.h"

namespace tandem::lower {

using ir::kNone;

enum class Role : uint8_t {
  Eps,          // a jump: no step
  Stmt,         // the statement itself (assignment, assert, skip, call, ...)
  IfTrue,       // condition holds
  IfFalse,      // condition fails
  Choice,       // `if (*)`, `while (*)` or a `goto` with several targets: no guard
  ReturnValue,  // `return e`: result := e, then to the exit
};

struct RawEdge {
  uint32_t from, to;
  Role role;
  const ast::Stmt* stmt;  // null for Eps and Choice of a goto
};

struct RawLoc {
  SourceLoc loc;
  bool atomic = false;
  std::vector<std::string> labels;
};

// The control flow of one body before expressions are lowered.
struct RawCfa {
  std::vector<RawLoc> locs;
  std::vector<RawEdge> edges;
  uint32_t entry = 0, exit = 0;
  std::map<std::string, uint32_t> labelLoc;
  std::vector<const ast::Stmt*> entryDecls;  // initialised on entry, without a step
  std::vector<const ast::Expr*> predicates;
  bool keepExit = true;  // procedures keep their exit location even when unreachable
  // Filled by contraction: raw location -> final LocId (kNone: dropped).
  std::vector<uint32_t> final;
};

// Phase 1 (lower_cfg.cpp): builds the raw graph of a body.
class CfgBuilder {
 public:
  explicit CfgBuilder(RawCfa& out) : cfa_(out) {}
  void build(const std::vector<ast::StmtPtr>& body, bool entryDeclsAllowed);

 private:
  uint32_t newLoc();
  void edge(uint32_t from, uint32_t to, Role role, const ast::Stmt* s);
  void preallocateLabels(const std::vector<ast::StmtPtr>& body);
  uint32_t stmts(const std::vector<ast::StmtPtr>& body, uint32_t at);
  uint32_t stmt(const ast::Stmt& s, uint32_t at);
  struct Loop {
    uint32_t head, exit;
  };
  RawCfa& cfa_;
  std::vector<Loop> loops_;
};

// Contracts epsilon edges and drops unreachable locations; returns false on a cycle of jumps.
bool contract(RawCfa& raw, Diagnostics& diags, SourceLoc where);

}  // namespace tandem::lower
