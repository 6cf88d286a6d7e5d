// Token extraction and the normalisations of the pandoc peer comparison.
#include "tokens.hpp"

#include <cstring>
#include <map>

#include "math/unicode.hpp"

namespace bb::math::test {

namespace {

struct RawToken {
  std::string tag;  // mi mn mo mtext, or "space" for <mspace>
  std::string text;
};

void flatten(const pugi::xml_node& node, std::vector<RawToken>& out) {
  for (pugi::xml_node child : node.children()) {
    if (child.type() != pugi::node_element) continue;
    const std::string name = child.name();
    if (name == "annotation" || name == "annotation-xml") continue;
    if (name == "mi" || name == "mn" || name == "mo" || name == "mtext") {
      std::string text;
      for (pugi::xml_node t : child.children())
        if (t.type() == pugi::node_pcdata || t.type() == pugi::node_cdata) text += t.value();
      out.push_back({name, text});
    } else if (name == "mspace") {
      out.push_back({"space", child.attribute("width").value()});
    } else {
      flatten(child, out);
    }
  }
}

std::u32string decode(const std::string& s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t length = 1;
    out += decode_utf8(s, i, length);
    i += length;
  }
  return out;
}

std::string encode(const std::u32string& s) {
  std::string out;
  for (char32_t c : s) append_utf8(out, c);
  return out;
}

// Characters that are the same symbol written two ways. Each entry says why.
const std::map<char32_t, char32_t>& equivalents() {
  static const std::map<char32_t, char32_t> table = [] {
    std::map<char32_t, char32_t> m;
    // pandoc writes \mathbf x, \mathbb R ... as Mathematical Alphanumeric Symbols inside an
    // <mstyle mathvariant>; we write the same characters without the mstyle. Both become ASCII.
    for (Alphabet a : {Alphabet::Bold, Alphabet::Italic, Alphabet::BoldItalic, Alphabet::Script,
                       Alphabet::Fraktur, Alphabet::DoubleStruck, Alphabet::SansSerif, Alphabet::Monospace}) {
      const auto add = [&](char32_t c) {
        const char32_t s = styled(c, a);
        if (s != c) m[s] = c;
      };
      for (char32_t c = 'A'; c <= 'Z'; ++c) add(c);
      for (char32_t c = 'a'; c <= 'z'; ++c) add(c);
      for (char32_t c = '0'; c <= '9'; ++c) add(c);
      for (char32_t c = 0x391; c <= 0x3C9; ++c) add(c);
    }
    // Accents: pandoc uses combining marks (U+0302 ...), we use the spacing forms that MathML
    // recommends for <mover>; \bar is U+203E in pandoc and U+00AF for us.
    m[0x0302] = '^';
    m[0x02C6] = '^';
    m[0x0303] = '~';
    m[0x02DC] = '~';
    m[0x203E] = 0x00AF;
    m[0x0304] = 0x00AF;
    m[0x20D7] = 0x2192;
    m[0x0307] = 0x02D9;
    m[0x0308] = 0x00A8;
    m[0x030C] = 0x02C7;
    m[0x0306] = 0x02D8;
    m[0x0301] = 0x00B4;
    m[0x0300] = '`';
    // pandoc 2.17 (texmath) maps \Longrightarrow, \Longleftrightarrow ... to the short arrows.
    m[0x27F9] = 0x21D2;
    m[0x27F8] = 0x21D0;
    m[0x27FA] = 0x21D4;
    m[0x27F6] = 0x2192;
    m[0x27F5] = 0x2190;
    // \| and \lVert: pandoc uses PARALLEL TO U+2225, we use DOUBLE VERTICAL LINE U+2016 (a norm).
    m[0x2016] = 0x2225;
    // * and \ast: pandoc keeps ASCII *, we use ASTERISK OPERATOR U+2217.
    m[0x2217] = '*';
    // \leqslant, \geqslant: pandoc 2.17 writes the plain ≤ ≥, we the slanted forms unicode-math prints.
    m[0x2A7D] = 0x2264;
    m[0x2A7E] = 0x2265;
    return m;
  }();
  return table;
}

// Ordinary symbols that TeX classes as "ord" but that MathML writers put in <mi> or <mo>
// differently (pandoc: \ell and \forall in <mo>, \ldots and \infty in <mi>): compared by text only.
bool is_ordinary_symbol(const std::string& text) {
  static const char* const kSymbols[] = {"∞", "…", "⋯", "%", "#", "/", ".", "ℓ", "∣", "|",  "∀",
                                         "∃", "∖", "*", "¬", "∅", "∂", "∇", "∥", "_", "\\", "⋮",
                                         "⋱", "$", "&", "ℵ", "ℜ", "ℑ", "℘", "†", "‡", "□",  "■"};
  for (const char* s : kSymbols)
    if (text == s) return true;
  return false;
}

int prime_count(const std::u32string& text) {
  int n = 0;
  for (char32_t c : text) {
    if (c == 0x2032)
      n += 1;
    else if (c == 0x2033)
      n += 2;
    else if (c == 0x2034)
      n += 3;
    else if (c == 0x2057)
      n += 4;
    else
      return -1;
  }
  return text.empty() ? -1 : n;
}

bool all_of(const std::u32string& s, bool (*pred)(char32_t)) {
  if (s.empty()) return false;
  for (char32_t c : s)
    if (!pred(c)) return false;
  return true;
}

bool is_ascii_letter(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_cjk_char(char32_t c) {
  return is_cjk(c);
}
bool is_ascii_digit(char32_t c) {
  return c >= '0' && c <= '9';
}

}  // namespace

TokenStream tokens_of(const pugi::xml_node& math) {
  std::vector<RawToken> raw;
  flatten(math, raw);

  // pandoc writes 33\,554\,432 as <mn>33</mn><mspace width="0.167em"/><mn>554</mn>...; we write
  // one <mn>, as TeX reads one quantity. Rejoin digit groups separated by a thin space.
  for (std::size_t i = 0; i + 2 < raw.size(); ++i) {
    const std::u32string next = decode(raw[i + 2].text);
    if (raw[i].tag == "mn" && raw[i + 1].tag == "space" && raw[i + 1].text == "0.167em" &&
        raw[i + 2].tag == "mn" && next.size() == 3 && all_of(next, is_ascii_digit)) {
      raw[i].text += "\u2009" + raw[i + 2].text;
      raw.erase(raw.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                raw.begin() + static_cast<std::ptrdiff_t>(i) + 3);
      --i;
    }
  }

  TokenStream stream;
  for (const RawToken& r : raw) {
    if (r.tag == "space") continue;
    std::u32string text;
    for (char32_t c : decode(r.text)) {
      // Invisible operators (FUNCTION APPLICATION, INVISIBLE TIMES ...) are ours only; spaces
      // inside tokens differ in width and kind (lim sup, 33 554 432, edges of \text).
      if ((c >= 0x2061 && c <= 0x2064) || c == ' ' || c == 0x00A0 || c == 0x2009 || c == '\n' || c == '\t')
        continue;
      const auto& eq = equivalents();
      const auto it = eq.find(c);
      text += it == eq.end() ? c : it->second;
    }
    if (text.empty()) continue;
    if (const int primes = prime_count(text); primes > 0) {
      // pandoc attaches x'_0 as x, msub(′, 0); TeX (and we) attach both scripts to x. So primes
      // are counted rather than placed.
      stream.primes += primes;
      continue;
    }
    Token t{r.tag == "mi" ? 'i' : r.tag == "mn" ? 'n' : r.tag == "mo" ? 'o' : 't', encode(text)};
    if (all_of(text, is_cjk_char)) t.kind = 't';  // pandoc: CJK typed in math is <mi>; ours <mtext>
    if (text.size() > 1 && all_of(text, is_ascii_letter) && t.kind == 'o')
      t.kind = 'i';  // pandoc: \sin, \max, \operatorname{f} as <mo>; ours <mi> with U+2061
    if (is_ordinary_symbol(t.text)) t.kind = 's';
    // Letters are compared as one stream: pandoc splits \mathrm{FLOPs} into five <mi>, we keep
    // the word in one <mi>.
    if (!stream.tokens.empty() && stream.tokens.back().kind == t.kind && (t.kind == 'i' || t.kind == 't')) {
      stream.tokens.back().text += t.text;
      continue;
    }
    stream.tokens.push_back(std::move(t));
  }
  return stream;
}

TokenStream tokens_of(const std::string& xml, bool& ok) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed =
      doc.load_buffer(xml.data(), xml.size(), pugi::parse_default, pugi::encoding_utf8);
  ok = static_cast<bool>(parsed) && doc.child("math");
  return ok ? tokens_of(doc.child("math")) : TokenStream{};
}

std::string describe(const TokenStream& stream) {
  std::string out;
  for (const Token& t : stream.tokens) {
    out += t.kind;
    out += ':';
    out += t.text;
    out += ' ';
  }
  out += "primes=" + std::to_string(stream.primes);
  return out;
}

}  // namespace bb::math::test
