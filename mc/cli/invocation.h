// What one command line asks for: the command, the engine's request for it (engine/request.h,
// filled by the option table straight into its fields) and what the CLI itself does with the
// report (its form, the extra files, the verdicts that fail).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/request.h"
#include "report/report.h"
#include "report/text.h"

namespace tandem::cli {

enum class Command : uint8_t { Check, Prove, Testgen, Run, Ir, ExportChc, Cover, Replay };
const char* commandName(Command c);
std::optional<Command> parseCommand(const std::string& name);
const std::vector<Command>& allCommands();  // the implemented commands

// The report's form and destinations: read by the CLI, not by an engine.
struct Output {
  bool json = false;                    // --json: the JSON report on stdout
  bool progress = false;                // --progress: the progress line even off a terminal
  report::TextOptions text;             // --trace, --trace-format, --stats
  std::string sarif, junit;             // --sarif FILE, --junit FILE
  std::vector<report::Verdict> failOn;  // --fail-on: verdicts that exit 1 as errors do
  // --format chc-comp: only the answer CHC-COMP reads (sat, unsat or unknown) on stdout.
  bool chcComp = false;
};

using AnyRequest = std::variant<engine::CheckRequest, engine::ProveRequest, engine::TestgenRequest,
                                engine::RunRequest, engine::IrRequest, engine::ExportChcRequest,
                                engine::CoverRequest, engine::ReplayRequest>;

// The request type of each command (in the order of Command).
AnyRequest requestFor(Command c);

struct Invocation {
  Command command = Command::Check;
  AnyRequest request;
  Output output;
  std::vector<std::string> given;  // the options on the command line, by name

  Invocation() = default;
  explicit Invocation(Command c) : command(c), request(requestFor(c)) {}
  bool wasGiven(const std::string& name) const;
  engine::Request& common();
  const engine::Request& common() const;
  // The request of this command (std::bad_variant_access when it is another's).
  template <typename R>
  R& as() {
    return std::get<R>(request);
  }
};

}  // namespace tandem::cli
