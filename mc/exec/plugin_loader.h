// Loads native plugins: shared libraries implementing the C ABI of include/tandem/native_plugin.h
// (`--natives LIB.so`), whose natives join a NativeRegistry.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mc/exec/natives.h"

namespace tandem::exec {

struct DlCloser {
  void operator()(void* handle) const noexcept;
};
using LibraryHandle = std::unique_ptr<void, DlCloser>;

// One loaded plugin; closing the handle unloads its code. Every registry entry of the plugin holds
// a shared_ptr to it, so the code stays mapped while any entry (or a copy of its NativeImpl) can
// still be called, however long the caller of loadPlugin keeps the result.
class PluginLibrary {
 public:
  PluginLibrary(std::string path, LibraryHandle handle)
      : path_(std::move(path)), handle_(std::move(handle)) {}

  const std::string& path() const { return path_; }
  // The address of an exported symbol, or null.
  void* symbol(const char* name) const;

 private:
  std::string path_;
  LibraryHandle handle_;
};

struct PluginLoad {
  std::shared_ptr<const PluginLibrary> library;  // null when the load failed
  std::vector<std::string> natives;              // the names it registered, in its order
  std::string error;                             // why it failed, naming the path

  bool ok() const { return library != nullptr; }
};

// Opens the plugin at `path` (a file path; a bare name is looked up in the current directory, not
// in the library search path), checks its ABI version and adds its natives to `registry`,
// replacing entries of the same name. On failure the registry is unchanged.
PluginLoad loadPlugin(const std::string& path, NativeRegistry& registry);

}  // namespace tandem::exec
