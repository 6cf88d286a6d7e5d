// Pandoc's citation syntax (citation.hpp).
#include "bib/citation.hpp"

#include <cctype>

namespace bb::bib {

namespace {

bool key_start(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

std::string trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

bool is_crossref_key(std::string_view key) {
  for (std::string_view p : {"fig:", "sec:", "tbl:", "eq:", "ch:", "ex:", "exp:"})
    if (key.starts_with(p)) return true;
  return false;
}

std::size_t key_length(std::string_view s) {
  if (s.empty() || !key_start(s[0])) return 0;
  std::size_t end = 1, i = 1;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (key_start(c)) {
      end = i + 1;
    } else if (std::string_view(":.#$%&-+?<>~/").find(c) == std::string_view::npos) {
      break;
    }
  }
  return end;
}

std::optional<Citation> parse_bracketed(std::string_view inside) {
  Citation c;
  std::size_t start = 0;
  while (start <= inside.size()) {
    std::size_t semi = inside.find(';', start);
    if (semi == std::string_view::npos) semi = inside.size();
    const std::string_view part = inside.substr(start, semi - start);
    // The item's key: the first `@` at the start of a word.
    std::size_t at = std::string_view::npos;
    for (std::size_t i = 0; i < part.size(); ++i)
      if (part[i] == '@' && (i == 0 || part[i - 1] == ' ' || part[i - 1] == '-')) {
        at = i;
        break;
      }
    if (at == std::string_view::npos) return std::nullopt;
    const std::size_t n = key_length(part.substr(at + 1));
    if (n == 0) return std::nullopt;
    CiteItem item;
    item.key = std::string(part.substr(at + 1, n));
    if (is_crossref_key(item.key)) return std::nullopt;
    std::size_t before = at;
    if (before > 0 && part[before - 1] == '-') {
      item.suppress_author = true;
      --before;
    }
    item.prefix = trimmed(part.substr(0, before));
    item.suffix = trimmed(part.substr(at + 1 + n));
    c.items.push_back(std::move(item));
    start = semi + 1;
  }
  if (c.items.empty()) return std::nullopt;
  return c;
}

std::vector<FoundCitation> find_citations(std::string_view t) {
  std::vector<FoundCitation> out;
  for (std::size_t i = 0; i < t.size();) {
    const char c = t[i];
    if (c == '[') {
      // The nearest `]` or `[` within the window: a `[` restarts there, so a long run stays linear.
      const std::size_t end = t.substr(0, std::min(t.size(), i + 1000)).find_first_of("[]", i + 1);
      if (end != std::string_view::npos && t[end] == ']') {
        const std::string_view inside = t.substr(i + 1, end - i - 1);
        if (inside.find('@') != std::string_view::npos)
          if (auto cite = parse_bracketed(inside)) {
            out.push_back({i, end + 1 - i, std::move(*cite)});
            i = end + 1;
            continue;
          }
      }
      i = end != std::string_view::npos && t[end] == '[' ? end : i + 1;
      continue;
    }
    if (c == '@') {
      const bool word_before =
          i > 0 && (std::isalnum(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '_' ||
                    t[i - 1] == '.' || t[i - 1] == '@' || t[i - 1] == '-');
      const std::size_t n = word_before ? 0 : key_length(t.substr(i + 1));
      if (n > 0 && !is_crossref_key(t.substr(i + 1, n))) {
        Citation cite;
        cite.in_text = true;
        cite.items.push_back({std::string(t.substr(i + 1, n)), "", "", false});
        out.push_back({i, n + 1, std::move(cite)});
        i += n + 1;
        continue;
      }
    }
    ++i;
  }
  return out;
}

}  // namespace bb::bib
