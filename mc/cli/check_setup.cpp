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

std::optional<ir::CutpointMode> cutpointMode(const Options& o, std::ostream& err) {
  if (o.cutpoints == "loops") return ir::CutpointMode::Loops;
  if (o.cutpoints == "all") return ir::CutpointMode::All;
  err << "tandem: error: --cutpoints must be 'loops' or 'all', not '" << o.cutpoints << "'\n";
  return std::nullopt;
}

bool entryProcedure(const Options& o, const ir::Program& p, ir::CfaId& entry, std::ostream& err) {
  entry = ir::kNone;
  if (!o.entry.empty()) {
    entry = p.findCfaId(o.entry, ir::CfaKind::Proc);
    if (entry != ir::kNone) return true;
    err << "tandem: error: no procedure '" << o.entry << "' in " << o.file << "\n";
    return false;
  }
  if (p.isClosed()) return true;
  err << "tandem: error: " << o.file << " is an open system: give --entry PROC\n";
  return false;
}

}  // namespace tandem::cli
