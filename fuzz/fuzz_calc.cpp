// Fuzz target: calc placeholders and expressions: `{{calc expr | format}}` split, the format spec
// parsed, the expression evaluated by the calc Engine over the book's calculations/ folder (the same
// evaluator the builder uses), the value formatted, and a bound literal's text read back. Errors are
// exceptions with a message (calc::Error, std::exception), never a crash.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "book/config.hpp"
#include "calc/engine.hpp"
#include "calc/error.hpp"
#include "filters/calc_numbers.hpp"
#include "filters/number_format.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static bb::calc::Engine engine(std::filesystem::path(BOOKBUILD_SOURCE_DIR) / "calculations");
  std::string_view inner(reinterpret_cast<const char*>(data), size);
  std::string expr, spec;
  if (bb::filters::split_placeholder(inner, expr, spec)) {
    std::string error;
    auto format = bb::filters::parse_format(spec, error);
    try {
      bb::calc::Value v = engine.evaluate(expr);
      bb::filters::Number n;
      n.is_integer = v.kind == bb::calc::Value::Kind::Integer;
      n.integer = v.integer;
      n.real = v.number;
      if (format && (v.kind == bb::calc::Value::Kind::Integer || v.kind == bb::calc::Value::Kind::Float)) {
        for (const char* lang : {"en", "ru", "zh-Hans"}) {
          auto text = bb::filters::format_number(n, *format, bb::book::default_numbers(lang), lang);
          bb::fuzz::check(!text.empty());
        }
      }
    } catch (const std::exception&) {
      // a located error in the manuscript
    }
  }
  for (const char* lang : {"en", "ru"}) bb::filters::parse_literal(inner, bb::book::default_numbers(lang));
  return 0;
}
