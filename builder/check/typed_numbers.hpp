// Numbers typed by hand with a unit or measure word, as a reader of the book's languages reads them:
// "1.5 TB/s", "21 ms", "148 倍", "2.4 萬", "7 億 tokens", "2,5 ГБ", "3 млрд", "35%". Each is read to a
// value in its dimension's base unit (bytes, seconds, FLOP, …) with the precision its digits show.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "book/config.hpp"
#include "diag/diagnostics.hpp"

namespace bb::check {

// What a unit measures. Rates are per second; bit rates are read as byte rates (÷ 8).
enum class Dim : std::uint8_t {
  Count,      // a bare count with a scale word: "2.4 萬", "3 млрд", "7 billion"
  Times,      // 倍, ×, "times", раз
  Percent,    // %: value is the fraction (35% → 0.35)
  Bytes,      // B, GB, GiB, 位元組, ГБ, …
  ByteRate,   // GB/s, TB/s, Gb/s (÷ 8), Gbps, ГБ/с, …
  Seconds,    // s, ms, µs, ns, 秒, 毫秒, мс, …
  Flops,      // FLOP, FLOPs, TFLOPs, …
  FlopRate,   // FLOP/s, TFLOP/s, TFLOPS, TOPS, …
  Tokens,     // tokens
  TokenRate,  // tokens/s, tok/s, token/秒, токенов/с
  Watts,      // W, kW, Вт
  Hertz,      // GHz, MHz, ГГц
};
std::string_view dim_name(Dim d);

struct TypedNumber {
  SourceLoc loc;
  std::string text;      // as written, number through unit: "1.5 TB/s"
  double value = 0;      // in the base unit of `dim`
  double half_step = 0;  // half a unit of the last digit shown, in the same base unit
  Dim dim = Dim::Count;
  bool per = false;          // `dim` per something other than a second: "8,192 FLOPs/tick"
  bool approximate = false;  // preceded by 約/约/about/~/≈/около/примерно
  bool shared = false;       // its unit is written after a later number of its list ("1、2、4 ms")
  bool range = false;        // an end of a range ("120–135 ns"): a bound the text draws, never a mismatch
};

// Finds the typed numbers in one run of text (its first byte at `loc`), reading digits with the
// edition's decimal and group separators; a `.` decimal is accepted in every language.
void scan_typed_numbers(std::string_view text, const SourceLoc& loc, const book::NumberLocale& locale,
                        std::vector<TypedNumber>& out);

// Reads a whole literal (the text of a bound literal): one typed number ("148 倍", "1.5 TB/s") or bare
// digits ("8,192", a Count in the field's own unit); nullopt when the text is anything else.
std::optional<TypedNumber> read_literal(std::string_view text, const SourceLoc& loc,
                                        const book::NumberLocale& locale);

}  // namespace bb::check
