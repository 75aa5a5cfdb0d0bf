#include "tests/conformance/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace tandem::conformance {

namespace {

using Clock = std::chrono::steady_clock;

// Beyond this, output is dropped: a runaway child must not exhaust the runner's memory.
constexpr size_t kMaxCapture = 64u << 20;

// Closes the descriptors it holds on every path out of runProcess.
struct Fds {
  int fd[4] = {-1, -1, -1, -1};
  ~Fds() {
    for (int f : fd) closeFd(f);
  }
  static void closeFd(int& f) {
    if (f >= 0) ::close(f);
    f = -1;
  }
};

std::string sysError(const char* what, int err) {
  return std::string(what) + ": " + std::strerror(err);
}

int msUntil(Clock::time_point deadline) {
  auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : left > 1'000'000 ? 1'000'000 : static_cast<int>(left);
}

// Reads what is available; false at end of file or on an error.
bool drain(int fd, std::string& into) {
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      if (into.size() < kMaxCapture) into.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN;
  }
}

}  // namespace

ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout) {
  ProcessResult r;
  Fds fds;  // out read, out write, err read, err write
  if (::pipe2(fds.fd, O_CLOEXEC) != 0 || ::pipe2(fds.fd + 2, O_CLOEXEC) != 0) {
    r.spawnError = sysError("pipe", errno);
    return r;
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds.fd[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds.fd[3], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);  // the child must not inherit an ignored SIGPIPE
  posix_spawnattr_setsigdefault(&attr, &defaults);

  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  pid_t pid = -1;
  int rc = posix_spawn(&pid, program.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  Fds::closeFd(fds.fd[1]);
  Fds::closeFd(fds.fd[3]);
  if (rc != 0) {
    r.spawnError = sysError(("cannot run " + program).c_str(), rc);
    return r;
  }

  auto start = Clock::now();
  auto deadline = start + timeout;
  fcntl(fds.fd[0], F_SETFL, O_NONBLOCK);
  fcntl(fds.fd[2], F_SETFL, O_NONBLOCK);
  pollfd polls[2] = {{fds.fd[0], POLLIN, 0}, {fds.fd[2], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  while (polls[0].fd >= 0 || polls[1].fd >= 0) {
    int wait = msUntil(deadline);
    if (wait == 0) {
      r.timedOut = true;
      break;
    }
    int n = ::poll(polls, 2, wait);
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < 2 && n > 0; ++i) {
      if (polls[i].fd >= 0 && polls[i].revents != 0 && !drain(polls[i].fd, *sinks[i])) {
        polls[i].fd = -1;  // poll skips negative descriptors
      }
    }
  }

  // Both streams are closed, but the child may still be running.
  int status = 0;
  bool reaped = false;
  while (!r.timedOut && !reaped) {
    pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      reaped = true;
    } else if (w < 0 && errno != EINTR) {
      r.spawnError = sysError("waitpid", errno);
      return r;
    } else if (msUntil(deadline) == 0) {
      r.timedOut = true;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  if (r.timedOut) {
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return r;  // neither an exit status nor a signal of its own
  }
  r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  if (WIFEXITED(status)) r.exitStatus = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace tandem::conformance
