// Number formatting and reading in an edition's locale.
#include "filters/number_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

#include "text/unicode.hpp"

namespace bb::filters {

namespace {

struct UnitDef {
  const char* name;
  long double scale;
  int pow2, pow10;  // scale = 2^pow2 × 10^pow10, for the exact decimal division
  const char* ru;   // Russian word; nullptr: same as name
};

// Binary byte units are powers of two (IEC); decimal ones powers of ten (SI). Times are in seconds.
const UnitDef kUnits[] = {
    {"bytes", 1, 0, 0, "байт"},
    {"KiB", 1024.0L, 10, 0, "КиБ"},
    {"MiB", 1048576.0L, 20, 0, "МиБ"},
    {"GiB", 1073741824.0L, 30, 0, "ГиБ"},
    {"TiB", 1099511627776.0L, 40, 0, "ТиБ"},
    {"KB", 1e3L, 0, 3, "КБ"},
    {"MB", 1e6L, 0, 6, "МБ"},
    {"GB", 1e9L, 0, 9, "ГБ"},
    {"TB", 1e12L, 0, 12, "ТБ"},
    {"PB", 1e15L, 0, 15, "ПБ"},
    {"FLOPs", 1, 0, 0, nullptr},
    {"KFLOPs", 1e3L, 0, 3, nullptr},
    {"MFLOPs", 1e6L, 0, 6, nullptr},
    {"GFLOPs", 1e9L, 0, 9, nullptr},
    {"TFLOPs", 1e12L, 0, 12, nullptr},
    {"PFLOPs", 1e15L, 0, 15, nullptr},
    {"EFLOPs", 1e18L, 0, 18, nullptr},
    {"FLOP/s", 1, 0, 0, nullptr},
    {"GFLOP/s", 1e9L, 0, 9, nullptr},
    {"TFLOP/s", 1e12L, 0, 12, nullptr},
    {"PFLOP/s", 1e15L, 0, 15, nullptr},
    {"B/s", 1, 0, 0, "Б/с"},
    {"MB/s", 1e6L, 0, 6, "МБ/с"},
    {"GB/s", 1e9L, 0, 9, "ГБ/с"},
    {"TB/s", 1e12L, 0, 12, "ТБ/с"},
    {"Gbit/s", 1.25e8L, -3, 9, "Гбит/с"},  // 10^9 bits of 8 bytes: 10^9 / 2^3 bytes
    {"tok/s", 1, 0, 0, "ток/с"},
    {"s", 1, 0, 0, "с"},
    {"ms", 1e-3L, 0, -3, "мс"},
    {"μs", 1e-6L, 0, -6, "мкс"},
    {"us", 1e-6L, 0, -6, "мкс"},
    {"ns", 1e-9L, 0, -9, "нс"},
    {"%", 0.01L, 0, -2, nullptr},
    {"K", 1e3L, 0, 3, "тыс."},
    {"M", 1e6L, 0, 6, "млн"},
    {"B", 1e9L, 0, 9, "млрд"},
};

Unit unit_of(const UnitDef& u) {
  return Unit{std::string(u.name) == "us" ? "μs" : u.name, u.scale, u.pow2, u.pow10};
}

}  // namespace

std::optional<Unit> find_unit(std::string_view word) {
  for (const auto& u : kUnits) {
    if (word == u.name || (u.ru && word == u.ru)) return unit_of(u);
  }
  return std::nullopt;
}

std::vector<Unit> all_units() {
  std::vector<Unit> out;
  for (const auto& u : kUnits)
    if (std::string_view(u.name) != "us") out.push_back(unit_of(u));  // `us` is μs typed in ASCII
  return out;
}

std::string unit_word(const Unit& unit, std::string_view lang) {
  if (lang.starts_with("ru")) {
    for (const auto& u : kUnits)
      if (unit.name == u.name && u.ru) return u.ru;
  }
  return unit.name;
}

std::optional<Format> parse_format(std::string_view spec, std::string& error) {
  Format f;
  std::vector<std::string> parts;
  std::size_t pos = 0;
  while (pos <= spec.size()) {
    std::size_t next = spec.find(':', pos);
    if (next == std::string_view::npos) next = spec.size();
    std::string part(spec.substr(pos, next - pos));
    while (!part.empty() && part.front() == ' ') part.erase(0, 1);
    while (!part.empty() && part.back() == ' ') part.pop_back();
    parts.push_back(part);
    pos = next + 1;
  }
  if (parts.empty() || parts[0].empty()) return f;
  if (parts.back() == "bare" && parts.size() > 1) {
    f.bare = true;
    parts.pop_back();
  }
  auto digits = [&](const std::string& s) -> std::optional<int> {
    int v = -1;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < 0 || v > 15) return std::nullopt;
    return v;
  };
  const std::string& head = parts[0];
  if (parts.size() > 2) {
    error = "too many `:` in format `" + std::string(spec) + "`";
    return std::nullopt;
  }
  if (head == "int") {
    f.style = Format::Style::Integer;
    if (parts.size() > 1) {
      error = "`int` takes no digits";
      return std::nullopt;
    }
    return f;
  }
  if (head == "fixed" || head == "sig") {
    f.style = head == "fixed" ? Format::Style::Fixed : Format::Style::Significant;
    auto d = parts.size() > 1 ? digits(parts[1]) : std::nullopt;
    if (!d || (f.style == Format::Style::Significant && *d == 0)) {
      error = "`" + head + "` needs a number of digits, e.g. `" + head + ":2`";
      return std::nullopt;
    }
    f.digits = *d;
    return f;
  }
  auto unit = find_unit(head);
  if (!unit) {
    error = "unknown format or unit `" + head +
            "` (formats: int, fixed:N, sig:N, or a unit such as GiB:2, TFLOPs:1, ms:3, %:1)";
    return std::nullopt;
  }
  f.unit = unit;
  f.style = Format::Style::Fixed;
  f.digits = 0;
  if (parts.size() > 1) {
    if (parts[1].starts_with("sig")) {
      auto d = digits(parts[1].substr(3));
      if (!d || *d == 0) {
        error = "bad significant digits `" + parts[1] + "`";
        return std::nullopt;
      }
      f.style = Format::Style::Significant;
      f.digits = *d;
    } else if (auto d = digits(parts[1])) {
      f.digits = *d;
    } else {
      error = "bad number of decimals `" + parts[1] + "` (expected 0 to 15)";
      return std::nullopt;
    }
  }
  return f;
}

