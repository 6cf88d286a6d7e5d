// Fuzz target: the `check epub` reader (builder/check/epub_check) on any bytes as an archive. It
// reports problems; it never crashes and never reports "no problem" for bytes that are not a zip.
#include <cstddef>
#include <cstdint>
#include <string>

#include "check/epub_check.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bb::Diagnostics diags;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  bool zip = bytes.starts_with("PK");
  bb::check::check_epub_bytes(std::move(bytes), "fuzz.epub", diags);
  if (!zip) bb::fuzz::check(diags.has_errors());
  return 0;
}
