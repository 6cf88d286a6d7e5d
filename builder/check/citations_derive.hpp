// A number its sentence derives from fields it cites: the share one field is of another, their ratio,
// difference or sum ("the first round takes 47.5% of the run" beside the two times it divides).
// Checked when exactly one such derivation from the fields the same sentence states gives the digits
// shown (docs/numbers.md, "Derived numbers").
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "check/result_fields.hpp"
#include "check/typed_numbers.hpp"

namespace bb::check {

enum class DeriveOp { Ratio, Complement, Difference, Sum };

// "ratio" (a / b), "complement" (1 - a / b), "difference" (a - b), "sum" (a + b).
const char* derive_name(DeriveOp op);
std::optional<DeriveOp> derive_op(const std::string& name);

// The field `op` makes of `a` and `b`, as a field the typed number can be held to (its value in the
// base unit of its dimension; a ratio is a Count); nullopt when the two do not combine (other units,
// a zero divisor).
std::optional<ResultField> derive_field(DeriveOp op, const ResultField& a, const ResultField& b);

struct Derivation {
  DeriveOp op;
  FieldRef a, b;
  ResultField value;
};

// The one derivation from two of `fields` that `n` states to its digits; nullopt when none does, when
// several do, or when `n` shows too few digits (under two significant ones) for a match to mean much.
std::optional<Derivation> unique_derivation(const TypedNumber& n, const std::vector<FieldRef>& fields);

}  // namespace bb::check
