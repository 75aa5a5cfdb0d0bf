#include "mc/cli/check_setup.h"

#include <ostream>

#include "mc/exec/plugin_loader.h"

namespace tandem::cli {

std::optional<std::array<bool, ir::kErrorKinds>> trackedKinds(const Options& o, std::ostream& err) {
  std::array<bool, ir::kErrorKinds> t{};
  if (o.checkKinds.empty()) {
    t.fill(true);
    return t;
  }
  for (const auto& k : o.checkKinds) {
    auto kind = ir::parseErrorKind(k);
    if (!kind) {
      err << "tandem: error: unknown error kind '" << k
          << "' in --check (kinds: assert, invariant, index-out-of-bounds, null-deref, "
             "div-by-zero, negative-size)\n";
      return std::nullopt;
    }
    t[static_cast<size_t>(*kind)] = true;
  }
  return t;
}

bool checkNatives(const ir::Program& p, const exec::NativeRegistry& natives, std::ostream& err) {
  auto problems = natives.checkBindings(p);
  for (const auto& m : problems) err << p.file << ": error: " << m << '\n';
  return problems.empty();
}

bool loadNativePlugins(const Options& o, exec::NativeRegistry& natives, std::ostream& err) {
  for (const auto& path : o.natives) {
    exec::PluginLoad load = exec::loadPlugin(path, natives);
    if (!load.ok()) {
      err << "tandem: error: " << load.error << '\n';
      return false;
    }
  }
  return true;
}

}  // namespace tandem::cli
