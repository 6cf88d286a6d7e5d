// A manuscript's bytes before parsing: UTF-8 validation with a located error per bad sequence.
#include "markdown/source_text.hpp"

namespace bb::markdown {

std::string checked_utf8(std::string_view in, const std::filesystem::path& path, Diagnostics& diags) {
  std::string out;
  out.reserve(in.size());
  int line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  if (in.starts_with("\xEF\xBB\xBF")) i = 3;  // byte order mark
  while (i < in.size()) {
    unsigned char c = static_cast<unsigned char>(in[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n > 0 && i + n <= in.size();
    for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(in[i + k]) & 0xC0) == 0x80;
    if (ok && n == 2) ok = c >= 0xC2;
    if (ok && n == 3) {
      unsigned char c1 = static_cast<unsigned char>(in[i + 1]);
      ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0);
    }
    if (ok && n == 4) {
      unsigned char c1 = static_cast<unsigned char>(in[i + 1]);
      ok = c <= 0xF4 && !(c == 0xF0 && c1 < 0x90) && !(c == 0xF4 && c1 >= 0x90);
    }
    if (!ok) {
      diags.error({path, line, static_cast<int>(i - line_start + 1)}, "invalid UTF-8 byte sequence");
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
  return out;
}

}  // namespace bb::markdown
