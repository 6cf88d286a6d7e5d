// Computed numbers come from the calc library's Engine (one per run: each scenario computed once).
#include "cli/calc_evaluator.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "calc/engine.hpp"
#include "calc/error.hpp"
#include "inputs/inputs.hpp"

namespace bb::cli {

std::shared_ptr<calc::Engine> make_engine(const std::filesystem::path& dir) {
  inputs::note_file(dir);
  inputs::note_tree(dir);  // the engine reads what it needs of it, when it needs it
  if (!std::filesystem::is_directory(dir)) return nullptr;
  return std::make_shared<calc::Engine>(dir);
}

std::optional<filters::Evaluator> make_evaluator(const std::filesystem::path& dir) {
  auto engine = make_engine(dir);
  if (!engine) return std::nullopt;
  return make_evaluator(std::move(engine));
}

filters::Evaluator make_evaluator(std::shared_ptr<calc::Engine> engine) {
  auto mutex = std::make_shared<std::mutex>();  // editions resolve in parallel; the engine caches
  // Every number an expression gave, by its text: a book cites the same results at many places (a
  // 100x book evaluates ~300,000 expressions, each a JSON walk, of a few thousand distinct ones).
  // The engine computes each scenario once, so an expression's number does not change within a run.
  // Failures are not kept: they are evaluated again and throw as they did.
  auto known = std::make_shared<std::unordered_map<std::string, filters::Number>>();
  return filters::Evaluator([engine, mutex, known](const std::string& expr) {
    calc::Value v;
    {
      std::lock_guard lock(*mutex);
      if (auto it = known->find(expr); it != known->end()) return it->second;
      v = engine->evaluate(expr);
    }
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
    std::lock_guard lock(*mutex);
    known->emplace(expr, n);
    return n;
  });
}

}  // namespace bb::cli
