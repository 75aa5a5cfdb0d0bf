#include "tests/conformance/directives.h"

#include <fstream>
#include <sstream>

#include "tests/conformance/text.h"

namespace tandem::conformance {

namespace {

enum class DirectiveKind { None, Run, Expect };

// Recognises `// RUN: rest` and `// EXPECT: rest` at the start of a line (after indentation),
// and `; RUN: rest` (any number of `;`) in SMT-LIB files.
DirectiveKind directiveOf(std::string_view line, std::string_view& rest) {
  line = trim(line);
  if (line.starts_with("//")) {
    line.remove_prefix(2);
  } else if (line.starts_with(";")) {
    while (line.starts_with(";")) line.remove_prefix(1);
  } else {
    return DirectiveKind::None;
  }
  line = trim(line);
  DirectiveKind kind = DirectiveKind::None;
  if (line.starts_with("RUN")) {
    kind = DirectiveKind::Run;
    line.remove_prefix(3);
  } else if (line.starts_with("EXPECT")) {
    kind = DirectiveKind::Expect;
    line.remove_prefix(6);
  } else {
    return DirectiveKind::None;
  }
  line = trim(line);
  if (!line.starts_with(":")) return DirectiveKind::None;  // prose such as "// RUN lines ..."
  rest = trim(line.substr(1));
  return kind;
}

std::string replaceAll(std::string s, std::string_view from, std::string_view to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

std::string at(int line, const std::string& message) {
  return "line " + std::to_string(line) + ": " + message;
}

RunLine parseRun(std::string_view text, int line, const std::string& path) {
  RunLine run;
  run.line = line;
  run.text = std::string(text);
  SplitResult split = splitArgs(text);
  if (!split.error.empty()) {
    run.errors.push_back(at(line, "malformed RUN: " + split.error));
  } else if (split.words.empty() || split.words.front() != "tandem") {
    run.errors.push_back(at(line, "malformed RUN: it must start with 'tandem'"));
  } else if (split.words.size() == 1) {
    run.errors.push_back(at(line, "malformed RUN: no arguments after 'tandem'"));
  } else {
    for (size_t i = 1; i < split.words.size(); ++i) {
      run.args.push_back(replaceAll(split.words[i], "%s", path));
    }
  }
  return run;
}

}  // namespace

std::string RunLine::commandWord() const {
  if (args.empty() || args.front().starts_with("-")) return "";
  return args.front();
}

SplitResult splitArgs(std::string_view text) {
  SplitResult r;
  std::string word;
  bool inWord = false;  // so that "" makes an empty argument
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      inWord = true;
    } else if (c == ' ' || c == '\t') {
      if (inWord) r.words.push_back(std::move(word));
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) {
    r.error = std::string("unterminated ") + quote + " quote";
    r.words.clear();
  } else if (inWord) {
    r.words.push_back(std::move(word));
  }
  return r;
}

ParsedFile parseDirectives(std::string_view contents, const std::string& path) {
  ParsedFile file;
  file.path = path;
  int lineNo = 0;
  for (std::string_view line : split(contents, '\n')) {
    ++lineNo;
    std::string_view rest;
    switch (directiveOf(line, rest)) {
      case DirectiveKind::None:
        break;
      case DirectiveKind::Run:
        file.runs.push_back(parseRun(rest, lineNo, path));
        break;
      case DirectiveKind::Expect: {
        if (file.runs.empty()) {
          file.errors.push_back({lineNo, "EXPECT before any RUN line: it checks nothing"});
          break;
        }
        ParsedExpectation p = parseExpectation(rest);
        if (p.error.empty()) {
          file.runs.back().expects.push_back(std::move(p.expectation));
        } else {
          file.runs.back().errors.push_back(at(lineNo, p.error));
        }
        break;
      }
    }
  }
  for (RunLine& run : file.runs) {
    if (run.expects.empty() && run.errors.empty()) {
      run.errors.push_back(at(run.line, "RUN line without EXPECT lines: it checks nothing"));
    }
  }
  if (file.runs.empty() && file.errors.empty()) {
    file.errors.push_back({0, "no RUN line: a conformance file must check something"});
  }
  return file;
}

ParsedFile readDirectives(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream contents;
  if (in) contents << in.rdbuf();
  if (!in) {
    ParsedFile file;
    file.path = path;
    file.errors.push_back({0, "cannot read the file"});
    return file;
  }
  return parseDirectives(contents.str(), path);
}

}  // namespace tandem::conformance
