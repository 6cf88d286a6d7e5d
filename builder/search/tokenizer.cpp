// The search tokeniser's ICU side (normalisation and the fold of one code point, asked once per code
// point and process), the stored form of text, and the tokeniser's entry points (tokenizer.hpp).
#include "search/tokenizer.hpp"

#include <unicode/bytestream.h>
#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <stdexcept>

namespace bb::search {

using namespace detail;

namespace {

const icu::Normalizer2& normalizer(bool compat) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* n =
      compat ? icu::Normalizer2::getNFKCInstance(status) : icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status) || n == nullptr) throw std::runtime_error("ICU normalizer unavailable");
  return *n;
}

bool is_nfc(std::string_view utf8) {
  UErrorCode status = U_ZERO_ERROR;
  icu::StringPiece piece(utf8.data(), static_cast<int32_t>(utf8.size()));
  return normalizer(false).isNormalizedUTF8(piece, status) && U_SUCCESS(status);
}

// NFC of UTF-8 text that is not NFC already.
std::string nfc_of(std::string_view utf8) {
  UErrorCode status = U_ZERO_ERROR;
  icu::StringPiece piece(utf8.data(), static_cast<int32_t>(utf8.size()));
  std::string out;
  icu::StringByteSink<std::string> sink(&out, static_cast<int32_t>(utf8.size()));
  normalizer(false).normalizeUTF8(0, piece, sink, nullptr, status);
  if (U_FAILURE(status)) throw std::runtime_error("ICU NFC normalization failed");
  return out;
}

// NFC of UTF-8 text, without a round trip through UTF-16 when it already is (nearly always): `buffer`
// holds the normalised text only when it differs.
std::string_view nfc(std::string_view utf8, std::string& buffer) {
  if (is_nfc(utf8)) return utf8;
  buffer = nfc_of(utf8);
  return buffer;
}

// lowercase(NFKC(c)) for one code point, straight from ICU.
std::u32string fold_char_icu(char32_t c) {
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString s(static_cast<UChar32>(c));
  icu::UnicodeString k = normalizer(true).normalize(s, status);
  if (U_FAILURE(status)) k = s;
  // The root locale's full lowercase mapping is JavaScript's String.prototype.toLowerCase.
  k.toLower(icu::Locale::getRoot());
  std::u32string folded;
  for (int32_t i = 0; i < k.length();) {
    UChar32 cp = k.char32At(i);
    folded += static_cast<char32_t>(cp);
    i += U16_LENGTH(cp);
  }
  return folded;
}

// Whether a non-ASCII code point is white space or a control character (the stored form drops them).
void white_or_control(char32_t c, bool& white, bool& control) {
  if (c >= 0x3400 && c < 0xD800) {  // CJK and Hangul blocks: neither, without a table read
    white = control = false;
    return;
  }
  if (c < 0x10000) {
    const std::uint32_t v = char_table().bmp(c);
    white = (v & CharTable::kWhite) != 0;
    control = (v & CharTable::kControl) != 0;
    return;
  }
  const CharInfo& info = char_table().slow(c);
  white = info.white;
  control = info.control;
}

}  // namespace

namespace detail {

CharInfo char_info_icu(char32_t c) {
  CharInfo info;
  info.white = u_isUWhiteSpace(static_cast<UChar32>(c));
  info.control = u_iscntrl(static_cast<UChar32>(c));
  std::u32string f = fold_char_icu(c);
  if (f.size() == 1) {
    info.fold = f[0];
    info.cls = class_of(f[0]);
  } else {
    info.longer = std::move(f);
  }
  return info;
}

constinit std::array<std::atomic<std::uint32_t>, 0x10000> CharTable::bmp_{};

CharTable& char_table() {
  static CharTable table;
  return table;
}

}  // namespace detail

// Appends the stored form of a text: NFC with runs of white space collapsed to one space, control
// characters dropped, trimmed; ill-formed UTF-8 becomes U+FFFD. Runs of kept bytes are copied as
// they are.
void append_stored_form(std::string_view utf8, std::string& out) {
  std::string buffer;
  const std::string_view in = nfc(utf8, buffer);
  const std::size_t start = out.size();
  bool space = false;   // white space seen since the last kept character
  std::size_t run = 0;  // start of the kept bytes not yet copied
  auto keep_run = [&](std::size_t end) {
    if (end == run) return;
    if (space) out += ' ';
    space = false;
    out.append(in.data() + run, end - run);
  };
  for (std::size_t i = 0, n = in.size(); i < n;) {
    const auto byte = static_cast<unsigned char>(in[i]);
    bool white = false, control = false;
    std::size_t length = 1;
    if (byte < 0x80) {
      if (byte > 0x20 && byte != 0x7F) {
        ++i;
        continue;
      }
      white = byte == ' ' || (byte >= 0x09 && byte <= 0x0D) || byte == 0;
      control = !white;
    } else {
      const char32_t c = text::decode_utf8(in, i, length);
      if (c == 0xFFFD && length == 1) {  // ill-formed: U+FFFD for this byte
        keep_run(i);
        if (space) out += ' ';
        space = false;
        out += "\xEF\xBF\xBD";
        run = ++i;
        continue;
      }
      white_or_control(c, white, control);
      if (!white && !control) {
        i += length;
        continue;
      }
    }
    keep_run(i);
    if (white) space = out.size() > start;
    i += length;
    run = i;
  }
  keep_run(in.size());
}

std::string stored_form(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  append_stored_form(utf8, out);
  return out;
}

bool is_word_char(char32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
  if (text::is_cjk_letter(c)) return false;
  return (U_GET_GC_MASK(static_cast<UChar32>(c)) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_M_MASK)) != 0;
}

const char* token_kind_name(TokenKind k) {
  switch (k) {
    case TokenKind::Word: return "word";
    case TokenKind::Bigram: return "bigram";
    case TokenKind::Unigram: return "unigram";
  }
  return "?";
}

std::u32string fold(std::string_view utf8) {
  std::string buffer;
  std::u32string out;
  out.reserve(utf8.size());
  for_each_folded(nfc(utf8, buffer), [&](char32_t c, CharClass) { out += c; });
  return out;
}

std::vector<Token> tokenize(std::string_view utf8) {
  std::vector<Token> out;
  std::string buffer;
  std::u32string word;
  scan(
      nfc(utf8, buffer), word,
      [&](std::u32string_view w) {
        out.push_back({text::to_utf8(w), TokenKind::Word});
      },
      [&](char32_t first, char32_t second) {
        std::string t;
        text::append_utf8(t, first);
        if (second != 0) text::append_utf8(t, second);
        out.push_back({std::move(t), second != 0 ? TokenKind::Bigram : TokenKind::Unigram});
      });
  return out;
}

}  // namespace bb::search
