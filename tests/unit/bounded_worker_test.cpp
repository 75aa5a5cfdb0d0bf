// The worker that lets a solver call be walked away from (bounded_worker.h): a per-call limit
// interrupts and waits, a stop of the run abandons a call that ignores its interrupt.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

#include "mc/smt/bounded_worker.h"

using tandem::smt::BoundedWorker;
using namespace std::chrono_literals;

namespace {

double secondsSince(BoundedWorker::Clock::time_point t) {
  return std::chrono::duration<double>(BoundedWorker::Clock::now() - t).count();
}

}  // namespace

TEST_CASE("bounded worker: a job that returns is waited for, its exception rethrown") {
  BoundedWorker w([] {});
  BoundedWorker::Limits l;
  l.stop = [] { return false; };
  int x = 0;
  CHECK(w.run([&] { x = 1; }, l) == BoundedWorker::Outcome::Returned);
  CHECK(x == 1);
  CHECK_THROWS_AS(w.run([] { throw std::runtime_error("no"); }, l), std::runtime_error);
  CHECK(w.run([&] { x = 2; }, l) == BoundedWorker::Outcome::Returned);
  CHECK(x == 2);
  // Without limits the job runs on the caller.
  const auto caller = std::this_thread::get_id();
  std::thread::id ran;
  CHECK(w.run([&] { ran = std::this_thread::get_id(); }, {}) == BoundedWorker::Outcome::Returned);
  CHECK(ran == caller);
}

TEST_CASE("bounded worker: a per-call limit interrupts and waits for the job") {
  auto flag = std::make_shared<std::atomic<bool>>(false);
  BoundedWorker w([flag] { flag->store(true); });
  BoundedWorker::Limits l;
  l.callDeadline = BoundedWorker::Clock::now() + 20ms;
  CHECK(w.run(
            [flag] {
              while (!flag->load()) std::this_thread::sleep_for(1ms);
              std::this_thread::sleep_for(500ms);  // past kGrace: a per-call limit waits on
            },
            l) == BoundedWorker::Outcome::Interrupted);
  CHECK_FALSE(w.abandoned());
}

TEST_CASE("bounded worker: a stop abandons a job that ignores its interrupt, within the grace") {
  for (bool byDeadline : {true, false}) {
    CAPTURE(byDeadline);
    auto release = std::make_shared<std::atomic<bool>>(false);
    auto owned = std::make_shared<int>(7);
    std::weak_ptr<int> watch = owned;
    {
      BoundedWorker w([] {});
      BoundedWorker::Limits l;
      const auto start = BoundedWorker::Clock::now();
      if (byDeadline)
        l.runDeadline = start + 50ms;
      else
        l.stop = [start] { return BoundedWorker::Clock::now() > start + 50ms; };
      // The job owns what it touches: it outlives the call.
      CHECK(w.run(
                [release] {
                  while (!release->load()) std::this_thread::sleep_for(1ms);
                },
                l) == BoundedWorker::Outcome::Abandoned);
      const double took = secondsSince(start);
      CHECK(took >= 0.3);
      CHECK(took < 1.0);
      CHECK(w.abandoned());
      CHECK(w.run([] { FAIL("an abandoned worker runs nothing more"); }, l) ==
            BoundedWorker::Outcome::Abandoned);
      w.adopt(std::move(owned));
    }
    CHECK_FALSE(watch.expired());  // the job still runs: what it may use stays
    release->store(true);
    for (int i = 0; i < 200 && !watch.expired(); ++i) std::this_thread::sleep_for(5ms);
    CHECK(watch.expired());  // freed by the thread once the job returned
  }
}

namespace {

// Records the thread that destroys it.
struct Witness {
  explicit Witness(std::shared_ptr<std::thread::id> on) : freedOn(std::move(on)) {}
  Witness(const Witness&) = delete;
  Witness& operator=(const Witness&) = delete;
  std::shared_ptr<std::thread::id> freedOn;
  ~Witness() { *freedOn = std::this_thread::get_id(); }
};

}  // namespace

TEST_CASE("bounded worker: a pinned worker runs every job on one thread of its own") {
  // cvc5 1.0.3's node manager is thread_local: its sessions must stay on one thread.
  const auto caller = std::this_thread::get_id();
  auto freedOn = std::make_shared<std::thread::id>();
  std::thread::id first, second;
  {
    BoundedWorker w([] {}, BoundedWorker::Placement::Pinned);
    CHECK(w.run([&] { first = std::this_thread::get_id(); }, {}) ==
          BoundedWorker::Outcome::Returned);
    BoundedWorker::Limits l;
    l.stop = [] { return false; };
    CHECK(w.run([&] { second = std::this_thread::get_id(); }, l) ==
          BoundedWorker::Outcome::Returned);
    CHECK_THROWS_AS(w.run([] { throw std::runtime_error("no"); }, {}), std::runtime_error);
    // What it adopts goes on its thread, even when no job is left running.
    w.adopt(std::make_shared<Witness>(freedOn));
  }
  CHECK(first != caller);
  CHECK(second == first);
  for (int i = 0; i < 200 && *freedOn == std::thread::id(); ++i) std::this_thread::sleep_for(5ms);
  CHECK(*freedOn == first);
}

TEST_CASE("bounded worker: an interrupt the job missed is sent again") {
  // Z3 4.8.12 clears an interrupt that arrives before its check starts: one interrupt was lost
  // and a 2 s per-query limit waited 14 minutes.
  auto count = std::make_shared<std::atomic<int>>(0);
  BoundedWorker w([count] { ++*count; });
  BoundedWorker::Limits l;
  const auto start = BoundedWorker::Clock::now();
  l.callDeadline = start + 10ms;
  CHECK(w.run(
            [count, start] {
              // Misses the first interrupt: returns on a later one (or gives up after 3 s).
              while (*count < 2 && secondsSince(start) < 3.0) std::this_thread::sleep_for(1ms);
            },
            l) == BoundedWorker::Outcome::Interrupted);
  CHECK(secondsSince(start) < 1.0);
  CHECK(*count >= 2);
}
