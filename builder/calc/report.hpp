// Human-readable renderings of a result document: Markdown (every command) and CSV (operator lists).
#pragma once

#include <string>

#include "calc/json.hpp"

namespace bb::calc {

// Tables for scenario, summary, operators, weights and other record lists, then assumptions and
// sources. Numbers print exactly as in the JSON (integers exact, floats as shortest round-trip).
std::string render_markdown(const Json& doc);

// One row per operator occurrence, layer-expanded (per-layer operators repeat for each layer).
// Throws bb::calc::Error when the document has no operator list.
std::string render_csv(const Json& doc);

}  // namespace bb::calc
