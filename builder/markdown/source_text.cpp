// A manuscript's bytes before parsing: UTF-16/UTF-32 files, NUL bytes and invalid UTF-8 are located
// errors, so that a wrongly saved file is named as such rather than parsed into confusing text.
#include "markdown/source_text.hpp"
#include "text/unicode.hpp"

#include <algorithm>

namespace bb::markdown {

namespace {

// At most this many invalid sequences are reported one by one; a binary file would give millions.
constexpr int kMaxEncodingErrors = 20;

// UTF-16 and UTF-32 by their byte order mark, or by NUL bytes between ASCII characters (no BOM).
const char* wide_encoding(std::string_view in) {
  if (in.starts_with(std::string_view("\xFF\xFE\0\0", 4)) ||
      in.starts_with(std::string_view("\0\0\xFE\xFF", 4)))
    return "UTF-32";
  if (in.starts_with("\xFF\xFE") || in.starts_with("\xFE\xFF")) return "UTF-16";
  std::string_view head = in.substr(0, 4096);
  auto nuls = std::count(head.begin(), head.end(), '\0');
  if (head.size() >= 2 && static_cast<std::size_t>(nuls) * 4 >= head.size()) return "UTF-16";
  return nullptr;
}

}  // namespace

std::optional<std::string> checked_utf8(std::string_view in, const std::filesystem::path& path,
                                        Diagnostics& diags) {
  if (const char* wide = wide_encoding(in)) {
    diags.error({path, 1, 1}, std::string("the file is encoded in ") + wide +
                                  "; manuscripts must be UTF-8 (save it again as UTF-8)");
    return std::nullopt;
  }
  // The common case, a clean file, is its own text (without the byte order mark); only a file with a
  // problem is walked line by line to place each one.
  std::string_view body = in.starts_with("\xEF\xBB\xBF") ? in.substr(3) : in;
  if (body.find('\0') == std::string_view::npos && text::valid_utf8(body)) return std::string(body);
  std::string out;
  out.reserve(in.size());
  int line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  int invalid = 0;
  int nuls = 0;
  SourceLoc first_nul;
  if (in.starts_with("\xEF\xBB\xBF")) i = 3;  // byte order mark
  while (i < in.size()) {
    unsigned char c = static_cast<unsigned char>(in[i]);
    std::size_t n = 1;
    // ICU's decoder (text/unicode) rejects truncated, overlong and surrogate sequences one byte at a
    // time; a U+FFFD written in the file is three bytes long and kept.
    const bool ok = c < 0x80 || text::decode_utf8(in, i, n) != 0xFFFD || n != 1;
    if (!ok || c == 0) {
      SourceLoc here{path, line, static_cast<int>(i - line_start + 1)};
      // NUL is valid UTF-8 but no text: CommonMark would turn it into U+FFFD without a word.
      if (c == 0 && nuls++ == 0) first_nul = here;
      if (c != 0 && ++invalid <= kMaxEncodingErrors) diags.error(here, "invalid UTF-8 byte sequence");
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    }
    out.append(in.substr(i, n));
    i += n;
  }
  if (invalid > kMaxEncodingErrors)
    diags.error({path, 0, 0}, std::to_string(invalid - kMaxEncodingErrors) +
                                  " more invalid UTF-8 byte sequences in this file (the first " +
                                  std::to_string(kMaxEncodingErrors) + " are shown)");
  if (nuls > 0)
    diags.error(first_nul, nuls == 1 ? std::string("NUL byte in the text")
                                     : "NUL byte in the text (" + std::to_string(nuls) + " in this file)");
  return out;
}

}  // namespace bb::markdown
