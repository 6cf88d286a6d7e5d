// The built-in citation styles (style.hpp).
#include "bib/style.hpp"

#include <algorithm>
#include <cctype>

#include "text/url.hpp"

namespace bb::bib {

using doc::Kind;
using doc::Node;

namespace {

Node text(std::string s, const SourceLoc& at) {
  Node n(Kind::Text, at);
  n.text = std::move(s);
  return n;
}

void add_text(std::vector<Node>& out, const std::string& s, const SourceLoc& at) {
  if (s.empty()) return;
  if (!out.empty() && out.back().kind == Kind::Text)
    out.back().text += s;
  else
    out.push_back(text(s, at));
}

// "Smith, John. " but "Brown, Anne et al. ", "n.d. ": one full stop.
std::string sentence(const std::string& s) {
  return s.ends_with('.') ? s + " " : s + ". ";
}

void end_sentence(std::vector<Node>& out, const SourceLoc& at) {
  if (!out.empty() && out.back().kind == Kind::Text)
    while (out.back().text.ends_with(' ')) out.back().text.pop_back();
  if (out.empty() || out.back().kind != Kind::Text || !out.back().text.ends_with('.')) add_text(out, ".", at);
}

Node emph(const std::string& s, const SourceLoc& at) {
  Node n(Kind::Emph, at);
  n.children.push_back(text(s, at));
  return n;
}

std::string fill(const std::string& pattern, const std::string& value) {
  std::string out = pattern;
  if (auto p = out.find("{}"); p != std::string::npos) out.replace(p, 2, value);
  return out;
}

std::string year(const Entry& e, const Words& w) {
  const std::string& y = e.field("year");
  return y.empty() ? w.no_date : y;
}

// The locator of a suffix typed ", p. 33" / ", pp. 33-35" / ", 33": its number, or "" when the suffix
// is other text.
std::string locator(const std::string& suffix, bool& plural) {
  std::string_view s = suffix;
  if (!s.starts_with(',')) return {};
  s.remove_prefix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  for (std::string_view term : {"pp.", "p.", "pages", "page"})
    if (s.starts_with(term)) {
      s.remove_prefix(term.size());
      while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
      break;
    }
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s.front()))) return {};
  std::string out;
  for (char c : s) out += c == '-' ? std::string("–") : std::string(1, c);
  plural = out.find("–") != std::string::npos || out.find(',') != std::string::npos;
  return out;
}

// What follows the key in the citation: ", 33" (author-date) or ", p. 33" (numeric), or the suffix.
std::string after_key(const std::string& suffix, Style style, const Words& w) {
  if (suffix.empty()) return {};
  bool plural = false;
  const std::string loc = locator(suffix, plural);
  if (!loc.empty()) return ", " + (style == Style::Numeric ? fill(plural ? w.pages : w.page, loc) : loc);
  return suffix.front() == ',' ? suffix : " " + suffix;
}

std::string initials(const std::string& given) {
  std::string out;
  bool start = true;
  for (std::size_t i = 0; i < given.size(); ++i) {
    const char c = given[i];
    if (c == ' ' || c == '-') {
      start = true;
      if (c == '-' && !out.empty()) out += '-';
      continue;
    }
    if (!start) continue;
    start = false;
    // The first character, whole (a UTF-8 letter is several bytes).
    std::size_t n = 1;
    while (i + n < given.size() && (static_cast<unsigned char>(given[i + n]) & 0xC0) == 0x80) ++n;
    if (!out.empty() && out.back() != '-') out += ' ';
    out += given.substr(i, n) + ".";
  }
  return out;
}

std::string full_name(const Name& n, bool inverted, bool short_given) {
  const std::string given = short_given ? initials(n.given) : n.given;
  if (given.empty()) return n.family;
  return inverted ? n.family + ", " + given : given + " " + n.family;
}

