// The budget of a run, and a budget inside it (prove's triage): the inner one's caps end only the
// inner work; the outer one's bounds end both, with the outer's reason.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "mc/search/driver/budget.h"

using namespace tandem;

TEST_CASE("budget: an inner budget's own state cap stops it, not the run") {
  search::Limits run;
  run.maxStates = 100;
  search::Budget outer(run);
  search::Limits caps;
  caps.maxStates = 10;
  search::Budget inner(caps, outer);
  for (int i = 0; i < 9; ++i) CHECK_FALSE(inner.chargeState());
  CHECK(inner.chargeState());
  REQUIRE(inner.stopped());
  CHECK(inner.stopped()->reason == "state bound (10)");
  CHECK_FALSE(outer.stopped());
  CHECK(outer.statesCharged() == 10);  // the run counts the inner work's states too
}

TEST_CASE("budget: the run's state bound stops an inner budget with the run's reason") {
  search::Limits run;
  run.maxStates = 5;
  search::Budget outer(run);
  CHECK_FALSE(outer.chargeState(3));
  search::Limits caps;
  caps.maxStates = 1000;
  search::Budget inner(caps, outer);
  CHECK_FALSE(inner.chargeState());
  CHECK(inner.chargeState());
  REQUIRE(outer.stopped());
  REQUIRE(inner.stopped());
  CHECK(inner.stopped()->reason == "state bound (5)");
  CHECK(inner.statesExhausted());
}

TEST_CASE("budget: the run's deadline and interrupt reach an inner budget") {
  std::atomic<bool> interrupt{false};
  search::Limits run;
  run.timeoutSeconds = 0.01;
  search::Budget outer(run, &interrupt);
  search::Limits caps;
  caps.timeoutSeconds = 100;
  search::Budget inner(caps, outer);
  REQUIRE(inner.deadline());
  CHECK(*inner.deadline() == *outer.deadline());  // the earlier of the two
  CHECK(inner.interruptFlag() == &interrupt);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(inner.pollNow());
  REQUIRE(inner.stopped());
  CHECK(inner.stopped()->kind == search::StopKind::Timeout);
  CHECK(inner.stopped()->reason == "timeout (0.01 s)");
  CHECK(outer.stopped());

  std::atomic<bool> flag{false};
  search::Budget run2({}, &flag);
  search::Budget inner2({}, run2);
  CHECK_FALSE(inner2.poll());
  flag = true;
  CHECK(inner2.poll());
  CHECK(inner2.stopped()->reason == "interrupted");
}
