// What a stored result records about its inputs, read back for a recompute: the scenario's values
// (checked as the reference tool checks them), the files it needs (absent: MissingInput) and the
// `sources` rows it cites, re-hashed where the file is in the book.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calc/checked_int.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace bb::calc {

// The stored document's "scenario" object (an Error when there is none).
const Json& recorded_scenario(const Json& stored);

// A scenario value as the reference's positive_int accepts it: a JSON integer (not a bool, not a
// float), > 0, or >= 0 with `allow_zero`. `what` names it in the error.
Int positive_int(const Json& value, std::string_view what, bool allow_zero = false);
// The key of an object, which must be present.
const Json& member(const Json& object, std::string_view key, std::string_view what);
// A list of positive integers (non-empty unless `allow_empty`).
std::vector<Int> positive_int_list(const Json& value, std::string_view what, bool allow_zero = false);

// The file at `path` (relative to the calculations folder, as results record it) must be in the book:
// a path that climbs out of the book is an Error, an absent file a MissingInput.
std::filesystem::path require_input(const Data& data, const std::string& path);

// The recorded `sources` rows with each `sha256` recomputed from the file when the file is in the book
// (a row whose file is absent keeps its recorded hash: it cannot be checked here).
Json rehashed_sources(const Data& data, const Json& recorded);

// The data to recompute with: `data` itself when the book has configs/sources.lock.json, otherwise a
// view whose source lock is made of the recorded rows (re-hashed) attributed to `model`, so that a
// document citing a model's sources is rebuilt from what the result recorded. Recorded rows whose file
// is among `other_rows` (a device's sources, which come from configs/hardware.json) are left out.
Data recompute_data(const Data& data, const Json& stored, const std::string& model,
                    const Json& other_rows = Json::array());

}  // namespace bb::calc
