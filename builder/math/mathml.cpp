// The public converter: one formula to a complete <math> element, a process-wide cache, and the
// mapping of error offsets to lines and columns.
#include "math/mathml.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <utility>

#include "math/emit.hpp"
#include "math/parser.hpp"

namespace bb::math {

MathResult to_mathml(std::string_view tex, bool display) {
  MathResult result;
  Parser parser(tex, result.errors);
  const std::string body = parser.parse_formula(display);
  result.tag = parser.tag();
  std::stable_sort(result.errors.begin(), result.errors.end(),
                   [](const MathError& a, const MathError& b) { return a.offset < b.offset; });
  result.mathml = "<math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"";
  result.mathml += display ? "block" : "inline";
  result.mathml += "\" alttext=\"";
  result.mathml += alttext(tex);
  result.mathml += "\">";
  result.mathml += body;
  result.mathml += "</math>";
  return result;
}

std::optional<EquationTag> equation_tag(const std::string& tex) {
  return to_mathml_cached(tex, true).tag;
}

std::string without_tag(std::string_view tex, const EquationTag& tag) {
  std::string out(tex.substr(0, tag.begin));
  out += tex.substr(std::min(tag.end, tex.size()));
  return out;
}

TexPosition position_in(std::string_view tex, std::size_t offset) {
  offset = std::min(offset, tex.size());
  TexPosition p;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (tex[i] == '\n') {
      ++p.line_delta;
      line_start = i + 1;
    }
  }
  p.column = offset - line_start;
  return p;
}

namespace {

struct Cache {
  std::mutex mutex;
  std::map<std::pair<std::string, bool>, MathResult> results;
};

Cache& cache_of_process() {
  static Cache c;
  return c;
}

}  // namespace

void remember_mathml(const std::string& tex, bool display, MathResult result) {
  Cache& c = cache_of_process();
  std::lock_guard lock(c.mutex);
  c.results.try_emplace({tex, display}, std::move(result));
}

const MathResult& to_mathml_cached(const std::string& tex, bool display) {
  Cache& c = cache_of_process();
  auto& mutex = c.mutex;
  auto& cache = c.results;
  std::pair<std::string, bool> key{tex, display};
  {
    std::lock_guard lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  // Converted without the lock, so that the chapters resolved on other threads do not wait for this
  // formula; when two threads convert the same formula at once, the first to insert wins and the
  // other's (equal) result is dropped.
  MathResult result = to_mathml(tex, display);
  std::lock_guard lock(mutex);
  // std::map never moves its elements: the reference stays valid.
  return cache.try_emplace(std::move(key), std::move(result)).first->second;
}

}  // namespace bb::math
