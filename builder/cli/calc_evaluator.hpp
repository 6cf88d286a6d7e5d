// The bridge between the filters' computed numbers and the calc library.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "calc/engine.hpp"

#include "filters/calc_numbers.hpp"

namespace bb::cli {

// The engine over a calculations folder (noted as an input of the run), or null when the folder does
// not exist.
std::shared_ptr<calc::Engine> make_engine(const std::filesystem::path& calculations);
// An evaluator by that engine; callers from several threads take turns. Whoever else uses the engine
// must not do so while the evaluator may run.
filters::Evaluator make_evaluator(std::shared_ptr<calc::Engine> engine);
// The two in one: an evaluator over a calculations folder, or nullopt when the folder does not exist.
std::optional<filters::Evaluator> make_evaluator(const std::filesystem::path& calculations);

}  // namespace bb::cli
