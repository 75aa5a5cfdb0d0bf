// The table behind options.h: one row per option, each bound to the field of the request (or of
// cli::Output) that reads it. Parsing, help, --list-options and the test that walks every
// (command, option) pair all read it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mc/cli/invocation.h"

namespace tandem::cli {

enum class ValueKind : uint8_t {
  Flag,      // no value
  Text,      // any text (a file, a name, an expression)
  Count,     // an integer >= 1 (bounds)
  Natural,   // an integer >= 0 (seeds)
  Seconds,   // a number > 0
  Choice,    // one of `choices`
  List,      // comma-separated words; repeatable (lists append)
  Repeated,  // text; repeatable (each one is kept)
};

using CommandMask = uint32_t;
constexpr CommandMask bit(Command c) { return CommandMask{1} << static_cast<unsigned>(c); }

struct OptionSpec {
  std::string name;  // without the dashes
  char shortName = 0;
  ValueKind kind = ValueKind::Flag;
  std::string valueName;    // "N", "FILE", ... in help
  std::string defaultText;  // "(default=...)" in help; empty: none
  std::string help;
  CommandMask commands = 0;  // 0: global (--help, --version, ...)
  std::vector<std::string> choices;
  // Stores the (validated) value in the field that reads it; flags get "". Throws
  // report::CommandError (usage) when it conflicts with an option applied before, and
  // std::out_of_range when the number does not fit the field.
  std::function<void(Invocation&, const std::string&)> apply;
  // A command whose default differs (`prove --search` is bfs), and that default.
  std::optional<std::pair<Command, std::string>> defaultFor = std::nullopt;

  bool appliesTo(Command c) const { return commands & bit(c); }
};

const std::vector<OptionSpec>& optionTable();
const OptionSpec* findOption(const std::string& name);

}  // namespace tandem::cli
