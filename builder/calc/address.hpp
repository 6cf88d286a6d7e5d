// Addressing one value inside a result or a catalogue record by keys, never by list position:
// `operators[q_proj].matrix_flops`, `cards[card=0].headroom_bytes`, `peak(BF16, FP32, tensor, dense)`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "calc/json.hpp"

namespace bb::calc {

// Splits `a.b[x.y].peak(bf16, dense)` at the dots that are outside brackets and parentheses.
std::vector<std::string> split_address(std::string_view path);

// Follows `segments` from `root` (whose canonical name is `prefix`) and returns the addressed JSON
// value; `canonical` receives the full keyed path. Lists are entered by key only: `list[v]` (the item
// whose id, name, variant or phase is v), `list[field=v]`, or a bare `name` of an item. A numeric index
// is an Error whose message names the keyed form of that item. On a device record, `peak(...)` selects
// the one peak row matching the given precision, accumulator, unit and sparsity.
const Json& follow_address(const Json& root, const std::vector<std::string>& segments,
                           const std::string& prefix, std::string& canonical);

}  // namespace bb::calc
