// Fuzz target: the highlight cache file (builder/highlight/cache.hpp). Any bytes as
// <out>/.cache/highlight.bin give a store, never a crash; what the store writes back reads back whole.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "highlight/cache.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using bb::highlight::cache::Store;
  // The stamp the seeds (fuzz/corpus/highlight_cache, from tests/fixtures/highlight) were written under.
  Store store("stamp 1", std::string_view(reinterpret_cast<const char*>(data), size));
  auto hit = store.find("python", "x = 1\n");
  if (hit && *hit) {
    std::size_t length = 0;
    for (const auto& t : **hit) length += t.text.size();
    bb::fuzz::check(length == 6);
  }
  store.put("cpp", "int x;\n", std::vector<bb::highlight::Token>{{"type", "int"}, {"", " x;\n"}});
  auto bytes = store.save();
  bb::fuzz::check(bytes.has_value());
  bb::fuzz::check(Store("stamp 1", *bytes).size() == store.size());
  return 0;
}
