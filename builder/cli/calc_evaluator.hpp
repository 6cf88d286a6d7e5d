// The bridge between the filters' computed numbers and the calc library.
#pragma once

#include <filesystem>
#include <optional>

#include "filters/calc_numbers.hpp"

namespace bb::cli {

// An evaluator over `<root>/calculations`, or nullopt when the book has no calculations folder.
std::optional<filters::Evaluator> make_evaluator(const std::filesystem::path& root);

}  // namespace bb::cli
