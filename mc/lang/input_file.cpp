#include "mc/lang/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tandem {

namespace {

// Closes the descriptor on every way out.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string tooLarge(uint64_t maxBytes) {
  return "is larger than " + std::to_string(maxBytes >> 20) + " MiB, the limit for input files";
}

}  // namespace

std::optional<std::string> readInputFile(const std::string& path, std::string& error,
                                         uint64_t maxBytes) {
  // O_NONBLOCK: opening a FIFO for reading would wait for a writer.
  Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) {
    error = std::string("cannot open file: ") + std::strerror(errno);
    return std::nullopt;
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    error = std::string("cannot open file: ") + std::strerror(errno);
    return std::nullopt;
  }
  if (S_ISDIR(st.st_mode)) {
    error = "is a directory, not a regular file";
    return std::nullopt;
  }
  if (!S_ISREG(st.st_mode)) {
    // A device that ends at once (/dev/null, `--predicates /dev/null` for none) reads as empty;
    // one with bytes (/dev/zero), a FIFO or a socket does not: either may never end.
    char byte;
    if (S_ISCHR(st.st_mode) && ::read(fd.get(), &byte, 1) == 0) return std::string();
    error = "is not a regular file (a device, FIFO or socket cannot be read as input)";
    return std::nullopt;
  }
  if (static_cast<uint64_t>(st.st_size) > maxBytes) {
    error = tooLarge(maxBytes);
    return std::nullopt;
  }
  std::string text;
  text.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  while (true) {  // to the end, not to st_size: the file may grow meanwhile, up to the limit
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = std::string("cannot read file: ") + std::strerror(errno);
      return std::nullopt;
    }
    if (n == 0) break;
    if (text.size() + static_cast<size_t>(n) > maxBytes) {
      error = tooLarge(maxBytes);
      return std::nullopt;
    }
    text.append(buf, static_cast<size_t>(n));
  }
  return text;
}

}  // namespace tandem
