// The row of a table that a sentence names: where several rows hold the value a typed number fits
// ("M4 Max has 128 GB" among every machine with 128 GB), the row whose name the sentence has
// (docs/numbers.md, "The row the sentence names").
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "check/result_fields.hpp"

namespace bb::check {

// The fields of `fits` in the row the sentence names, when they are rows of one table ("M4 Max has
// 128 GB" among the rows of every machine with 128 GB): the rows whose label is nearest the number
// before it in its sentence (else after it in its clause), a label that not every row has.
struct Rows {
  bool table = false;           // the fits are rows of one table, told apart by their labels
  std::vector<FieldRef> named;  // those in the row the sentence names (empty: it names none)
};
Rows named_rows(const std::vector<FieldRef>& fits, std::string_view before, std::string_view after);

}  // namespace bb::check
