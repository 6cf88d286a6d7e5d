// LaTeX in BibTeX values to plain text, and author lists to names (latex_text.hpp).
#include "bib/latex_text.hpp"

#include <array>
#include <cctype>
#include <cstdint>

namespace bb::bib {

namespace {

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// An accent command and the combining mark it puts on the letter that follows.
char32_t combining_mark(char accent) {
  switch (accent) {
    case '\'': return 0x301;
    case '`': return 0x300;
    case '^': return 0x302;
    case '"': return 0x308;
    case '~': return 0x303;
    case '=': return 0x304;
    case '.': return 0x307;
    case 'u': return 0x306;
    case 'v': return 0x30C;
    case 'H': return 0x30B;
    case 'c': return 0x327;
    case 'k': return 0x328;
    case 'r': return 0x30A;
    case 'd': return 0x323;
    default: return 0;
  }
}

// The precomposed letters readers' fonts have; any other pair stays letter + combining mark.
char32_t precomposed(char32_t letter, char32_t mark) {
  struct Pair {
    char letter;
    char16_t mark, composed;
  };
  static constexpr std::array<Pair, 74> table{{
      {'a', 0x301, u'á'}, {'e', 0x301, u'é'}, {'i', 0x301, u'í'}, {'o', 0x301, u'ó'}, {'u', 0x301, u'ú'},
      {'y', 0x301, u'ý'}, {'A', 0x301, u'Á'}, {'E', 0x301, u'É'}, {'I', 0x301, u'Í'}, {'O', 0x301, u'Ó'},
      {'U', 0x301, u'Ú'}, {'c', 0x301, u'ć'}, {'n', 0x301, u'ń'}, {'s', 0x301, u'ś'}, {'z', 0x301, u'ź'},
      {'a', 0x300, u'à'}, {'e', 0x300, u'è'}, {'i', 0x300, u'ì'}, {'o', 0x300, u'ò'}, {'u', 0x300, u'ù'},
      {'A', 0x300, u'À'}, {'E', 0x300, u'È'}, {'a', 0x302, u'â'}, {'e', 0x302, u'ê'}, {'i', 0x302, u'î'},
      {'o', 0x302, u'ô'}, {'u', 0x302, u'û'}, {'a', 0x308, u'ä'}, {'e', 0x308, u'ë'}, {'i', 0x308, u'ï'},
      {'o', 0x308, u'ö'}, {'u', 0x308, u'ü'}, {'y', 0x308, u'ÿ'}, {'A', 0x308, u'Ä'}, {'O', 0x308, u'Ö'},
      {'U', 0x308, u'Ü'}, {'a', 0x303, u'ã'}, {'n', 0x303, u'ñ'}, {'o', 0x303, u'õ'}, {'N', 0x303, u'Ñ'},
      {'c', 0x327, u'ç'}, {'C', 0x327, u'Ç'}, {'s', 0x327, u'ş'}, {'c', 0x30C, u'č'}, {'C', 0x30C, u'Č'},
      {'s', 0x30C, u'š'}, {'S', 0x30C, u'Š'}, {'z', 0x30C, u'ž'}, {'Z', 0x30C, u'Ž'}, {'r', 0x30C, u'ř'},
      {'e', 0x30C, u'ě'}, {'n', 0x30C, u'ň'}, {'o', 0x30B, u'ő'}, {'u', 0x30B, u'ű'}, {'O', 0x30B, u'Ő'},
      {'a', 0x30A, u'å'}, {'A', 0x30A, u'Å'}, {'u', 0x30A, u'ů'}, {'a', 0x304, u'ā'}, {'e', 0x304, u'ē'},
      {'i', 0x304, u'ī'}, {'o', 0x304, u'ō'}, {'u', 0x304, u'ū'}, {'a', 0x306, u'ă'}, {'g', 0x306, u'ğ'},
      {'a', 0x328, u'ą'}, {'e', 0x328, u'ę'}, {'z', 0x307, u'ż'}, {'I', 0x307, u'İ'}, {'E', 0x302, u'Ê'},
      {'A', 0x302, u'Â'}, {'E', 0x308, u'Ë'}, {'I', 0x308, u'Ï'}, {'S', 0x301, u'Ś'},
  }};
  for (const auto& p : table)
    if (static_cast<char32_t>(static_cast<unsigned char>(p.letter)) == letter && p.mark == mark)
      return p.composed;
  return 0;
}

// Commands that stand for a letter or a sign by themselves.
const char* named_symbol(std::string_view name) {
  struct Sym {
    std::string_view name;
    const char* text;
  };
  static constexpr std::array<Sym, 18> table{{
      {"ss", "ß"},
      {"o", "ø"},
      {"O", "Ø"},
      {"aa", "å"},
      {"AA", "Å"},
      {"ae", "æ"},
      {"AE", "Æ"},
      {"oe", "œ"},
      {"OE", "Œ"},
      {"l", "ł"},
      {"L", "Ł"},
      {"i", "ı"},
      {"j", "ȷ"},
      {"dh", "ð"},
      {"th", "þ"},
      {"TeX", "TeX"},
      {"LaTeX", "LaTeX"},
      {"textendash", "–"},
  }};
  for (const auto& s : table)
    if (s.name == name) return s.text;
  if (name == "textemdash") return "—";
  return nullptr;
}

class Converter {
 public:
  explicit Converter(std::string_view s) : s_(s) {}

  std::string run() {
    while (i_ < s_.size()) step();
    return out_;
  }

