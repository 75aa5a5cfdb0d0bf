// A cross-check of the DVE importer's semantics: a throwaway explicit-state BFS over the IR it
// produces (a tiny interpreter of guards and sequential assignments over int vectors, independent
// of mc/exec) must reproduce the published state and transition counts of small BEEM instances
// (shared/external/beem/expected/mutex_expected.csv).
#include <doctest/doctest.h>

#include <deque>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#include "mc/dve/import.h"

namespace tandem {
namespace {

using State = std::vector<int32_t>;

struct StateHash {
  size_t operator()(const State& s) const {
    size_t h = 0xcbf29ce484222325ULL;
    for (int32_t v : s) h = (h ^ static_cast<uint32_t>(v)) * 0x100000001b3ULL;
    return h;
  }
};

int64_t euclidDiv(int64_t a, int64_t b) {
  int64_t q = a / b, r = a % b;
  if (r < 0) q += b > 0 ? -1 : 1;
  return q;
}

// Globals and process locals at fixed offsets, then one program counter per process.
class Interp {
 public:
  explicit Interp(const ir::Program& p) : p_(p), offset_(p.vars.size(), -1) {
    for (ir::VarId v = 0; v < p.vars.size(); ++v) {
      offset_[v] = size_;
      size_ +=
          p.vars[v].type->kind == TypeKind::Array ? static_cast<int>(p.vars[v].type->length) : 1;
    }
    pc0_ = size_;
    size_ += static_cast<int>(p.processes.size());
  }

  State initial() const {
    State s(static_cast<size_t>(size_), 0);
    for (ir::VarId v = 0; v < p_.vars.size(); ++v) {
      ExprRef init = p_.vars[v].init;
      REQUIRE(init);
      if (init->op == Op::ArrayLit)
        for (size_t i = 0; i < init->kids.size(); ++i)
          s[static_cast<size_t>(offset_[v]) + i] =
              static_cast<int32_t>(*init->kid(i)->value.toInt64());
      else
        s[static_cast<size_t>(offset_[v])] = static_cast<int32_t>(*init->value.toInt64());
    }
    for (size_t i = 0; i < p_.processes.size(); ++i)
      s[static_cast<size_t>(pc0_) + i] = static_cast<int32_t>(p_.cfas[p_.processes[i]].entry);
    return s;
  }

  // Calls f(successor) for every enabled edge; returns the number of fired transitions.
  template <class F>
  size_t successors(const State& s, F&& f) const {
    size_t n = 0;
    for (size_t i = 0; i < p_.processes.size(); ++i) {
      auto pc = static_cast<ir::LocId>(s[static_cast<size_t>(pc0_) + i]);
      for (ir::EdgeId ei : p_.locs[pc].out) {
        const ir::Edge& e = p_.edges[ei];
        if (e.guard && !eval(e.guard, s)) continue;
        State t = s;
        for (const ir::Assignment& a : e.assigns) {  // sequential: each sees the previous
          int64_t v = eval(a.rhs, t);
          t[slot(a.lhs, t)] = static_cast<int32_t>(v);
        }
        t[static_cast<size_t>(pc0_) + i] = static_cast<int32_t>(e.to);
        f(std::move(t));
        ++n;
      }
    }
    return n;
  }

