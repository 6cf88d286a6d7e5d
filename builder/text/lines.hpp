// Counting lines in generated text, where the writers keep source maps (a TeX line → a manuscript
// line) over megabytes of output.
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

namespace bb::text {

// The '\n' bytes in `s`: memchr from one to the next (vectorised in glibc), a few instructions per
// line instead of a few per byte.
inline std::size_t count_newlines(std::string_view s) {
  std::size_t n = 0;
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (!nl) break;
    ++n;
    p = static_cast<const char*>(nl) + 1;
  }
  return n;
}

}  // namespace bb::text
