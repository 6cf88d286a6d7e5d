// Work spread over the machine's cores, for the stages that handle chapters, editions or figures
// independently of each other.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace bb {

// The machine's cores (at least 1), asked once per process: glibc's std::thread::hardware_concurrency
// opens and reads /sys/devices/system/cpu/online on every call (three system calls), and a run asked
// some sixteen times.
inline unsigned core_count() {
  static const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
  return cores;
}

// Runs f(0) … f(n-1), each once, on up to one thread per core, the calling thread among them; each
// worker takes the next index (a thread per item costs more than a small item, and thousands of them
// for a big book). Returns when every call has returned; the first exception a call threw is then
// rethrown, and the indices not yet taken by then are skipped.
template <typename F>
void parallel_for(std::size_t n, F&& f) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&] {
    for (std::size_t i; (i = next++) < n;) try {
        f(i);
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = n;
      }
  };
  const std::size_t workers = std::min<std::size_t>(core_count(), n);
  {
    std::vector<std::jthread> threads;
    for (std::size_t t = 1; t < workers; ++t) threads.emplace_back(work);
    work();
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace bb
