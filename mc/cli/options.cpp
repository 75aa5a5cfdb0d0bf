#include "mc/cli/options.h"

#include "mc/expr/enum_names.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "mc/cli/option_table.h"

namespace tandem::cli {

namespace {
constexpr EnumName<Command> kCommandNames[] = {
    {Command::Check, "check"}, {Command::Prove, "prove"},  {Command::Testgen, "testgen"},
    {Command::Run, "run"},     {Command::Ir, "ir"},        {Command::ExportChc, "export-chc"},
    {Command::Cover, "cover"}, {Command::Replay, "replay"}};
}  // namespace

const char* commandName(Command c) { return enumName(kCommandNames, c, "check"); }

const std::vector<Command>& allCommands() {
  static const std::vector<Command> kAll = {Command::Check, Command::Cover,  Command::ExportChc,
                                            Command::Ir,    Command::Prove,  Command::Replay,
                                            Command::Run,   Command::Testgen};
  return kAll;
}

std::optional<Command> parseCommand(const std::string& name) {
  return enumFromName(kCommandNames, name);
}

AnyRequest requestFor(Command c) {
  switch (c) {
    case Command::Check:
      return engine::CheckRequest{};
    case Command::Prove:
      return engine::ProveRequest{};
    case Command::Testgen:
      return engine::TestgenRequest{};
    case Command::Run:
      return engine::RunRequest{};
    case Command::Ir:
      return engine::IrRequest{};
    case Command::ExportChc:
      return engine::ExportChcRequest{};
    case Command::Cover:
      return engine::CoverRequest{};
    case Command::Replay:
      return engine::ReplayRequest{};
  }
  return engine::CheckRequest{};
}

bool Invocation::wasGiven(const std::string& name) const {
  return std::find(given.begin(), given.end(), name) != given.end();
}

engine::Request& Invocation::common() {
  return std::visit([](auto& r) -> engine::Request& { return r; }, request);
}
const engine::Request& Invocation::common() const {
  return std::visit([](const auto& r) -> const engine::Request& { return r; }, request);
}

namespace {

namespace {
constexpr EnumName<Command> kCommandSummarys[] = {
    {Command::Check, "explicit/symbolic state exploration: verified or error"},
    {Command::Prove, "abstraction fabrication: proved, error or potential-error"},
    {Command::Testgen, "test generation by symbolic execution"},
    {Command::Run, "one concrete execution, step by step"},
    {Command::Ir, "parse, check and print the control-flow IR"},
    {Command::ExportChc, "write Horn clauses (SMT-LIB2; a CHC solver says sat iff safe)"},
    {Command::Cover, "bounded infeasible code detection: path or statement cover of an unwinding"},
    {Command::Replay, "re-execute the counterexample of a saved --json report (as spin -t)"}};
}  // namespace

const char* commandSummary(Command c) { return enumName(kCommandSummarys, c, ""); }

std::string appliesText(const OptionSpec& s) {
  std::string out;
  for (Command c : allCommands())
    if (s.appliesTo(c)) out += (out.empty() ? "" : ",") + std::string(commandName(c));
  return out;
}

// One option in help: its flags, then its text wrapped at 100 columns under column 32.
// `command`: the help of one command (its own default); none: the global help (every default).
void describe(std::ostream& os, const OptionSpec& s, std::optional<Command> command) {
  const bool withCommands = !command;
  std::string head = "  --" + s.name;
  if (s.shortName) head = "  -" + std::string(1, s.shortName) + ", --" + s.name;
  if (s.kind != ValueKind::Flag) head += " " + s.valueName;
  std::string text = s.help;
  if (s.kind == ValueKind::Choice) {
    text += " (";
    for (size_t i = 0; i < s.choices.size(); ++i) text += (i ? "|" : "") + s.choices[i];
    text += ")";
  }
  if (s.defaultFor && command == s.defaultFor->first) {
    text += " (default=" + s.defaultFor->second + ")";
  } else if (!s.defaultText.empty()) {
    text += " (default=" + s.defaultText;
    if (s.defaultFor && !command)
      text += "; " + std::string(commandName(s.defaultFor->first)) + ": " + s.defaultFor->second;
    text += ")";
  }
  if (withCommands && s.commands) text += " [" + appliesText(s) + "]";
  constexpr size_t kColumn = 32, kWidth = 100;
  os << head;
  size_t at = head.size();
  if (at + 2 > kColumn) {
    os << "\n";
    at = 0;
  }
  os << std::string(kColumn - at, ' ');
  at = kColumn;
  std::istringstream words(text);
  bool first = true;
  for (std::string w; words >> w; first = false) {
    if (!first && at + 1 + w.size() > kWidth) {
      os << "\n" << std::string(kColumn, ' ');
      at = kColumn;
    } else if (!first) {
      os << ' ';
      ++at;
    }
    os << w;
    at += w.size();
  }
  os << "\n";
}

std::string globalHelp() {
  std::ostringstream os;
  os << "usage: tandem COMMAND FILE [OPTIONS]\n       tandem COMMAND --help\n\ncommands:\n";
  for (Command c : {Command::Check, Command::Prove, Command::Testgen, Command::Cover, Command::Run,
                    Command::Replay, Command::Ir, Command::ExportChc}) {
    std::string name =
        std::string(commandName(c)) + (c == Command::Replay ? " FILE REPORT" : " FILE");
    os << "  " << name << std::string(name.size() < 18 ? 18 - name.size() : 1, ' ')
       << commandSummary(c) << "\n";
  }
  os << "\noptions (the commands each applies to in brackets):\n";
  for (const OptionSpec& s : optionTable()) describe(os, s, std::nullopt);
  os << "\nexit status: 0 verified/proved/completed, 1 error, 3 potential-error, 4 unknown (a "
        "bound, an\ninterrupt or a solver unknown), 2 bad usage or input\n";
  return os.str();
}

std::string commandHelp(Command c) {
  std::ostringstream os;
  os << "usage: tandem " << commandName(c) << (c == Command::Replay ? " FILE REPORT.json" : " FILE")
     << " [OPTIONS]\n\n"
     << commandName(c) << ": " << commandSummary(c) << "\n\noptions:\n";
  for (const OptionSpec& s : optionTable())
    if (s.appliesTo(c) || s.name == "help") describe(os, s, c);
  return os.str();
}

bool allDigits(const std::string& v) {
  return !v.empty() &&
         std::all_of(v.begin(), v.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

// Empty when `value` is valid for `s`; otherwise the message.
std::string validate(const OptionSpec& s, const std::string& value) {
  const std::string flag = "--" + s.name;
  switch (s.kind) {
    case ValueKind::Flag:
    case ValueKind::Text:
    case ValueKind::Repeated:
      return value.empty() && s.kind != ValueKind::Flag ? flag + " needs a value" : "";
    case ValueKind::Count:
    case ValueKind::Natural: {
      const bool ok = allDigits(value) && value.size() <= 19 &&
                      (s.kind == ValueKind::Natural || std::stoull(value) > 0);
      if (ok) return "";
      return flag + " must be a " + (s.kind == ValueKind::Count ? "positive" : "non-negative") +
             " integer, not '" + value + "'";
    }
    case ValueKind::Seconds: {
      size_t used = 0;
      double d = 0;
      try {
        d = std::stod(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == value.size() && used > 0 && d > 0 && d < 1e9) return "";
      return flag + " must be a positive number of seconds, not '" + value + "'";
    }
    case ValueKind::Choice: {
      if (std::find(s.choices.begin(), s.choices.end(), value) != s.choices.end()) return "";
      std::string all;
      for (size_t i = 0; i < s.choices.size(); ++i)
        all += (i ? (i + 1 == s.choices.size() ? " or " : ", ") : "") + s.choices[i];
      return flag + " must be " + all + ", not '" + value + "'";
    }
    case ValueKind::List:
      return value.empty() ? flag + " needs a value" : "";
  }
  return "";
}

std::vector<std::string> splitCommas(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

bool repeatable(ValueKind k) { return k == ValueKind::List || k == ValueKind::Repeated; }

}  // namespace

std::string listOptions() {
  std::ostringstream os;
  for (const OptionSpec& s : optionTable())
    if (s.commands) os << "--" << s.name << " " << appliesText(s) << "\n";
  return os.str();
}

ParseResult parseOptions(int argc, const char* const* argv) {
  ParseResult r;
  std::vector<std::string> given;
  auto fail = [&](std::string msg) {
    r.status = ParseStatus::Error;
    r.message = std::move(msg);
    return r;
  };
  std::vector<std::string> positional;
  std::vector<std::pair<const OptionSpec*, std::string>> values;  // in order
  bool help = false, version = false, listCommands = false, listOpts = false, endOfOptions = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (endOfOptions || arg.size() < 2 || arg[0] != '-') {
      positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      endOfOptions = true;
      continue;
    }
    std::string name, value;
    bool inlineValue = false;
    if (arg.rfind("--", 0) == 0) {
      name = arg.substr(2);
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        inlineValue = true;
      }
    } else if (arg.size() == 2) {
      name = arg.substr(1);
    } else {
      return fail("unknown option '" + arg + "'");
    }
    const OptionSpec* spec = findOption(name);
    if (!spec || (name.size() == 1 && arg.rfind("--", 0) == 0))
      return fail("unknown option '" + arg + "' (tandem --help lists the options)");
    if (spec->kind == ValueKind::Flag) {
      if (inlineValue) return fail("--" + spec->name + " takes no value");
    } else if (!inlineValue) {
      if (i + 1 >= argc)
        return fail("--" + spec->name + " needs a value (" + spec->valueName + ")");
      value = argv[++i];
    }
    if (spec->name == "help") help = true;
    if (spec->name == "version") version = true;
    if (spec->name == "list-commands") listCommands = true;
    if (spec->name == "list-options") listOpts = true;
    if (!spec->commands) continue;
    if (!repeatable(spec->kind) && std::find(given.begin(), given.end(), spec->name) != given.end())
      return fail("--" + spec->name + " is given twice");
    if (std::string why = validate(*spec, value); !why.empty()) return fail(why);
    given.push_back(spec->name);
    values.emplace_back(spec, value);
  }
  if (!positional.empty()) r.command = positional[0];
  if (positional.size() > 1) r.file = positional[1];
  // (A plain Command and a flag: g++ 12 warns that an optional<Command> may be uninitialised.)
  Command command = Command::Check;
  bool known = false;
  if (!positional.empty())
    for (Command c : allCommands())
      if (positional[0] == commandName(c)) command = c, known = true;
  if (help) {
    r.status = ParseStatus::Help;
    r.message = known ? commandHelp(command) : globalHelp();
    return r;
  }
  if (version) {
    r.status = ParseStatus::Version;
    return r;
  }
  if (listCommands || listOpts) {
    r.status = listCommands ? ParseStatus::ListCommands : ParseStatus::ListOptions;
    return r;
  }
  if (positional.empty()) return fail("missing COMMAND");
  if (!known) return fail("unknown command '" + positional[0] + "'");
  Invocation& o = r.invocation = Invocation(command);
  o.given = std::move(given);
  if (positional.size() < 2) return fail("missing FILE after '" + positional[0] + "'");
  const size_t files = command == Command::Replay ? 3 : 2;
  if (positional.size() < files)
    return fail("missing REPORT.json after FILE (tandem replay FILE REPORT.json)");
  if (positional.size() > files) return fail("unexpected argument '" + positional[files] + "'");
  o.common().file = positional[1];
  if (command == Command::Replay) o.as<engine::ReplayRequest>().reportFile = positional[2];
  for (const auto& [spec, value] : values) {
    if (!spec->appliesTo(o.command))
      return fail("--" + spec->name + " does not apply to '" + commandName(o.command) +
                  "' (it applies to " + appliesText(*spec) + ")");
    try {
      if (spec->kind == ValueKind::List) {
        for (const std::string& part : splitCommas(value)) {
          if (part.empty())
            return fail("--" + spec->name + " has an empty item in '" + value + "'");
          spec->apply(o, part);
        }
      } else {
        spec->apply(o, value);
      }
    } catch (const report::CommandError& e) {
      return fail(e.diagnostics().empty() ? e.text() : e.diagnostics().front().message);
    } catch (const std::out_of_range&) {
      return fail("--" + spec->name + " " + value + " is too large");
    }
  }
  return r;
}

}  // namespace tandem::cli
