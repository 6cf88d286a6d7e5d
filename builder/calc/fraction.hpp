// Exact fractions at the edges of a result document, as the reference tool's fractions.Fraction reads
// and writes them: parsing "3/4", "1.5", "2e3"; writing and reading {"numerator", "denominator"}.
#pragma once

#include <string_view>

#include "calc/json.hpp"
#include "calc/pynum.hpp"

namespace bb::calc {

// Fraction(text): an integer, a decimal with optional exponent, or "a/b". Anything else is an Error
// naming `what`.
Rational parse_fraction(std::string_view text, std::string_view what);

// An integer of up to 128 bits as a JSON number: exact when it fits 64 bits; otherwise the nearest
// double, which is what a JSON reader (nlohmann-json) makes of such a literal in a stored result.
Json integer_json(__int128 v);
// {"numerator": n, "denominator": d}.
Json exact_json(Rational r);
// The inverse of exact_json (a literal stored as a double must be a whole number). Errors name `what`.
Rational read_exact(const Json& record, std::string_view what);

}  // namespace bb::calc
