// The bridge between the filters' computed numbers and the calc library.
#pragma once

#include <filesystem>
#include <optional>

#include "filters/calc_numbers.hpp"

namespace bb::cli {

// An evaluator over a calculations folder, or nullopt when the folder does not exist.
std::optional<filters::Evaluator> make_evaluator(const std::filesystem::path& calculations);

}  // namespace bb::cli