 private:
  void step() {
    const char c = s_[i_];
    if (c == '{' || c == '}') {
      ++i_;
    } else if (c == '\\') {
      command();
    } else if (c == '~') {
      out_ += "\u00A0";
      ++i_;
    } else if (c == '-' && s_.substr(i_, 3) == "---") {
      out_ += "—";
      i_ += 3;
    } else if (c == '-' && s_.substr(i_, 2) == "--") {
      out_ += "–";
      i_ += 2;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      // Runs of white space, line breaks included, are one space, as TeX reads them.
      if (!out_.empty() && out_.back() != ' ') out_ += ' ';
      ++i_;
    } else {
      out_ += c;
      ++i_;
    }
  }

  void command() {
    ++i_;  // the backslash
    if (i_ >= s_.size()) return;
    const char c = s_[i_];
    if (std::string_view("&%$#_{}").find(c) != std::string_view::npos) {
      out_ += c;
      ++i_;
      return;
    }
    if (c == ' ' || c == '\\') {
      out_ += ' ';
      ++i_;
      return;
    }
    std::size_t start = i_;
    if (std::isalpha(static_cast<unsigned char>(c))) {
      while (i_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[i_]))) ++i_;
    } else {
      ++i_;
    }
    const std::string_view name = s_.substr(start, i_ - start);
    const char32_t mark = name.size() == 1 ? combining_mark(name[0]) : 0;
    if (mark) return accent(mark);
    if (const char* sym = named_symbol(name)) {
      out_ += sym;
      if (std::isalpha(static_cast<unsigned char>(name[0]))) skip_space_after_word();
      return;
    }
    skip_space_after_word();  // `\emph{x}` → `x`: the argument is read as text
  }

  void skip_space_after_word() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }

  // The letter after an accent: `\'e`, `\'{e}`, `\' e`, `\'{\i}`.
  void accent(char32_t mark) {
    skip_space_after_word();
    bool braced = i_ < s_.size() && s_[i_] == '{';
    if (braced) ++i_;
    char32_t letter = 0;
    if (i_ < s_.size() && s_[i_] == '\\' && s_.substr(i_, 2) == "\\i") {
      letter = 'i';
      i_ += 2;
    } else if (i_ < s_.size() && static_cast<unsigned char>(s_[i_]) < 0x80 && s_[i_] != '}') {
      letter = static_cast<unsigned char>(s_[i_++]);
    }
    if (braced && i_ < s_.size() && s_[i_] == '}') ++i_;
    if (!letter) return;
    if (char32_t p = precomposed(letter, mark)) {
      append_utf8(out_, p);
    } else {
      append_utf8(out_, letter);
      append_utf8(out_, mark);
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
  std::string out_;
};

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == ',')) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && s[b] == ' ') ++b;
  return s.substr(b);
}

// Splits `s` at `sep` where the brace depth is 0.
std::vector<std::string_view> split_top(std::string_view s, auto is_sep) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '{') ++depth;
    if (s[i] == '}' && depth > 0) --depth;
    if (depth == 0) {
      if (const std::size_t n = is_sep(s, i)) {
        parts.push_back(s.substr(start, i - start));
        start = i + n;
        i += n - 1;
      }
    }
  }
  parts.push_back(s.substr(start));
  return parts;
}

Name one_name(std::string_view raw) {
  auto commas = split_top(raw, [](std::string_view s, std::size_t i) -> std::size_t { return s[i] == ','; });
  Name n;
  if (commas.size() >= 2) {  // "Last, First" or "Last, Jr., First"
    n.family = trim(latex_to_text(commas[0]));
    n.given = trim(latex_to_text(commas.back()));
    return n;
  }
  auto words = split_top(raw, [](std::string_view s, std::size_t i) -> std::size_t {
    return std::isspace(static_cast<unsigned char>(s[i])) ? 1 : 0;
  });
  std::erase_if(words, [](std::string_view w) { return w.empty(); });
  if (words.empty()) return n;
  // "First von Last": the family name starts at the first word in lower case ("van", "de"), else it is
  // the last word.
  std::size_t family = words.size() - 1;
  for (std::size_t w = 1; w + 1 < words.size(); ++w)
    if (std::islower(static_cast<unsigned char>(words[w][0]))) {
      family = w;
      break;
    }
  std::string given, last;
  for (std::size_t w = 0; w < words.size(); ++w) {
    std::string& into = w < family ? given : last;
    if (!into.empty()) into += ' ';
    into += words[w];
  }
  n.family = trim(latex_to_text(last));
  n.given = trim(latex_to_text(given));
  return n;
}

}  // namespace

std::string latex_to_text(std::string_view raw) {
  std::string s = Converter(raw).run();
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s.starts_with(' ') ? s.substr(1) : s;
}

std::vector<Name> split_names(std::string_view raw, bool& more) {
  auto parts = split_top(raw, [](std::string_view s, std::size_t i) -> std::size_t {
    // " and " between white space, in any case.
    if (!std::isspace(static_cast<unsigned char>(s[i])) || i + 5 > s.size()) return 0;
    const std::string_view w = s.substr(i + 1, 3);
    const bool is_and =
        (w[0] == 'a' || w[0] == 'A') && (w[1] == 'n' || w[1] == 'N') && (w[2] == 'd' || w[2] == 'D');
    return is_and && std::isspace(static_cast<unsigned char>(s[i + 4])) ? 5 : 0;
  });
  std::vector<Name> names;
  more = false;
  for (auto p : parts) {
    std::string t = trim(std::string(p));
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
    if (t == "others") {
      more = true;
      continue;
    }
    Name n = one_name(t);
    if (!n.family.empty() || !n.given.empty()) names.push_back(std::move(n));
  }
  return names;
}

}  // namespace bb::bib
