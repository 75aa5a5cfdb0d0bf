#include "report/whole_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "report/report.h"

namespace tandem::report {

namespace {

// 4 MB between two polls: about a millisecond of writing.
constexpr size_t kChunk = size_t{4} << 20;

std::string errnoText() { return std::strerror(errno); }

// All of `text` to `fd`, polling between chunks; false when the budget stopped it.
bool writeChunks(int fd, const std::string& text, search::Budget& budget, const std::string& path) {
  for (size_t at = 0; at < text.size();) {
    if (budget.pollNow()) return false;
    const size_t n = std::min(kChunk, text.size() - at);
    const ssize_t w = ::write(fd, text.data() + at, n);
    if (w < 0) {
      if (errno == EINTR) continue;  // a signal: the poll above sees it
      throw inputError(path, "cannot write '" + path + "': " + errnoText());
    }
    at += static_cast<size_t>(w);
  }
  return true;
}

}  // namespace

WriteOutcome writeWhole(const std::string& path, const std::string& text, search::Budget& budget) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw inputError(path, "cannot write '" + path + "': " + errnoText());
    bool whole = false;
    try {
      whole = writeChunks(fd, text, budget, path);
    } catch (...) {
      ::close(fd);
      throw;
    }
    ::close(fd);
    return whole ? WriteOutcome::Written : WriteOutcome::Stopped;
  }
  // Beside the target, so that rename() replaces it in one step.
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string tmp = dir + "/." + base + ".tandem-XXXXXX";
  std::vector<char> name(tmp.begin(), tmp.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw inputError(path, "cannot write '" + path + "': " + errnoText());
  tmp = name.data();
  // mkstemp makes it private; the file gets the mode it had, or what the umask allows.
  mode_t mode = st.st_mode & 07777;
  if (!exists) {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  bool whole = false;
  try {
    whole = writeChunks(fd, text, budget, path);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  const bool modeSet = ::fchmod(fd, mode) == 0;
  const bool closed = ::close(fd) == 0;
  if (!whole || !modeSet || !closed || ::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = errnoText();
    ::unlink(tmp.c_str());
    if (!whole) return WriteOutcome::Stopped;
    throw inputError(path, "cannot write '" + path + "': " + why);
  }
  return WriteOutcome::Written;
}

}  // namespace tandem::report
