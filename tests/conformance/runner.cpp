#include "tests/conformance/runner.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "tests/conformance/text.h"

namespace tandem::conformance {

namespace {

constexpr std::string_view kNotImplemented = "not implemented yet";
constexpr size_t kExcerpt = 500;

std::string firstLineWith(std::string_view text, std::string_view phrase) {
  for (std::string_view line : split(text, '\n')) {
    if (line.find(phrase) != std::string_view::npos) return std::string(trim(line));
  }
  return "";
}

std::string outputExcerpts(const ProcessResult& proc) {
  return "stdout: " + excerpt(trim(proc.out), kExcerpt) +
         "\nstderr: " + excerpt(trim(proc.err), kExcerpt);
}

}  // namespace

CommandList listCommands(const std::string& tandem, std::chrono::milliseconds timeout) {
  CommandList list;
  ProcessResult r = runProcess(tandem, {"--list-commands"}, timeout);
  if (!r.spawnError.empty() || r.exitStatus != 0) {
    std::string why = !r.spawnError.empty() ? r.spawnError
                      : r.timedOut          ? "timed out"
                      : r.exitStatus >= 0   ? "exit status " + std::to_string(r.exitStatus)
                                            : "signal " + std::to_string(r.signal);
    list.warning = "`" + tandem + " --list-commands` failed (" + why +
                   "): no command is listed, so every RUN line of a CLI.md command is skipped";
    return list;
  }
  for (std::string_view line : split(r.out, '\n')) {
    if (!trim(line).empty()) list.names.emplace(trim(line));
  }
  ProcessResult opts = runProcess(tandem, {"--list-options"}, timeout);
  if (opts.spawnError.empty() && opts.exitStatus == 0) {
    for (std::string_view line : split(opts.out, '\n')) {
      std::vector<std::string_view> words = split(trim(line), ' ');
      if (words.size() != 2 || !words[0].starts_with("--")) continue;
      std::set<std::string>& cmds = list.options[std::string(words[0])];
      for (std::string_view c : split(words[1], ',')) cmds.emplace(c);
    }
  }
  return list;
}

namespace {

// "--name=value" -> "--name"; other words as they are.
std::string optionName(const std::string& word) { return word.substr(0, word.find('=')); }

// Option groups of an argument list: an option and the words after it that are not options.
std::vector<std::vector<std::string>> optionGroups(const std::vector<std::string>& args) {
  std::vector<std::vector<std::string>> groups;
  for (const std::string& a : args) {
    if (a.starts_with("-") || groups.empty())
      groups.push_back({a});
    else
      groups.back().push_back(a);
  }
  return groups;
}

bool applies(const CommandList& caps, const std::string& option, const std::string& command) {
  if (caps.options.empty()) return true;
  auto it = caps.options.find(option);
  return it != caps.options.end() && it->second.count(command);
}

}  // namespace

std::optional<std::string> skipForOptions(const RunLine& run, const CommandList& caps) {
  if (caps.options.empty()) return std::nullopt;
  for (const std::string& a : run.args) {
    if (!a.starts_with("--") || a == "--") continue;
    const std::string name = optionName(a);
    if (!caps.options.count(name) && name != "--help" && name != "--version" &&
        name != "--list-commands" && name != "--list-options")
      return "option '" + name + "' not listed by tandem --list-options";
  }
  return std::nullopt;
}

std::vector<std::string> argumentsFor(const RunLine& run, const RunnerConfig& config,
                                      const CommandList& caps) {
  std::vector<std::string> args = run.args;
  const std::string command = run.commandWord();
  std::set<std::string> own;
  for (const std::string& a : run.args)
    if (a.starts_with("--")) own.insert(optionName(a));
  for (const auto& group : optionGroups(config.extraArgs))
    if (applies(caps, optionName(group[0]), command))
      args.insert(args.end(), group.begin(), group.end());
  for (const auto& group : optionGroups(config.defaultArgs))
    if (!own.count(optionName(group[0])) && applies(caps, optionName(group[0]), command))
      args.insert(args.end(), group.begin(), group.end());
  return args;
}

bool isSpecCommand(const std::string& word) {
  static constexpr std::array<std::string_view, 7> kCommands = {
      "check", "prove", "testgen", "cover", "run", "ir", "export-chc"};
  return std::find(kCommands.begin(), kCommands.end(), word) != kCommands.end();
}

std::optional<std::string> skipBeforeRun(const RunLine& run,
                                         const std::set<std::string>& commands) {
  std::string word = run.commandWord();
  if (!isSpecCommand(word) || commands.count(word)) return std::nullopt;
  return "command '" + word + "' not listed by tandem --list-commands";
}

std::optional<std::string> skipAfterRun(const ProcessResult& proc) {
  if (proc.exitStatus != 2 || proc.err.find(kNotImplemented) == std::string::npos) {
    return std::nullopt;
  }
  return firstLineWith(proc.err, kNotImplemented);
}

RunResult evaluate(const RunLine& run, const ProcessResult& proc) {
  RunResult r;
  if (auto why = skipAfterRun(proc)) {
    r.outcome = Outcome::Skip;
    r.skipReason = *why;
    return r;
  }

  if (!proc.spawnError.empty()) {
    r.problems.push_back(proc.spawnError);
  } else if (proc.timedOut) {
    r.problems.push_back("timed out after " + std::to_string(proc.elapsed.count() / 1000) +
                         " s: killed");
  } else if (proc.signal != 0) {
    r.problems.push_back("killed by signal " + std::to_string(proc.signal) + " (" +
                         strsignal(proc.signal) + ")");
  }

  bool needsReport = std::any_of(run.expects.begin(), run.expects.end(),
                                 [](const Expectation& e) { return !e.isExit(); });
  std::optional<nlohmann::json> report;
  if (needsReport && proc.spawnError.empty() && !proc.timedOut) {
    try {
      report = nlohmann::json::parse(proc.out);
      if (!report->is_object()) {
        r.problems.push_back("stdout is JSON but not an object\n" + outputExcerpts(proc));
      }
    } catch (const nlohmann::json::parse_error& e) {
      report.reset();
      r.problems.push_back("stdout is not a JSON report (" + std::string(e.what()) + ")\n" +
                           outputExcerpts(proc));
    }
  }

  for (const Expectation& e : run.expects) {
    CheckOutcome c = e.isExit() ? checkExit(e, proc.exitStatus)
                     : report   ? checkReport(e, *report)
                                : CheckOutcome{false, e.text + ": not checked, no JSON report"};
    r.expects.push_back({e.text, c.passed, c.message});
  }

  bool allPassed = std::all_of(r.expects.begin(), r.expects.end(),
                               [](const ExpectResult& e) { return e.passed; });
  r.outcome = r.problems.empty() && allPassed ? Outcome::Pass : Outcome::Fail;
  // The report's reason (why `unknown`) and stderr usually say why a check failed.
  if (r.outcome == Outcome::Fail && report && report->is_object() && report->contains("reason") &&
      (*report)["reason"].is_string()) {
    r.problems.push_back("report reason: " + (*report)["reason"].get<std::string>());
  }
  bool shown = std::any_of(r.problems.begin(), r.problems.end(),
                           [](const std::string& p) { return p.find("\nstderr: ") != p.npos; });
  if (r.outcome == Outcome::Fail && !shown && !trim(proc.err).empty()) {
    r.problems.push_back("stderr: " + excerpt(trim(proc.err), kExcerpt));
  }
  return r;
}

RunResult checkRun(const RunLine& run, const RunnerConfig& config,
                   const std::set<std::string>& commands) {
  CommandList caps;
  caps.names = commands;
  return checkRun(run, config, caps);
}

RunResult checkRun(const RunLine& run, const RunnerConfig& config, const CommandList& caps) {
  if (!run.errors.empty()) {
    RunResult r;
    r.problems = run.errors;
    return r;
  }
  std::optional<std::string> why = skipBeforeRun(run, caps.names);
  if (!why) why = skipForOptions(run, caps);
  if (why) {
    RunResult r;
    r.outcome = Outcome::Skip;
    r.skipReason = *why;
    return r;
  }
  std::vector<std::string> args = argumentsFor(run, config, caps);
  ProcessResult proc = runProcess(config.tandem, args, config.timeout);
  RunResult r = evaluate(run, proc);
  if (!config.forbidStderr.empty() && proc.err.find(config.forbidStderr) != std::string::npos) {
    r.outcome = Outcome::Fail;
    r.problems.push_back("standard error contains '" + config.forbidStderr +
                         "': " + firstLineWith(proc.err, config.forbidStderr));
  }
  return r;
}

}  // namespace tandem::conformance