std::string localize_decimal(std::string_view plain, const book::NumberLocale& locale) {
  std::string sign;
  if (!plain.empty() && plain.front() == '-') {
    sign = "-";
    plain.remove_prefix(1);
  }
  auto dot = plain.find('.');
  std::string_view whole = plain.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view{} : plain.substr(dot + 1);
  std::string grouped;
  if (static_cast<int>(whole.size()) >= locale.group_min_digits) {
    for (std::size_t i = 0; i < whole.size(); ++i) {
      if (i > 0 && (whole.size() - i) % 3 == 0) grouped += locale.group;
      grouped += whole[i];
    }
  } else {
    grouped = std::string(whole);
  }
  std::string out = sign + grouped;
  if (dot != std::string_view::npos) out += locale.decimal + std::string(frac);
  return out;
}

namespace {

std::string shortest(double v) {
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, p);
  // Prose wants 0.0001 rather than 1e-04: expand exponents of modest size.
  if (s.find('e') != std::string::npos && std::fabs(v) >= 1e-6 && std::fabs(v) < 1e21) {
    auto [p2, ec2] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    s.assign(buf, p2);
  }
  return s;
}

// The digits of a value in the format's unit and style, before the locale's marks. Exact: the value
// is scaled and rounded as a decimal (text/decimal.hpp), half away from zero.
std::string plain_digits(const Number& n, const Format& f) {
  if (f.style == Format::Style::Default) return n.is_integer ? std::to_string(n.integer) : shortest(n.real);
  if (f.style == Format::Style::Integer && n.is_integer && !f.unit) return std::to_string(n.integer);
  if (!n.is_integer && !std::isfinite(n.real))
    return std::isnan(n.real) ? "nan" : n.real < 0 ? "-inf" : "inf";
  text::Decimal v = exact_value(n, f.unit);
  switch (f.style) {
    case Format::Style::Significant: return v.significant(f.digits);
    case Format::Style::Integer: return v.fixed(0);
    default: return v.fixed(f.digits);
  }
}

}  // namespace