// "Smith, John, Ann Lee, and Bo Kim" (author-date) or "J. Smith, A. Lee, and B. Kim" (numeric).
std::string name_list(const std::vector<Name>& names, bool more, Style style, const Words& w) {
  std::string out;
  const bool numeric = style == Style::Numeric;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0)
      // "Smith, John, and Ann Lee" once the first is inverted; "J. Smith and A. Lee".
      out += names.size() == 2 && !more && numeric ? " " + w.and_ + " "
             : i + 1 == names.size() && !more      ? ", " + w.and_ + " "
                                                   : ", ";
    out += full_name(names[i], !numeric && i == 0, numeric);
  }
  if (more) out += " " + w.et_al;
  return out;
}

}  // namespace

std::string short_names(const Entry& e, const Words& w) {
  const auto& names = e.authors.empty() ? e.editors : e.authors;
  if (names.empty()) return e.field("title");
  if (names.size() >= 3 || e.more_authors) return names[0].family + " " + w.et_al;
  if (names.size() == 2) return names[0].family + " " + w.and_ + " " + names[1].family;
  return names[0].family;
}

std::string sort_key(const Entry& e) {
  std::string k =
      e.authors.empty() ? (e.editors.empty() ? e.field("title") : e.editors[0].family) : e.authors[0].family;
  k += '\x01' + e.field("year") + '\x01' + e.field("title");
  for (auto& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return k;
}

std::vector<Node> Formatter::citation(const Citation& c, const SourceLoc& at) const {
  std::vector<Node> out;
  auto linked = [&](const std::string& key, const std::string& shown) {
    std::vector<Node> inner;
    inner.push_back(text(shown, at));
    out.push_back(link(key, std::move(inner)));
  };
  if (c.in_text) {  // "Smith (2020)", "Smith [1]"
    const CiteItem& item = c.items.front();
    const Entry& e = *bibliography->find(item.key);
    const std::string shown =
        style == Style::Numeric
            ? short_names(e, words) + " [" + std::to_string(number(item.key)) +
                  after_key(item.suffix, style, words) + "]"
            : short_names(e, words) + " (" + year(e, words) + after_key(item.suffix, style, words) + ")";
    linked(item.key, shown);
    return out;
  }
  if (style == Style::AuthorDate) {
    add_text(out, "(", at);
    for (std::size_t i = 0; i < c.items.size(); ++i) {
      const CiteItem& item = c.items[i];
      const Entry& e = *bibliography->find(item.key);
      if (i > 0) add_text(out, "; ", at);
      if (!item.prefix.empty()) add_text(out, item.prefix + " ", at);
      linked(item.key, (item.suppress_author ? "" : short_names(e, words) + " ") + year(e, words) +
                           after_key(item.suffix, style, words));
    }
    add_text(out, ")", at);
    return out;
  }
  // Numeric: items without prefix or suffix are sorted and a run of three or more is "[1]–[3]"; the
  // rest are "[1, 4]" together, or one bracket each when one has a page or text of its own.
  const bool plain = std::all_of(c.items.begin(), c.items.end(),
                                 [](const CiteItem& i) { return i.prefix.empty() && i.suffix.empty(); });
  if (!plain) {
    for (std::size_t i = 0; i < c.items.size(); ++i) {
      const CiteItem& item = c.items[i];
      if (i > 0) add_text(out, ", ", at);
      if (!item.prefix.empty()) add_text(out, item.prefix + " ", at);
      linked(item.key, "[" + std::to_string(number(item.key)) + after_key(item.suffix, style, words) + "]");
    }
    return out;
  }
  std::vector<std::pair<int, std::string>> nums;
  for (const auto& item : c.items) nums.emplace_back(number(item.key), item.key);
  std::sort(nums.begin(), nums.end());
  nums.erase(std::unique(nums.begin(), nums.end()), nums.end());
  bool runs = false;
  for (std::size_t i = 0; i + 2 < nums.size(); ++i)
    runs = runs || (nums[i + 1].first == nums[i].first + 1 && nums[i + 2].first == nums[i].first + 2);
  if (nums.size() == 1) {
    linked(nums[0].second, "[" + std::to_string(nums[0].first) + "]");
    return out;
  }
  if (!runs) {
    add_text(out, "[", at);
    for (std::size_t i = 0; i < nums.size(); ++i) {
      if (i > 0) add_text(out, ", ", at);
      linked(nums[i].second, std::to_string(nums[i].first));
    }
    add_text(out, "]", at);
    return out;
  }
  for (std::size_t i = 0; i < nums.size();) {
    std::size_t j = i;
    while (j + 1 < nums.size() && nums[j + 1].first == nums[j].first + 1) ++j;
    if (i > 0) add_text(out, ", ", at);
    linked(nums[i].second, "[" + std::to_string(nums[i].first) + "]");
    if (j >= i + 2) {
      add_text(out, "–", at);
      linked(nums[j].second, "[" + std::to_string(nums[j].first) + "]");
      i = j + 1;
    } else {
      ++i;
    }
  }
  return out;
}

std::vector<Node> Formatter::entry(const Entry& e, int num, const SourceLoc& at) const {
  std::vector<Node> out;
  const bool numeric = style == Style::Numeric;
  const auto& names = e.authors.empty() ? e.editors : e.authors;
  const bool more = e.authors.empty() ? false : e.more_authors;
  const std::string who = name_list(names, more, style, words);
  const std::string& title = e.field("title").empty() ? e.key : e.field("title");
  std::string container = e.field("journal");
  if (container.empty()) container = e.field("booktitle");
  if (numeric) add_text(out, "[" + std::to_string(num) + "] ", at);
  const bool title_first = who.empty() && !numeric && container.empty();  // Chicago: no author, title first
  if (!who.empty()) add_text(out, numeric ? who + ", " : sentence(who), at);
  if (title_first) {
    out.push_back(emph(title, at));
    add_text(out, ". ", at);
  }
  if (!numeric) add_text(out, sentence(year(e, words)), at);
  if (title_first) {
  } else if (!container.empty()) {
    add_text(out, "“" + title + (numeric ? ",” " : ".” "), at);
    if (e.type == "inproceedings" || e.type == "incollection") add_text(out, numeric ? "in " : "In ", at);
    out.push_back(emph(container, at));
  } else {
    out.push_back(emph(title, at));
  }
  std::string pages;
  if (!e.field("pages").empty()) {
    bool plural = false;
    const std::string p = locator(", " + e.field("pages"), plural);
    pages = p.empty() ? e.field("pages") : p;
    if (numeric) pages = fill(plural ? words.pages : words.page, pages);
  }
  std::vector<std::string> publishing;
  for (const char* f :
       {"edition", "howpublished", "institution", "school", "organization", "publisher", "note"})
    if (!e.field(f).empty()) publishing.push_back(e.field(f));
  if (numeric) {
    // IEEE: everything after the title, separated by commas, the year last.
    std::vector<std::string> details;
    if (!e.field("volume").empty()) details.push_back("vol. " + e.field("volume"));
    if (!e.field("number").empty()) details.push_back("no. " + e.field("number"));
    if (!pages.empty()) details.push_back(pages);
    details.insert(details.end(), publishing.begin(), publishing.end());
    details.push_back(year(e, words));
    for (const auto& d : details) add_text(out, ", " + d, at);
    end_sentence(out, at);
  } else {
    // Chicago: a journal's volume (number): pages; otherwise the pages after a comma; then the publisher.
    if (e.type == "article" && !e.field("volume").empty()) {
      add_text(out, " " + e.field("volume"), at);
      if (!e.field("number").empty()) add_text(out, " (" + e.field("number") + ")", at);
      if (!pages.empty()) add_text(out, ": " + pages, at);
    } else {
      if (!e.field("number").empty()) add_text(out, ", no. " + e.field("number"), at);
      if (!pages.empty()) add_text(out, ", " + pages, at);
    }
    end_sentence(out, at);
    for (const auto& d : publishing) add_text(out, " " + d + ".", at);
  }
  std::string url = e.field("url");
  if (!e.field("doi").empty()) url = "https://doi.org/" + e.field("doi");
  const auto scheme = text::url_scheme(url);
  if (!url.empty() && (scheme == "https" || scheme == "http")) {
    add_text(out, " ", at);
    Node address(Kind::Link, at);
    address.rare().url = url;
    address.set_attr("dest", "url");
    address.children.push_back(text(url, at));
    out.push_back(std::move(address));
  }
  return out;
}

}  // namespace bb::bib
