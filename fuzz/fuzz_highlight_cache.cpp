// Fuzz target: the highlight cache file (builder/highlight/cache.hpp). Any bytes as
// <out>/.cache/highlight.bin give a store, never a crash; what the store writes back reads back whole.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <zlib.h>

#include <string>

#include "fuzz_support.hpp"
#include "highlight/cache.hpp"

namespace {

using bb::highlight::cache::Store;

void one(std::string_view bytes) {
  // The stamp the seeds (fuzz/corpus/highlight_cache, from tests/fixtures/highlight) were written under.
  Store store("stamp 1", bytes);
  auto hit = store.find("python", "x = 1\n");
  if (hit && *hit) {
    std::size_t length = 0;
    for (const auto& t : **hit) length += t.text.size();
    bb::fuzz::check(length == 6);
  }
  store.put("cpp", "int x;\n", std::vector<bb::highlight::Token>{{"type", "int"}, {"", " x;\n"}});
  auto written = store.save();
  bb::fuzz::check(written.has_value());
  bb::fuzz::check(Store("stamp 1", *written).size() == store.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  one(bytes);
  // The same with its last four bytes made the right CRC-32, so that the parser behind the checksum is
  // explored too.
  if (bytes.size() >= 4) {
    auto crc = static_cast<std::uint32_t>(crc32(0L, data, static_cast<uInt>(size - 4)));
    for (int i = 0; i < 4; ++i) bytes[size - 4 + i] = static_cast<char>((crc >> (8 * i)) & 0xff);
    one(bytes);
  }
  return 0;
}
