// Fuzz target: TeX → MathML (builder/math). Any formula gives a complete <math> element and errors at
// offsets inside the formula, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "math/mathml.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view tex(reinterpret_cast<const char*>(data), size);
  for (bool display : {false, true}) {
    auto r = bb::math::to_mathml(tex, display);
    bb::fuzz::check(r.mathml.starts_with("<math") && r.mathml.ends_with("</math>"));
    for (const auto& e : r.errors) {
      bb::fuzz::check(e.offset <= tex.size());
      bb::math::position_in(tex, e.offset);
    }
  }
  return 0;
}