  int64_t eval(ExprRef e, const State& s) const {
    auto k = [&](size_t i) { return eval(e->kid(i), s); };
    switch (e->op) {
      case Op::IntConst:
      case Op::BoolConst:
        return *e->value.toInt64();
      case Op::Select:
        if (e->kid(0)->op == Op::ArrayLit) {  // a constant table (2^k for variable shifts)
          int64_t i = k(1);
          if (i < 0 || static_cast<size_t>(i) >= e->kid(0)->kids.size())
            throw std::runtime_error("index out of bounds");
          return eval(e->kid(0)->kid(static_cast<size_t>(i)), s);
        }
        return s[slot(e, s)];
      case Op::Var:
      case Op::ProcLocal:
        return s[slot(e, s)];
      case Op::AtLoc:
        return s[static_cast<size_t>(pc0_) + e->payload] == *e->value.toInt64();
      case Op::Neg:
        return -k(0);
      case Op::Not:
        return !k(0);
      case Op::Add:
        return k(0) + k(1);
      case Op::Sub:
        return k(0) - k(1);
      case Op::Mul:
        return k(0) * k(1);
      case Op::Div:
      case Op::Mod: {
        int64_t a = k(0), b = k(1);
        if (b == 0) throw std::runtime_error("division by zero");
        int64_t q = euclidDiv(a, b);
        return e->op == Op::Div ? q : a - b * q;
      }
      case Op::Eq:
        return k(0) == k(1);
      case Op::Ne:
        return k(0) != k(1);
      case Op::Lt:
        return k(0) < k(1);
      case Op::Le:
        return k(0) <= k(1);
      case Op::Gt:
        return k(0) > k(1);
      case Op::Ge:
        return k(0) >= k(1);
      case Op::And:
        return k(0) && k(1);
      case Op::Or:
        return k(0) || k(1);
      case Op::Implies:
        return !k(0) || k(1);
      case Op::Ite:
        return k(0) ? k(1) : k(2);
      case Op::Min:
        return std::min(k(0), k(1));
      case Op::Max:
        return std::max(k(0), k(1));
      default:
        throw std::runtime_error(std::string("unexpected op ") + opName(e->op));
    }
  }

  size_t slot(ExprRef lv, const State& s) const {
    ExprRef base = lv->op == Op::Select ? lv->kid(0) : lv;
    uint64_t var =
        base->op == Op::ProcLocal ? static_cast<uint64_t>(*base->value.toInt64()) : base->payload;
    int64_t idx = 0;
    if (lv->op == Op::Select) {
      idx = eval(lv->kid(1), s);
      if (idx < 0 || idx >= p_.vars[var].type->length)
        throw std::runtime_error("index out of bounds");
    }
    return static_cast<size_t>(offset_[var] + idx);
  }

