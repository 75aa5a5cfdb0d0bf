// Internal to the DVE importer: the names a DVE expression may use, with what they denote in the
// IR being built.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mc/ir/program.h"

namespace tandem::dve {

struct VarSym {
  ir::VarId id = ir::kNone;
  bool isByte = true;    // byte (0..255) or int (-32768..32767)
  bool isConst = false;  // a `const` array: read-only
  int64_t length = -1;   // arrays: the length; -1 for scalars
};

struct Scope {
  std::map<std::string, VarSym> vars;
  std::map<std::string, int64_t> consts;  // scalar `const`s, folded
};

struct ProcSym {
  std::string name;
  uint32_t index = 0;  // in Program::processes
  ir::CfaId cfa = ir::kNone;
  std::map<std::string, ir::LocId> states;
  Scope locals;
};

struct Symbols {
  Scope globals;
  std::map<std::string, ProcSym> procs;  // node-based: ProcSym pointers stay valid
  std::vector<bool> isByte;              // by VarId: the value range of every variable
};

}  // namespace tandem::dve
