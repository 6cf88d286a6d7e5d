// Computed numbers come from the calc library's Engine (one per run: each scenario computed once).
#include "cli/calc_evaluator.hpp"

#if __has_include("calc/engine.hpp")
#include <memory>

#include "calc/engine.hpp"
#include "calc/error.hpp"
#define BOOKBUILD_HAVE_CALC 1
#endif

namespace bb::cli {

std::optional<filters::Evaluator> make_evaluator(const std::filesystem::path& root) {
  auto dir = root / "calculations";
  if (!std::filesystem::is_directory(dir)) return std::nullopt;
#ifdef BOOKBUILD_HAVE_CALC
  auto engine = std::make_shared<calc::Engine>(dir);
  return filters::Evaluator([engine](const std::string& expr) {
    calc::Value v = engine->evaluate(expr);
    filters::Number n;
    switch (v.kind) {
      case calc::Value::Kind::Integer:
        n.is_integer = true;
        n.integer = v.integer;
        break;
      case calc::Value::Kind::Float:
        n.is_integer = false;
        n.real = v.number;
        break;
      default: throw calc::Error("`" + v.path + "` is " + v.to_string() + ", not a number");
    }
    return n;
  });
#else
  return std::nullopt;
#endif
}

}  // namespace bb::cli
