#include <sstream>

#include "report/formats.h"

namespace tandem::report {

namespace {

std::string xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

struct Case {
  std::string name, failure, skipped;
};

}  // namespace

std::string toJunit(const Report& r) {
  std::vector<Case> cases;
  if (r.tests && (r.command == "testgen" || r.command == "cover")) {
    const std::vector<TestRecord>& tests = r.tests->tests;
    for (size_t i = 0; i < tests.size(); ++i) {
      const TestRecord& t = tests[i];
      Case c{"test " + std::to_string(i) + " " + t.inputs.dump(), "", ""};
      if (t.error)
        c.failure = t.error->kind + " at line " + std::to_string(t.error->line);
      else if (t.result != "pass")
        c.skipped = "the run after the path could not be finished";
      cases.push_back(std::move(c));
    }
  }
  // The verdict itself: a case that fails on an error and is skipped when unknown.
  Case verdict{r.command + " " + r.file, "", ""};
  if (r.verdict == Verdict::Error || r.verdict == Verdict::PotentialError)
    verdict.failure = r.error ? r.error->kind + " at line " + std::to_string(r.error->line) + ": " +
                                    r.error->message
                              : verdictName(r.verdict);
  else if (r.verdict == Verdict::Unknown)
    verdict.skipped = r.reason.empty() ? "unknown" : r.reason;
  cases.push_back(std::move(verdict));

  size_t failures = 0, skipped = 0;
  for (const Case& c : cases) {
    failures += !c.failure.empty();
    skipped += !c.skipped.empty();
  }
  std::ostringstream o;
  const double seconds = r.stats.time_s.value_or(0.0);
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o << "<testsuites>\n";
  o << "  <testsuite name=\"" << xml("tandem " + r.command + " " + r.file) << "\" tests=\""
    << cases.size() << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"" << skipped
    << "\" time=\"" << seconds << "\">\n";
  for (const Case& c : cases) {
    o << "    <testcase classname=\"" << xml(r.file) << "\" name=\"" << xml(c.name) << "\"";
    if (c.failure.empty() && c.skipped.empty()) {
      o << "/>\n";
      continue;
    }
    o << ">\n";
    if (!c.failure.empty())
      o << "      <failure message=\"" << xml(c.failure) << "\">" << xml(c.failure)
        << "</failure>\n";
    if (!c.skipped.empty()) o << "      <skipped message=\"" << xml(c.skipped) << "\"/>\n";
    o << "    </testcase>\n";
  }
  o << "  </testsuite>\n</testsuites>\n";
  return o.str();
}

}  // namespace tandem::report
