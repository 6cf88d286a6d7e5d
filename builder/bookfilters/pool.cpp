// The pool of the book filters' Lua states (pool.hpp).
#include "bookfilters/pool.hpp"

#include <mutex>
#include <vector>

namespace bb::bookfilters {

namespace {

// The states not in use, for the whole process: a thread takes one for a chapter's run and gives it
// back. (Kept per thread before, they died with parallel_for's threads, which live for one loop: a
// site build of four editions opened 10 states and compiled the prelude 10 times.)
class Pool {
 public:
  std::unique_ptr<Pooled> take(const Program& program, const Limits& limits) {
    {
      std::lock_guard lock(mutex_);
      for (auto it = free_.begin(); it != free_.end(); ++it) {
        Pooled& p = **it;
        if (p.name == program.entry.name && p.code == program.code && p.limits == limits) {
          std::unique_ptr<Pooled> found = std::move(*it);
          free_.erase(it);
          return found;
        }
      }
    }
    auto p = std::make_unique<Pooled>();
    p->name = program.entry.name;
    p->code = program.code;
    p->limits = limits;
    p->sandbox = std::make_unique<Sandbox>(limits);
    return p;
  }
  void give(std::unique_ptr<Pooled> p) {
    std::lock_guard lock(mutex_);
    // A handful of filters per book, on a few threads; more than this only after filters were edited
    // (`--serve`): the oldest go.
    constexpr std::size_t kKept = 16;
    if (free_.size() >= kKept) free_.erase(free_.begin());
    free_.push_back(std::move(p));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<Pooled>> free_;
};

Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: a thread may still give a state back at exit
  return *p;
}

}  // namespace

Lease::Lease(const Program& program, const Limits& limits) : pooled(pool().take(program, limits)) {}

Lease::~Lease() {
  pool().give(std::move(pooled));
}

}  // namespace bb::bookfilters