 private:
  const ir::Program& p_;
  std::vector<int> offset_;
  int size_ = 0;
  int pc0_ = 0;
};

struct Counts {
  size_t states = 0, transitions = 0;
};

Counts explore(const ir::Program& p) {
  Interp in(p);
  std::unordered_set<State, StateHash> seen;
  std::deque<State> queue;
  State s0 = in.initial();
  seen.insert(s0);
  queue.push_back(std::move(s0));
  Counts c;
  while (!queue.empty()) {
    State s = std::move(queue.front());
    queue.pop_front();
    c.transitions += in.successors(s, [&](State t) {
      if (seen.insert(t).second) queue.push_back(std::move(t));
    });
  }
  c.states = seen.size();
  return c;
}

std::unique_ptr<ir::Program> importText(const std::string& path, const std::string& text) {
  SourceFile file(path, text);
  Diagnostics d(&file);
  auto p = importDve(file, d);
  std::ostringstream err;
  d.print(err);
  INFO(err.str());
  REQUIRE(p);
  return p;
}

std::unique_ptr<ir::Program> importBeem(const std::string& name) {
  std::string path = std::string(TANDEM_SHARED_DIR) + "/external/beem/dve/" + name + ".dve";
  std::ifstream in(path);
  REQUIRE(in);
  std::ostringstream ss;
  ss << in.rdbuf();
  return importText(path, ss.str());
}

TEST_CASE("dve semantics: BFS over the imported IR reproduces the BEEM counts") {
  // Small instances only, to keep the test fast; their counts come from mutex_expected.csv.
  struct Expected {
    const char* name;
    size_t states, transitions;
  };
  const Expected cases[] = {
      {"fischer.1", 634, 1395},      {"bakery.1", 1506, 2697},    {"anderson.2", 1459, 3705},
      {"msmie.1", 2334, 3097},       {"mcs.1", 7963, 21503},      {"peterson.1", 12498, 33369},
      {"szymanski.1", 20264, 56701}, {"lamport.1", 29242, 77286},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    auto p = importBeem(c.name);
    Counts got = explore(*p);
    CHECK(got.states == c.states);
    CHECK(got.transitions == c.transitions);
  }
}

TEST_CASE("dve semantics: byte and int assignments wrap around") {
  auto p = importText("wrap.dve",
                      "byte b = 250; int i = 32767; byte z = 300; byte m = -1; int n = -40000;\n"
                      "process P { state a, done; init a;\n"
                      "  trans a -> done { effect b = b + 10, i = i + 1, z = b * 2 - 600; }; }\n"
                      "system async;\n");
  Interp in(*p);
  State s0 = in.initial();
  // Initialisers wrap too: 300 -> 44, -1 -> 255, -40000 -> 25536.
  CHECK(s0[2] == 44);
  CHECK(s0[3] == 255);
  CHECK(s0[4] == 25536);
  std::vector<State> next;
  in.successors(s0, [&](State t) { next.push_back(std::move(t)); });
  REQUIRE(next.size() == 1);
  CHECK(next[0][0] == 4);       // 260 mod 256
  CHECK(next[0][1] == -32768);  // 32768 wraps to the most negative int
  CHECK(next[0][2] == 176);     // sequential: b is already 4, 4 * 2 - 600 = -592 -> 176
}

TEST_CASE("dve semantics: C division, bitwise encodings and shifts are exact") {
  // Each `r = e` stores e into a wide-enough int; compare with the C value computed here.
  struct Case {
    const char* expr;
    int64_t x, y, expected;
  };
  const Case cases[] = {
      {"x / y", -7, 2, -3},
      {"x % y", -7, 2, -1},
      {"x / y", 7, -2, -3},
      {"x % y", 7, -2, 1},
      {"x / y", -7, -2, 3},
      {"x % y", -7, -2, -1},
      {"x | 255", -1, 0, -1},
      {"x | 15", 300, 0, 303},
      {"x & 15", -3, 0, 13},
      {"x ^ 7", -3, 0, -6},
      {"x << 3", -5, 0, -40},
      {"x >> 2", -5, 0, -2},
      {"(x == 1) | (y == 1)", 1, 0, 1},
      {"(x == 1) & (y == 1)", 1, 0, 0},
      {"(x == 1) ^ (y == 1)", 1, 1, 0},
      {"~x", 5, 0, -6},
      {"(x - 1) | ((x == 255) * 255)", 255, 0, 255},
      {"(x - 1) | ((x == 255) * 255)", 7, 0, 6},
      {"x & ((y > 0) * 3)", 13, 1, 1},
      // Any operands: bit by bit over their width.
      {"x & y", -3, 6, 4},
      {"x | y", -3, 6, -1},
      {"x ^ y", -3, 6, -5},
      {"x & y", 200, 100, 64},
      {"x | y", 200, 100, 236},
      {"x ^ y", 200, 100, 172},
      {"x ^ y", -32768, 32767, -1},
      {"x & y", -32768, -1, -32768},
      {"x << y", 3, 4, 48},
      {"x >> y", -100, 3, -13},
      {"1 << y", 0, 14, 16384},
      {"(x & (1 << y)) / (1 << y)", 5, 2, 1},
      {"(x & (1 << y)) / (1 << y)", 5, 1, 0},
  };
  for (const auto& c : cases) {
    CAPTURE(c.expr);
    CAPTURE(c.x);
    CAPTURE(c.y);
    std::string text =
        "int x = " + std::to_string(c.x) + "; int y = " + std::to_string(c.y) +
        "; int r;\nprocess P { state a; init a; trans a -> a { effect r = " + c.expr +
        "; }; }\nsystem async;\n";
    auto p = importText("ops.dve", text);
    Interp in(*p);
    std::vector<State> next;
    in.successors(in.initial(), [&](State t) { next.push_back(std::move(t)); });
    REQUIRE(next.size() == 1);
    CHECK(next[0][2] == c.expected);
  }
}

}  // namespace
}  // namespace tandem
