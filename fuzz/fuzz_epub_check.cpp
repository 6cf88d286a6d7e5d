// Fuzz target: the `check epub` reader (builder/check/epub_check) on any bytes as an archive. It
// reports problems; it never crashes and never reports "no problem" for bytes that are not a zip.
// The same bytes are then offered to the ZIP writer as the earlier archive whose deflate streams it
// may reuse (epub.cpp, "The earlier archive"): it never crashes, and an entry not marked unchanged is
// always written with the bytes given.
#include <cstddef>
#include <cstdint>
#include <string>

#include "check/epub_check.hpp"
#include "epub/zip.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bb::Diagnostics diags;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  bool zip = bytes.starts_with("PK");
  const std::string earlier = bytes;
  bb::check::check_epub_bytes(std::move(bytes), "fuzz.epub", diags);
  if (!zip) bb::fuzz::check(diags.has_errors());

  bb::epub::ZipWriter writer;
  writer.add("mimetype", "application/epub+zip", false);
  writer.add("EPUB/a.xhtml", "<p>a chapter</p>", true, true);
  writer.add("EPUB/b.xhtml", "<p>another chapter</p>", true, false);
  std::string error;
  auto written = bb::epub::ZipReader::open(writer.finish(0, earlier), error);
  bb::fuzz::check(written.has_value());
  bb::fuzz::check(written->read("EPUB/b.xhtml") == std::optional<std::string>("<p>another chapter</p>"));
  return 0;
}
