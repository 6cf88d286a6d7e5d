// The book filters' Lua states, kept for the whole process (pool.cpp): a run over one chapter leases
// one, and gives it back when it ends.
#pragma once

#include <lua.hpp>
#include <memory>
#include <string>

#include "bookfilters/book_filters.hpp"
#include "bookfilters/elements.hpp"
#include "bookfilters/sandbox.hpp"

namespace bb::bookfilters {

// A filter's Lua state, kept from chapter to chapter: opening the libraries and compiling the prelude
// and the filter once instead of once per chapter was most of what the filters cost
// (docs/benchmarks.md, "Book filters"). Each chapter still runs the filter's chunk in a fresh global
// table, so a chapter sees nothing an earlier one left.
struct Pooled {
  std::string name, code;
  Limits limits;
  std::unique_ptr<Sandbox> sandbox;
  int prelude = LUA_NOREF;  // the compiled prelude, in the registry
  int chunk = LUA_NOREF;    // the compiled filter
  int text = LUA_NOREF;     // the plain text of an element whose contents were not read (install_lazy)
  int made = LUA_NOREF;     // the place of an element a constructor makes (install_made)
  Pushing pushing;          // what the elements pushed in this state stand for
};

// A state taken from the pool for one run (one found for the same filter and limits, or a new one),
// given back after it.
struct Lease {
  Lease(const Program& program, const Limits& limits);
  ~Lease();
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  std::unique_ptr<Pooled> pooled;
};

}  // namespace bb::bookfilters
