#include "mc/smt/bounded_worker.h"

#include <pthread.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

namespace tandem::smt {

namespace {

// How long each side spins before it sleeps on its condition variable. Tandem's engines send
// calls back to back (an add, a push, a check, a pop per query): sleeping at every hand-off made
// `prove bench/models/bakery3.tdm` (11,281 queries) take 10.1 s instead of 4.6 s. Spinning keeps
// both threads awake across a run of calls, for a few microseconds of CPU per call.
constexpr std::chrono::microseconds kSpin{200};

template <typename Ready>
bool spinUntil(Ready ready) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  do {
    for (int i = 0; i < 64; ++i)
      if (ready()) return true;
  } while (std::chrono::steady_clock::now() < until);
  return false;
}

}  // namespace

// Shared by the caller and the thread: an abandoned thread keeps it alive. `hasJob` and
// `finished` change under `mu` (for the condition variables) and are read without it to spin.
struct BoundedWorker::Shared {
  std::mutex mu;
  std::condition_variable wake;  // the thread waits for a job or quit
  std::condition_variable done;  // the caller waits for the job's end
  std::function<void()> job;
  std::atomic<bool> hasJob{false}, finished{false};
  bool quit = false;
  std::exception_ptr error;
  std::shared_ptr<void> adopted;  // freed by the thread when it leaves
};

BoundedWorker::BoundedWorker(std::function<void()> interrupt, Placement placement)
    : interrupt_(std::move(interrupt)),
      placement_(placement),
      shared_(std::make_shared<Shared>()) {}

BoundedWorker::~BoundedWorker() {
  {
    std::lock_guard<std::mutex> lock(shared_->mu);
    shared_->quit = true;
  }
  shared_->wake.notify_all();
}

void BoundedWorker::start() {
  // Detached from the start: the thread ends on `quit`, and owns its share of the state, so an
  // abandoned one needs nothing from this object.
  auto loop = [s = shared_] {
    std::unique_lock<std::mutex> lock(s->mu);
    for (;;) {
      if (!s->hasJob && !s->quit) {  // the next call usually follows at once
        lock.unlock();
        spinUntil([&] { return s->hasJob.load(std::memory_order_acquire); });
        lock.lock();
      }
      s->wake.wait(lock, [&] { return s->quit || s->hasJob; });
      if (s->hasJob) {
        std::function<void()> job = std::move(s->job);
        s->hasJob = false;
        lock.unlock();
        std::exception_ptr error;
        try {
          job();
        } catch (...) {
          error = std::current_exception();
        }
        job = nullptr;  // what it holds goes before the caller may touch the back end again
        lock.lock();
        s->error = error;
        s->finished = true;
        s->done.notify_all();
        continue;
      }
      // quit: what was adopted is freed outside the lock.
      std::shared_ptr<void> adopted = std::move(s->adopted);
      lock.unlock();
      return;
    }
  };
  if (placement_ == Placement::Any) {
    std::thread(std::move(loop)).detach();
    return;
  }
  // A pinned thread runs what the command thread ran before (deep translations): the same
  // reserved stack, touched only as deep as a walk goes.
  constexpr size_t kStackBytes = size_t{4} << 30;
  using Loop = decltype(loop);
  auto* arg = new Loop(std::move(loop));
  pthread_attr_t attr;
  pthread_t thread;
  const bool made = pthread_attr_init(&attr) == 0 &&
                    pthread_attr_setstacksize(&attr, kStackBytes) == 0 &&
                    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
                    pthread_create(
                        &thread, &attr,
                        [](void* p) -> void* {
                          std::unique_ptr<Loop> body(static_cast<Loop*>(p));
                          (*body)();
                          return nullptr;
                        },
                        arg) == 0;
  pthread_attr_destroy(&attr);
  if (made) return;
  std::unique_ptr<Loop> body(arg);  // no room for that stack: a thread as any other
  std::thread(std::move(*body)).detach();
}

BoundedWorker::Outcome BoundedWorker::run(std::function<void()> job, const Limits& limits) {
  if (abandoned_) return Outcome::Abandoned;
  if (!limits.any() && placement_ == Placement::Any) {
    job();
    return Outcome::Returned;
  }
  if (!started_) {
    start();
    started_ = true;
  }
  Shared& s = *shared_;
  std::unique_lock<std::mutex> lock(s.mu);
  s.job = std::move(job);
  s.hasJob = true;
  s.finished = false;
  s.error = nullptr;
  s.wake.notify_one();
  lock.unlock();
  spinUntil([&] { return s.finished.load(std::memory_order_acquire); });
  lock.lock();
  bool interrupted = false;
  // An interrupt is sent again every kRepeat until the job returns: one that arrives before the
  // back end starts its step is lost (Z3 4.8.12 clears it when a check starts), and the unit
  // suite's 2 s per-query limit once waited 14 minutes on a loaded machine.
  constexpr auto kRepeat = std::chrono::milliseconds(20);
  Clock::time_point nextInterrupt{};
  std::optional<Clock::time_point> giveUp;  // set once the run has stopped
  const auto far = Clock::now() + std::chrono::hours(24 * 365);
  for (;;) {
    auto wake = far;
    if (interrupted) wake = nextInterrupt;
    if (giveUp) {
      wake = std::min(wake, *giveUp);
    } else {
      if (limits.callDeadline && !interrupted) wake = std::min(wake, *limits.callDeadline);
      if (limits.runDeadline) wake = std::min(wake, *limits.runDeadline);
      // 5 ms: a back end can allocate tens of MB between two looks at the memory limit.
      if (limits.stop) wake = std::min(wake, Clock::now() + std::chrono::milliseconds(5));
    }
    if (s.done.wait_until(lock, wake, [&] { return s.finished.load(); })) break;
    const auto now = Clock::now();
    if (interrupted && now >= nextInterrupt) {
      interrupt_();
      nextInterrupt = now + kRepeat;
    }
    if (giveUp) {
      if (now < *giveUp) continue;
      if (limits.gate && !limits.gate->abandon()) {  // outside its open part: wait for it
        giveUp = now + std::chrono::milliseconds(5);
        continue;
      }
      abandoned_ = true;
      return Outcome::Abandoned;
    }
    const bool runStopped =
        (limits.runDeadline && now >= *limits.runDeadline) || (limits.stop && limits.stop());
    if (runStopped) giveUp = now + kGrace;
    if (!interrupted && (runStopped || (limits.callDeadline && now >= *limits.callDeadline))) {
      interrupt_();
      interrupted = true;
      nextInterrupt = now + kRepeat;
    }
  }
  if (s.error) std::rethrow_exception(std::exchange(s.error, nullptr));
  return interrupted ? Outcome::Interrupted : Outcome::Returned;
}

void BoundedWorker::adopt(std::shared_ptr<void> owned) {
  std::lock_guard<std::mutex> lock(shared_->mu);
  if (shared_->finished && placement_ == Placement::Any) {
    // The job has returned: nothing runs in the back end. Freed when `owned` goes, after the
    // lock (declared before it).
    return;
  }
  shared_->adopted = std::move(owned);
}

}  // namespace tandem::smt
