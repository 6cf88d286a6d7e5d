// Fuzz target: book.toml loading (builder/book/config). Any bytes as book.toml either give a
// configuration or located errors, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "book/config.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto root = bb::fuzz::scratch() / "book";
  bb::fuzz::write(root / "book.toml", std::string_view(reinterpret_cast<const char*>(data), size));
  bb::Diagnostics diags;
  auto config = bb::book::load_config(root, diags);
  if (!config) bb::fuzz::check(diags.has_errors());
  return 0;
}
