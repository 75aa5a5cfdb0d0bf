// The visited set (StateStore: exact deduplication, parents, growth of the table and the arena)
// and the state encoding (StateCodec: encode/decode round trips on states that exploring real
// models reaches).
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "mc/exec/evaluator.h"
#include "mc/ir/frontend.h"
#include "mc/search/explore/explorer.h"
#include "mc/search/generic_system.h"
#include "mc/search/state_codec.h"
#include "mc/search/stores/state_store.h"

namespace tandem {
namespace {

namespace fs = std::filesystem;
using search::StateStore;

// A distinct byte string per index, of varying length, with embedded NULs and high bytes.
std::string bytesFor(uint32_t i) {
  std::string s;
  uint32_t len = i % 37;
  s.push_back(static_cast<char>(i & 0xff));
  s.push_back(static_cast<char>((i >> 8) & 0xff));
  s.push_back(static_cast<char>((i >> 16) & 0xff));
  for (uint32_t k = 0; k < len; ++k) s.push_back(static_cast<char>((i * 31 + k * 7) & 0xff));
  s.push_back('\0');
  return s;
}

std::unique_ptr<ir::Program> load(const std::string& path) {
  std::ostringstream err;
  auto file = readSourceFile(path, err);
  REQUIRE_MESSAGE(file, err.str());
  auto p = loadProgram(*file, {}, err);
  REQUIRE_MESSAGE(p, err.str());
  return p;
}

std::unique_ptr<ir::Program> loadText(const std::string& text) {
  SourceFile file("t.tdm", text);
  std::ostringstream err;
  auto p = loadProgram(file, {}, err);
  REQUIRE_MESSAGE(p, err.str());
  return p;
}

// Explores `p` (at most `maxStates` states) and checks that every stored state survives
// decode -> encode byte for byte and encode -> decode as an equal state. Returns the number of
// states checked.
size_t roundTrip(const ir::Program& p, search::GenericOptions go, uint64_t maxStates) {
  exec::NativeRegistry natives;
  exec::Evaluator ev(p, natives);
  search::GenericSystem sys(p, ev, go);
  search::ExploreOptions eo;
  eo.search = search::Strategy::Bfs;
  eo.limits.maxStates = maxStates;
  search::Explorer ex(sys, eo);
  auto res = ex.run();
  const search::StateCodec& codec = sys.codec();
  std::string again;
  size_t n = ex.store().size();
  for (StateStore::Id id = 0; id < n; ++id) {
    std::string_view bytes = ex.store().get(id);
    exec::State s = codec.decode(bytes);
    codec.encode(s, again);
    REQUIRE_MESSAGE(again == bytes, "state " << id << " of " << p.file);
    CHECK(codec.decode(again) == s);
  }
  CHECK(res.states == n);
  return n;
}

}  // namespace

TEST_CASE("search: StateStore inserts, deduplicates and keeps parents across growth") {
  StateStore store;
  CHECK(store.size() == 0);
  const uint32_t kStates = 100000;  // the table starts at 2^16 slots: two rehashes
  std::vector<std::string> keys;
  for (uint32_t i = 0; i < kStates; ++i) keys.push_back(bytesFor(i));
  size_t before = store.memoryBytes();
  // Plain loops with one assertion each: hundreds of thousands of doctest assertions are slow.
  bool allNew = true, idsInOrder = true;
  for (uint32_t i = 0; i < kStates; ++i) {
    auto ins = store.insert(keys[i], i == 0 ? StateStore::kNoParent : i / 2);
    allNew = allNew && ins.isNew;
    idsInOrder = idsInOrder && ins.id == i;
  }
  CHECK(allNew);
  CHECK(idsInOrder);
  CHECK(store.size() == kStates);
  CHECK(store.memoryBytes() > before);
  bool bytesKept = true, parentsKept = true;
  for (uint32_t i = 0; i < kStates; ++i) {
    bytesKept = bytesKept && store.get(i) == keys[i];
    parentsKept = parentsKept && store.parent(i) == (i == 0 ? StateStore::kNoParent : i / 2);
  }
  CHECK(bytesKept);
  CHECK(parentsKept);
  // Inserting the same bytes again finds the stored state and leaves its parent alone.
  bool found = true, sameId = true;
  for (uint32_t i = 0; i < kStates; i += 7) {
    auto ins = store.insert(keys[i], 12345);
    found = found && !ins.isNew;
    sameId = sameId && ins.id == i;
  }
  CHECK(found);
  CHECK(sameId);
  parentsKept = true;
  for (uint32_t i = 0; i < kStates; ++i)
    parentsKept = parentsKept && store.parent(i) == (i == 0 ? StateStore::kNoParent : i / 2);
  CHECK(parentsKept);
  CHECK(store.size() == kStates);
}

TEST_CASE("search: StateStore compares bytes exactly") {
  StateStore store;
  auto empty = store.insert(std::string_view(), StateStore::kNoParent);
  CHECK(empty.isNew);
  CHECK(store.get(empty.id).empty());
  CHECK_FALSE(store.insert(std::string_view(), 0).isNew);

  auto a = store.insert(std::string("ab", 2), empty.id);
  auto aNul = store.insert(std::string("ab\0", 3), a.id);  // a prefix is not equal
  auto nulA = store.insert(std::string("\0ab", 3), a.id);
  auto b = store.insert(std::string("ba", 2), a.id);  // same bytes, other order
  CHECK(a.isNew);
  CHECK(aNul.isNew);
  CHECK(nulA.isNew);
  CHECK(b.isNew);
  CHECK(store.size() == 5);
  CHECK(store.get(aNul.id) == std::string_view("ab\0", 3));
  CHECK(store.get(nulA.id) == std::string_view("\0ab", 3));
  // A copy in another buffer is the same state.
  std::string copy = "ab";
  auto again = store.insert(copy, 99);
  CHECK_FALSE(again.isNew);
  CHECK(again.id == a.id);
  CHECK(store.parent(a.id) == empty.id);
}

TEST_CASE("search: StateStore holds large states across arena chunks") {
  StateStore store;
  std::vector<std::string> big;
  for (uint32_t i = 0; i < 40; ++i) {
    std::string s(100000 + i * 997, static_cast<char>('a' + i % 26));
    s[i] = '#';
    big.push_back(std::move(s));
  }
  for (uint32_t i = 0; i < big.size(); ++i) {
    // Small states in between, so chunks hold a mix.
    CHECK(store.insert(bytesFor(i), StateStore::kNoParent).isNew);
    auto ins = store.insert(big[i], i);
    CHECK(ins.isNew);
    CHECK(ins.id == 2 * i + 1);
  }
  CHECK(store.size() == 80);
  CHECK(store.memoryBytes() >= 40 * 100000);
  for (uint32_t i = 0; i < big.size(); ++i) {
    CHECK(store.get(2 * i + 1) == big[i]);
    CHECK(store.get(2 * i) == bytesFor(i));
    CHECK(store.parent(2 * i + 1) == i);
  }
  for (uint32_t i = 0; i < big.size(); ++i) CHECK_FALSE(store.insert(big[i], 0).isNew);
  // One byte different is another state.
  std::string changed = big[3];
  changed.back() = '!';
  CHECK(store.insert(changed, 0).isNew);
}

TEST_CASE("search: StateCodec round-trips the states of the conformance models") {
  fs::path dir = fs::path(TANDEM_SHARED_DIR) / "conformance";
  size_t models = 0, states = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".tdm") continue;
    auto p = load(entry.path().string());
    CAPTURE(entry.path().string());
    if (p->isClosed()) {
      states += roundTrip(*p, {}, 300);
      ++models;
      continue;
    }
    // Open systems: each procedure explored from its `test` inputs, or from no inputs at all,
    // and each class from its constructor tests.
    for (ir::CfaId c = 0; c < p->cfas.size(); ++c) {
      const ir::Cfa& cfa = p->cfas[c];
      bool hasTest = false;
      for (const auto& t : p->tests) hasTest = hasTest || (!t.isState && t.cfa == c);
      bool noInputs = cfa.kind == ir::CfaKind::Proc && cfa.params.empty();
      for (auto g : p->globals) noInputs = noInputs && p->vars[g].init != nullptr;
      if (!hasTest && !noInputs) continue;
      search::GenericOptions go;
      go.entry = c;
      go.entryHasNoInputs = !hasTest;
      states += roundTrip(*p, go, 300);
      ++models;
    }
  }
  CHECK(models >= 8);
  CHECK(states >= 500);
}

TEST_CASE("search: StateCodec round-trips calls, old, references, objects and big integers") {
  auto p = loadText(R"(
enum Mode { Idle, Busy }
var total: i64 = -3;
var small: i32 = -2147483647 - 1;
var huge: int = 123456789012345678901234567890;
var flags: bool[2] = [false, true];
var mode: Mode = Idle;
class Counter {
  var n: int;
  var hist: int[];
  init(k: int) {
    n := k;
    hist := new int[k];
    hist[1] := -k;
  }
}
proc bump(d: int): int {
  total := total + 1;
  assert total == old(total) + 1;
  return d + 1;
}
proc main() {
  var c: Counter = new Counter(2);
  var q: int = -5;
  var p: ref int = null;
  var b: bool;
  p := &q;
  *p := *p - 1;
  havoc b;
  mode := *;
  flags[1] := b;
  q := bump(q);
  huge := huge * huge;
  var d: Counter = null;
  d := new Counter(3);
}
)");
  search::GenericOptions go;
  go.entry = p->findCfaId("main", ir::CfaKind::Proc);
  go.entryHasNoInputs = true;
  size_t n = roundTrip(*p, go, 1000);
  CHECK(n >= 20);  // the choices of b and mode fan out
}

}  // namespace tandem
