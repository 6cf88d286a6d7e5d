// Reading hand-typed numbers with units in zh, zh-tw, en and ru text (see typed_numbers.hpp).
#include "check/typed_numbers.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

namespace bb::check {

namespace {

struct Unit {
  std::string_view word;
  Dim dim;
  double scale;  // to the dimension's base unit
};

// Scale words: a number followed by one is a typed quantity even without a unit ("2.4 萬").
constexpr std::array<Unit, 16> kScales{{
    {"萬", Dim::Count, 1e4},
    {"万", Dim::Count, 1e4},
    {"億", Dim::Count, 1e8},
    {"亿", Dim::Count, 1e8},
    {"千", Dim::Count, 1e3},
    {"тыс.", Dim::Count, 1e3},
    {"тыс", Dim::Count, 1e3},
    {"млн", Dim::Count, 1e6},
    {"млрд", Dim::Count, 1e9},
    {"трлн", Dim::Count, 1e12},
    {"thousand", Dim::Count, 1e3},
    {"million", Dim::Count, 1e6},
    {"billion", Dim::Count, 1e9},
    {"trillion", Dim::Count, 1e12},
    {"millions", Dim::Count, 1e6},
    {"billions", Dim::Count, 1e9},
}};

// Units, longest first where one is the start of another (the first that matches wins).
constexpr std::array kUnits = std::to_array<Unit>({
    // Rates before the quantities they start with.
    {"tokens/s", Dim::TokenRate, 1},
    {"token/s", Dim::TokenRate, 1},
    {"tok/s", Dim::TokenRate, 1},
    {"tokens/秒", Dim::TokenRate, 1},
    {"token/秒", Dim::TokenRate, 1},
    {"токенов/с", Dim::TokenRate, 1},
    {"токена/с", Dim::TokenRate, 1},
    {"ток/с", Dim::TokenRate, 1},
    {"tokens", Dim::Tokens, 1},
    {"token", Dim::Tokens, 1},
    {"токенов", Dim::Tokens, 1},
    {"токена", Dim::Tokens, 1},
    {"PFLOP/s", Dim::FlopRate, 1e15},
    {"TFLOP/s", Dim::FlopRate, 1e12},
    {"GFLOP/s", Dim::FlopRate, 1e9},
    {"FLOP/s", Dim::FlopRate, 1},
    {"PFLOPS", Dim::FlopRate, 1e15},
    {"TFLOPS", Dim::FlopRate, 1e12},
    {"GFLOPS", Dim::FlopRate, 1e9},
    {"FLOPS", Dim::FlopRate, 1},
    {"POPS", Dim::FlopRate, 1e15},
    {"TOPS", Dim::FlopRate, 1e12},
    {"PFLOPs", Dim::Flops, 1e15},
    {"TFLOPs", Dim::Flops, 1e12},
    {"GFLOPs", Dim::Flops, 1e9},
    {"MFLOPs", Dim::Flops, 1e6},
    {"FLOPs", Dim::Flops, 1},
    {"PFLOP", Dim::Flops, 1e15},
    {"TFLOP", Dim::Flops, 1e12},
    {"GFLOP", Dim::Flops, 1e9},
    {"MFLOP", Dim::Flops, 1e6},
    {"FLOP", Dim::Flops, 1},
    {"PB/s", Dim::ByteRate, 1e15},
    {"TB/s", Dim::ByteRate, 1e12},
    {"GB/s", Dim::ByteRate, 1e9},
    {"MB/s", Dim::ByteRate, 1e6},
    {"KB/s", Dim::ByteRate, 1e3},
    {"kB/s", Dim::ByteRate, 1e3},
    {"TiB/s", Dim::ByteRate, 1099511627776.0},
    {"GiB/s", Dim::ByteRate, 1073741824.0},
    {"MiB/s", Dim::ByteRate, 1048576.0},
    {"B/s", Dim::ByteRate, 1},
    {"ТБ/с", Dim::ByteRate, 1e12},
    {"ГБ/с", Dim::ByteRate, 1e9},
    {"МБ/с", Dim::ByteRate, 1e6},
    {"Tb/s", Dim::ByteRate, 1e12 / 8},
    {"Gb/s", Dim::ByteRate, 1e9 / 8},
    {"Mb/s", Dim::ByteRate, 1e6 / 8},
    {"Tbit/s", Dim::ByteRate, 1e12 / 8},
    {"Gbit/s", Dim::ByteRate, 1e9 / 8},
    {"Mbit/s", Dim::ByteRate, 1e6 / 8},
    {"Tbps", Dim::ByteRate, 1e12 / 8},
    {"Gbps", Dim::ByteRate, 1e9 / 8},
    {"Mbps", Dim::ByteRate, 1e6 / 8},
    {"Тбит/с", Dim::ByteRate, 1e12 / 8},
    {"Гбит/с", Dim::ByteRate, 1e9 / 8},
    {"PiB", Dim::Bytes, 1125899906842624.0},
    {"TiB", Dim::Bytes, 1099511627776.0},
    {"GiB", Dim::Bytes, 1073741824.0},
    {"MiB", Dim::Bytes, 1048576.0},
    {"KiB", Dim::Bytes, 1024},
    {"PB", Dim::Bytes, 1e15},
    {"TB", Dim::Bytes, 1e12},
    {"GB", Dim::Bytes, 1e9},
    {"MB", Dim::Bytes, 1e6},
    {"KB", Dim::Bytes, 1e3},
    {"kB", Dim::Bytes, 1e3},
    {"bytes", Dim::Bytes, 1},
    {"byte", Dim::Bytes, 1},
    {"ТиБ", Dim::Bytes, 1099511627776.0},
    {"ГиБ", Dim::Bytes, 1073741824.0},
    {"МиБ", Dim::Bytes, 1048576.0},
    {"КиБ", Dim::Bytes, 1024},
    {"ТБ", Dim::Bytes, 1e12},
    {"ГБ", Dim::Bytes, 1e9},
    {"МБ", Dim::Bytes, 1e6},
    {"КБ", Dim::Bytes, 1e3},
    {"байтов", Dim::Bytes, 1},
    {"байта", Dim::Bytes, 1},
    {"байт", Dim::Bytes, 1},
    {"位元組", Dim::Bytes, 1},
    {"字节", Dim::Bytes, 1},
    {"B", Dim::Bytes, 1},
    {"ms", Dim::Seconds, 1e-3},
    {"µs", Dim::Seconds, 1e-6},
    {"μs", Dim::Seconds, 1e-6},
    {"us", Dim::Seconds, 1e-6},
    {"ns", Dim::Seconds, 1e-9},
    {"ps", Dim::Seconds, 1e-12},
    {"s", Dim::Seconds, 1},
    {"seconds", Dim::Seconds, 1},
    {"second", Dim::Seconds, 1},
    {"minutes", Dim::Seconds, 60},
    {"hours", Dim::Seconds, 3600},
    {"毫秒", Dim::Seconds, 1e-3},
    {"微秒", Dim::Seconds, 1e-6},
    {"納秒", Dim::Seconds, 1e-9},
    {"纳秒", Dim::Seconds, 1e-9},
    {"秒", Dim::Seconds, 1},
    {"分鐘", Dim::Seconds, 60},
    {"分钟", Dim::Seconds, 60},
    {"小時", Dim::Seconds, 3600},
    {"小时", Dim::Seconds, 3600},
    {"мкс", Dim::Seconds, 1e-6},
    {"мс", Dim::Seconds, 1e-3},
    {"нс", Dim::Seconds, 1e-9},
    {"с", Dim::Seconds, 1},
    {"kW", Dim::Watts, 1e3},
    {"W", Dim::Watts, 1},
    {"кВт", Dim::Watts, 1e3},
    {"Вт", Dim::Watts, 1},
    {"GHz", Dim::Hertz, 1e9},
    {"MHz", Dim::Hertz, 1e6},
    {"ГГц", Dim::Hertz, 1e9},
    {"МГц", Dim::Hertz, 1e6},
    {"%", Dim::Percent, 0.01},
    {"％", Dim::Percent, 0.01},
    {"倍", Dim::Times, 1},
    {"×", Dim::Times, 1},
    {"times", Dim::Times, 1},
    {"раза", Dim::Times, 1},
    {"раз", Dim::Times, 1},
});

bool ascii_digit(char c) {
  return c >= '0' && c <= '9';
}
bool ascii_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
// A Cyrillic or Latin letter starts at `i` (a Latin or Cyrillic unit must end the word; CJK need not).
bool letter_at(std::string_view t, size_t i) {
  if (i >= t.size()) return false;
  const auto u = static_cast<unsigned char>(t[i]);
  return ascii_alpha(t[i]) || u == 0xD0 || u == 0xD1;
}
bool cjk_word(std::string_view w) {
  return !w.empty() && static_cast<unsigned char>(w[0]) >= 0xE0;
}

// Past one space, no-break space or narrow no-break space.
size_t skip_space(std::string_view t, size_t k) {
  if (k < t.size() && t[k] == ' ') return k + 1;
  if (t.substr(k, 2) == "\u00A0") return k + 2;
  if (t.substr(k, 3) == "\u202F" || t.substr(k, 3) == "\u2009") return k + 3;
  return k;
}

template <size_t N>
const Unit* match_at(std::string_view t, size_t k, const std::array<Unit, N>& table) {
  for (const auto& u : table) {
    if (t.substr(k, u.word.size()) != u.word) continue;
    const size_t end = k + u.word.size();
    const bool needs_boundary = !cjk_word(u.word) && u.word != "%" && u.word != "×" && u.word.back() != '.';
    if (needs_boundary && (letter_at(t, end) || (end < t.size() && ascii_digit(t[end])))) continue;
    return &u;
  }
  return nullptr;
}

// The digits at `i`: end, value and digits after the decimal mark.
struct Digits {
  size_t end = 0;
  double value = 0;
  int decimals = 0;
};

Digits read_digits(std::string_view t, size_t i, const book::NumberLocale& locale) {
  std::string plain;
  size_t j = i;
  auto group_here = [&](size_t at, std::string_view sep) {
    if (sep.empty() || t.substr(at, sep.size()) != sep) return size_t{0};
    size_t d = at + sep.size(), n = 0;
    while (d + n < t.size() && ascii_digit(t[d + n])) ++n;
    return n == 3 ? sep.size() : size_t{0};
  };
  const bool comma_decimal = locale.decimal == ",";
  while (j < t.size()) {
    if (ascii_digit(t[j])) {
      plain += t[j++];
      continue;
    }
    size_t g = group_here(j, locale.group);
    // Russian text groups with any of the spaces; a decimal-comma language never groups with ','.
    if (!g && comma_decimal)
      g = std::max({group_here(j, " "), group_here(j, "\u00A0"), group_here(j, "\u202F")});
    if (!g && !comma_decimal && locale.group != ",") g = group_here(j, ",");
    if (!g) break;
    j += g;
  }
  Digits d;
  const bool mark =
      j + 1 < t.size() && (t[j] == '.' || (comma_decimal && t[j] == ',')) && ascii_digit(t[j + 1]);
  if (mark) {
    plain += '.';
    ++j;
    while (j < t.size() && ascii_digit(t[j])) plain += t[j++], ++d.decimals;
  }
  d.end = j;
  d.value = std::strtod(plain.c_str(), nullptr);
  return d;
}

// A word before the number that says it is rounded loosely.
bool approximate_before(std::string_view t, size_t i) {
  static constexpr std::array<std::string_view, 12> marks{
      "約", "约", "~", "≈", "about", "around", "approximately", "roughly", "около", "примерно", "近", "大概"};
  std::string_view before = t.substr(0, i);
  while (!before.empty() && (before.back() == ' ' || before.back() == '\t')) before.remove_suffix(1);
  if (before.ends_with("\u00A0")) before.remove_suffix(2);
  for (auto m : marks)
    if (before.ends_with(m)) return true;
  return false;
}

enum class Per { None, Second, Other };

// "8,192 FLOPs/tick", "128 bytes per cycle": a rate over something the unit does not name.
Per per_after(std::string_view t, size_t end) {
  std::string_view rest = t.substr(end);
  if (rest.starts_with("/") && rest.size() > 1 &&
      (letter_at(rest, 1) || static_cast<unsigned char>(rest[1]) >= 0xE0))
    return rest.substr(1).starts_with("秒") || rest.substr(1).starts_with("sec") ? Per::Second : Per::Other;
  if (rest.starts_with(" per ")) return rest.substr(5).starts_with("second") ? Per::Second : Per::Other;
  if (rest.starts_with(" в секунду")) return Per::Second;
  return Per::None;
}

// "每週期 8,192 FLOPs", "每秒 40 tokens": 每 and a word (not a number) before the number.
Per per_before(std::string_view t, size_t i) {
  std::string_view before = t.substr(0, i);
  while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
  for (int chars = 1; chars <= 4 && before.size() >= 3; ++chars) {
    const auto lead = static_cast<unsigned char>(before[before.size() - 3]);
    if (lead < 0xE0) return Per::None;  // not a CJK character (3 bytes in UTF-8)
    std::string_view word = before.substr(before.size() - 3);
    before.remove_suffix(3);
    if (before.ends_with("每")) return word == "秒" && chars == 1 ? Per::Second : Per::Other;
    if (word == "每") return Per::None;
  }
  return Per::None;
}

// What a rate makes of the unit's dimension: per second, a rate; per anything else, the unit per that
// thing (the `per` flag).
Dim per_dim(Dim d, Per per) {
  if (per != Per::Second) return d;
  switch (d) {
    case Dim::Bytes: return Dim::ByteRate;
    case Dim::Flops: return Dim::FlopRate;
    case Dim::Tokens: return Dim::TokenRate;
    default: return d;
  }
}

// A number without a unit, seen before a typed one.
struct Bare {
  size_t start = 0;
  Digits digits;
};

// What joins the numbers of a list or a range whose unit only the last one carries: "1、1、2、1 ms",
// "18.7 和 21.1 μs", "1, 2, and 4 GB", "120–135 ns", "2~4 ГБ". A range's ends are bounds.
struct Joiner {
  std::string_view word;
  bool range;
};
constexpr std::array<Joiner, 17> kJoiners{{
    {", and", false},
    {", or", false},
    {"、", false},
    {",", false},
    {"和", false},
    {"與", false},
    {"与", false},
    {"及", false},
    {"或", false},
    {"and", false},
    {"or", false},
    {"и", false},
    {"или", false},
    {"–", true},
    {"—", true},
    {"~", true},
    {"～", true},
}};

// The unit of `typed` given to the bare numbers joined to it (walking back from `start`).
void share_unit(std::string_view t, size_t start, const Digits& own, const TypedNumber& typed,
                const std::vector<Bare>& bare, std::vector<TypedNumber>& out) {
  const double unit = typed.value / own.value;
  std::vector<TypedNumber> earlier;
  bool range = false;
  for (size_t at = start, b = bare.size(); b > 0; --b) {
    std::string_view before = t.substr(0, at);
    while (before.ends_with(" ")) before.remove_suffix(1);
    const Joiner* joined = nullptr;
    for (const auto& j : kJoiners)
      if (before.ends_with(j.word)) {
        // A word joiner stands apart from letters: "brand 4" is no "and 4".
        const size_t w = before.size() - j.word.size();
        const bool cyrillic_before = w >= 2 && (static_cast<unsigned char>(before[w - 1]) & 0xC0) == 0x80 &&
                                     (static_cast<unsigned char>(before[w - 2]) == 0xD0 ||
                                      static_cast<unsigned char>(before[w - 2]) == 0xD1);
        const bool letter_before = (w >= 1 && ascii_alpha(before[w - 1])) || cyrillic_before;
        if (letter_at(j.word, 0) && letter_before) continue;
        joined = &j;
        break;
      }
    if (!joined) break;
    before.remove_suffix(joined->word.size());
    while (before.ends_with(" ")) before.remove_suffix(1);
    const Bare& prev = bare[b - 1];
    if (prev.digits.end != before.size()) break;
    range = range || joined->range;
    TypedNumber n = typed;
    n.loc.col = typed.loc.col - static_cast<int>(start - prev.start);
    n.text = std::string(t.substr(prev.start, prev.digits.end - prev.start));
    n.value = prev.digits.value * unit;
    n.half_step = 0.5 * std::pow(10.0, -prev.digits.decimals) * unit;
    n.approximate = approximate_before(t, prev.start);
    n.shared = true;
    earlier.push_back(std::move(n));
    at = prev.start;
    if (joined->range) break;  // a range has two ends
  }
  for (auto it = earlier.rbegin(); it != earlier.rend(); ++it) {
    it->range = range;
    out.push_back(std::move(*it));
  }
  if (range)
    out.push_back(typed), out.back().range = true;
  else
    out.push_back(typed);
}

}  // namespace

std::string_view dim_name(Dim d) {
  switch (d) {
    case Dim::Count: return "count";
    case Dim::Times: return "times";
    case Dim::Percent: return "percent";
    case Dim::Bytes: return "bytes";
    case Dim::ByteRate: return "bytes/s";
    case Dim::Seconds: return "seconds";
    case Dim::Flops: return "FLOP";
    case Dim::FlopRate: return "FLOP/s";
    case Dim::Tokens: return "tokens";
    case Dim::TokenRate: return "tokens/s";
    case Dim::Watts: return "W";
    case Dim::Hertz: return "Hz";
  }
  return "";
}

void scan_typed_numbers(std::string_view t, const SourceLoc& loc, const book::NumberLocale& locale,
                        std::vector<TypedNumber>& out) {
  std::vector<Bare> bare;
  for (size_t i = 0; i < t.size();) {
    // A number starts at a digit that does not continue a word or a version ("Qwen3", "v4.1", "H100").
    const bool starts =
        ascii_digit(t[i]) && (i == 0 || !(ascii_alpha(t[i - 1]) || ascii_digit(t[i - 1]) || t[i - 1] == '.' ||
                                          t[i - 1] == '_' || t[i - 1] == '-'));
    if (!starts) {
      ++i;
      continue;
    }
    const Digits d = read_digits(t, i, locale);
    size_t k = skip_space(t, d.end);
    size_t end = d.end;  // past the last word read
    double scale = 1;
    Dim dim = Dim::Count;
    bool found = false;
    if (const Unit* s = match_at(t, k, kScales)) {
      scale = s->scale;
      found = true;
      end = k + s->word.size();
      k = skip_space(t, end);
    }
    if (const Unit* u = match_at(t, k, kUnits)) {
      // A lone "B" or "s" glued to the digits is no unit: "70B" names a model, "4s" is a plural.
      const bool glued = k == d.end;
      const bool bare_letter = u->word == "B" || u->word == "s" || u->word == "с";
      if (!(glued && bare_letter)) {
        scale *= u->scale;
        dim = u->dim;
        found = true;
        end = k + u->word.size();
      }
    } else if (k == d.end && k < t.size() && t[k] == 'x' && !letter_at(t, k + 1)) {
      dim = Dim::Times;  // "4x"
      found = true;
      end = k + 1;
    }
    if (found) {
      TypedNumber n;
      n.loc = loc;
      n.loc.col += static_cast<int>(i);
      n.text = std::string(t.substr(i, end - i));
      n.value = d.value * scale;
      n.half_step = 0.5 * std::pow(10.0, -d.decimals) * scale;
      // A scale word alone (萬, млрд) keeps its count; a unit per something becomes that rate, or
      // that unit per the thing.
      const Per per = dim == Dim::Count
                          ? Per::None
                          : (per_after(t, end) != Per::None ? per_after(t, end) : per_before(t, i));
      n.dim = per_dim(dim, per);
      n.per = per == Per::Other;
      n.approximate = approximate_before(t, i);
      if (d.value > 0)
        share_unit(t, i, d, n, bare, out);
      else
        out.push_back(std::move(n));
      bare.clear();
    } else {
      bare.push_back({i, d});
    }
    i = std::max(d.end, i + 1);
  }
}

std::optional<TypedNumber> read_literal(std::string_view text, const SourceLoc& loc,
                                        const book::NumberLocale& locale) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty() || !ascii_digit(text.front())) return std::nullopt;
  std::vector<TypedNumber> found;
  scan_typed_numbers(text, loc, locale, found);
  if (found.size() == 1 && found.front().text == text) return found.front();
  const Digits d = read_digits(text, 0, locale);
  if (!found.empty() || d.end != text.size()) return std::nullopt;
  TypedNumber n;
  n.loc = loc;
  n.text = std::string(text);
  n.value = d.value;
  n.half_step = 0.5 * std::pow(10.0, -d.decimals);
  return n;
}

}  // namespace bb::check