text::Decimal exact_value(const Number& n, const std::optional<Unit>& unit) {
  text::Decimal v = n.is_integer ? text::Decimal::of(n.integer) : text::Decimal::of(n.real);
  return unit ? v.scaled(-unit->pow2, -unit->pow10) : v;
}

std::string format_number(const Number& n, const Format& f, const book::NumberLocale& locale,
                          std::string_view lang) {
  std::string out = localize_decimal(plain_digits(n, f), locale);
  if (f.unit && !f.bare) {
    // Russian typography keeps number and unit together with a no-break space.
    std::string space = lang.starts_with("ru") ? "\u00A0" : " ";
    out += (f.unit->name == "%" && !lang.starts_with("ru") ? "" : space) + unit_word(*f.unit, lang);
  }
  return out;
}

std::optional<Literal> parse_literal(std::string_view text, const book::NumberLocale& locale) {
  // A number written as a word of the language: "four", "четыре", "八".
  if (locale.words != nullptr) {
    if (auto it = locale.words->find(text::lower(text::trim(text))); it != locale.words->end())
      return Literal{static_cast<long double>(it->second), std::to_string(it->second), 0, std::nullopt};
  }
  std::string digits;
  std::size_t i = 0;
  while (i < text.size() && text[i] == ' ') ++i;
  if (i < text.size() && (text[i] == '-' || text.compare(i, 3, "−") == 0)) {
    digits += '-';
    i += text[i] == '-' ? 1 : 3;
  }
  int decimals = 0;
  bool seen_digit = false, in_frac = false;
  while (i < text.size()) {
    char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits += c;
      seen_digit = true;
      if (in_frac) ++decimals;
      ++i;
      continue;
    }
    if (!in_frac && text.compare(i, locale.decimal.size(), locale.decimal) == 0 &&
        i + locale.decimal.size() < text.size() &&
        std::isdigit(static_cast<unsigned char>(text[i + locale.decimal.size()]))) {
      digits += '.';
      in_frac = true;
      i += locale.decimal.size();
      continue;
    }
    // Group separators: the locale's, and the usual alternatives typed by hand.
    bool sep = false;
    for (std::string_view g :
         {std::string_view(locale.group), std::string_view(","), std::string_view("\u202F"),
          std::string_view("\u00A0"), std::string_view("\u2009")}) {
      if (!in_frac && !g.empty() && g != locale.decimal && text.compare(i, g.size(), g) == 0 &&
          i + g.size() < text.size() && std::isdigit(static_cast<unsigned char>(text[i + g.size()]))) {
        i += g.size();
        sep = true;
        break;
      }
    }
    if (!sep) break;
  }
  if (!seen_digit) return std::nullopt;
  Literal lit;
  lit.value = std::strtold(digits.c_str(), nullptr);
  lit.digits = digits;
  lit.decimals = decimals;
  std::string_view rest = text.substr(i);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  if (rest.starts_with("\u00A0") || rest.starts_with("\u202F"))
    rest.remove_prefix(rest.starts_with("\u00A0") ? 2 : 3);
  while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
  if (!rest.empty()) {
    lit.unit = find_unit(rest);
    if (!lit.unit) return std::nullopt;
  }
  return lit;
}

}  // namespace bb::filters
