// parallel_for (diag/parallel.hpp): every index runs exactly once, on no more threads than cores,
// and a failure comes back to the caller instead of ending the process.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "diag/parallel.hpp"

namespace bb {
namespace {

TEST(ParallelFor, EveryIndexOnceOnTheMachinesCores) {
  constexpr std::size_t n = 5000;
  std::vector<std::atomic<int>> runs(n);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  parallel_for(n, [&](std::size_t i) {
    ++runs[i];
    std::lock_guard lock(mutex);
    threads.insert(std::this_thread::get_id());
  });
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(runs[i].load(), 1) << i;
  EXPECT_LE(threads.size(), std::max(1u, std::thread::hardware_concurrency()));
  parallel_for(0, [](std::size_t) { FAIL() << "no index to run"; });
}

// The other calls take a millisecond each, so that the rest of the 1,000 would take a second: the
// failure, thrown by the first call, stops the loop long before (with trivial calls, a worker could
// finish them all while the thrower was descheduled under load, and this failed once).
TEST(ParallelFor, TheFirstFailureIsRethrownAndTheRestSkipped) {
  constexpr std::size_t n = 1000;
  std::atomic<std::size_t> ran{0};
  EXPECT_THROW(parallel_for(n,
                            [&](std::size_t i) {
                              ++ran;
                              if (i == 0) throw std::runtime_error("chapter 0");
                              std::this_thread::sleep_for(std::chrono::milliseconds(1));
                            }),
               std::runtime_error);
  EXPECT_LT(ran.load(), n);
}

}  // namespace
}  // namespace bb
