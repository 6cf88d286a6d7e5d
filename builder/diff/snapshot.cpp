// Taking a revision's numbers (diff/snapshot.hpp): the resolution's bindings, the numbers check's typed
// and cited numbers, and a walk of each resolved chapter for numbered elements, references and charts.
#include "diff/snapshot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <tuple>

#include "check/typed_numbers.hpp"
#include "doc/tree.hpp"
#include "inputs/file_io.hpp"

namespace bb::diff {

namespace fs = std::filesystem;

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::Computed: return "computed";
    case Kind::Bound: return "bound";
    case Kind::BoundSource: return "bound-source";
    case Kind::Cited: return "cited";
    case Kind::Typed: return "typed";
    case Kind::Chart: return "chart";
    case Kind::Numbered: return "numbered";
    case Kind::CrossRef: return "crossref";
  }
  return "?";
}

namespace {

bool digit(char c) {
  return c >= '0' && c <= '9';
}

// The first number written in `text`: digits, the locale's group separators (and any space before three
// digits where the decimal mark is a comma), one decimal mark.
std::optional<std::pair<double, double>> first_number(std::string_view t, const book::NumberLocale& locale) {
  std::size_t i = 0;
  while (i < t.size() && !digit(t[i])) ++i;
  if (i == t.size()) return std::nullopt;
  const bool comma_decimal = locale.decimal == ",";
  auto three_digits = [&](std::size_t at) {
    return at + 3 <= t.size() && digit(t[at]) && digit(t[at + 1]) && digit(t[at + 2]) &&
           (at + 3 == t.size() || !digit(t[at + 3]));
  };
  std::string plain;
  int decimals = -1;
  while (i < t.size()) {
    if (digit(t[i])) {
      plain += t[i++];
      if (decimals >= 0) ++decimals;
      continue;
    }
    if (decimals < 0 && i + 1 < t.size() && digit(t[i + 1]) &&
        (t[i] == '.' || (comma_decimal && t[i] == ','))) {
      plain += '.';
      decimals = 0;
      ++i;
      continue;
    }
    std::size_t sep = 0;
    for (std::string_view g :
         {std::string_view(locale.group), std::string_view(comma_decimal ? " " : ","),
          std::string_view("\u00A0"), std::string_view("\u202F"), std::string_view("\u2009")})
      if (!g.empty() && t.substr(i).starts_with(g) && three_digits(i + g.size())) sep = g.size();
    if (decimals >= 0 || sep == 0) break;
    i += sep;
  }
  const double value = std::strtod(plain.c_str(), nullptr);
  return std::make_pair(value, 0.5 * std::pow(10.0, -std::max(decimals, 0)));
}

}  // namespace

std::optional<Reading> read_number(std::string_view text, const book::NumberLocale& locale) {
  auto raw = first_number(text, locale);
  if (!raw) return std::nullopt;
  Reading r{raw->first, raw->second, Reading::kUnknownDim, raw->first, raw->second};
  if (auto n = check::read_literal(text, SourceLoc{}, locale)) {
    r.value = n->value;
    r.half_step = n->half_step;
    r.dim = static_cast<int>(n->dim);
  }
  return r;
}

namespace {

// A calculation data file larger than this is not compared (results are a few KiB each).
constexpr std::size_t kMaxDataFile = std::size_t{16} << 20;

std::string from_root(const fs::path& p, const fs::path& root) {
  return p.lexically_relative(root).generic_string();
}

// The first characters of a text, for an identity that must not grow with a long caption.
std::string head_of(std::string s, std::size_t n = 80) {
  if (s.size() <= n) return s;
  std::size_t cut = n;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  s.resize(cut);
  return s + "…";
}

class Taker {
 public:
  Taker(const book::Book& book, Snapshot& s) : book_(book), s_(s) {}

  void chapters() {
    for (const auto& eb : book_.editions) {
      s_.editions.push_back(eb.edition.id);
      for (std::size_t i = 0; i < eb.chapters.size(); ++i) {
        const auto& c = eb.chapters[i];
        ChapterItems ci{eb.edition.id, c.key, from_root(c.path, book_.config.root), c.title, i, {}};
        by_file_[ci.file] = s_.chapters.size();
        locale_[ci.file] = &eb.edition.numbers;
        s_.chapters.push_back(std::move(ci));
        walk_tree(c.root, s_.chapters.back());
      }
    }
  }

  void bindings(const std::vector<filters::Binding>& bindings) {
    for (const auto& b : bindings) {
      ChapterItems* c = chapter_of(b.loc);
      if (!c) continue;
      if (!b.literal) {
        add(*c, Kind::Computed, b.expr, b.shown, b.expr, b.loc);
        continue;
      }
      add(*c, Kind::Bound, b.expr, b.shown, b.expr, b.loc);
      if (!b.recomputed.empty()) add(*c, Kind::BoundSource, b.expr, b.recomputed, b.expr, b.loc);
    }
  }

  void numbers(const check::NumbersReport& r) {
    for (const auto* list : {&r.unbound, &r.typed})
      for (const auto& u : *list)
        if (ChapterItems* c = chapter_of(u.loc)) add(*c, Kind::Typed, u.text, u.text, "number", u.loc);
    for (const auto* list : {&r.citations.checked, &r.citations.mismatches})
      for (const auto& e : *list) {
        ChapterItems* c = chapter_of(e.loc);
        if (!c || e.result.empty()) continue;
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.10g", e.value);
        const std::string field = e.result + "#" + e.field;
        add(*c, Kind::Cited, field, buf, e.text + " cites " + field, e.loc);
      }
  }

  void calculations() {
    const fs::path& dir = book_.config.calculations;
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec)) return;
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::none, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;  // links are not followed: the data is the book's own
      const auto ext = it->path().extension();
      if (ext != ".json" && ext != ".toml") continue;
      auto read = inputs::read_bounded(it->path(), kMaxDataFile);
      if (read.ok()) s_.calculations[from_root(it->path(), book_.config.root)] = std::move(read.bytes);
    }
  }

  void sort() {
    for (auto& c : s_.chapters)
      std::stable_sort(c.items.begin(), c.items.end(), [](const Item& a, const Item& b) {
        return std::tie(a.kind, a.line, a.col) < std::tie(b.kind, b.line, b.col);
      });
  }

 private:
  ChapterItems* chapter_of(const SourceLoc& loc) {
    auto it = by_file_.find(from_root(loc.path, book_.config.root));
    return it == by_file_.end() ? nullptr : &s_.chapters[it->second];
  }

  void add(ChapterItems& c, Kind kind, std::string identity, std::string value, std::string what,
           const SourceLoc& loc) {
    Item item{kind, std::move(identity), std::move(value), std::move(what), loc.line, loc.col, std::nullopt};
    if (kind != Kind::Numbered && kind != Kind::CrossRef)
      item.reading = read_number(item.value, *locale_[c.file]);
    c.items.push_back(std::move(item));
  }

  // Numbered elements, `@label` references and charts, in one walk of a resolved chapter.
  void walk_tree(const doc::Node& root, ChapterItems& c) {
    std::string spec;  // the chart drawn last: its data table follows it
    doc::walk(root, [&](const doc::Node& n) {
      if (!n.number().empty()) {
        const std::string name = doc::kind_name(n.kind);
        std::string title = n.kind == doc::Kind::DisplayMath ? n.text
                            : n.kind == doc::Kind::Figure || n.kind == doc::Kind::Table
                                ? doc::plain_text(n.caption())
                                : doc::plain_text(n);
        title = head_of(std::move(title));
        add(c, Kind::Numbered, name + " " + title, n.number(), name + " “" + title + "”", n.loc);
      } else if (n.kind == doc::Kind::CrossRef && !n.has_class("plain")) {
        add(c, Kind::CrossRef, "@" + n.text, doc::plain_text(n.children), "@" + n.text, n.loc);
      } else if (n.kind == doc::Kind::Image && n.attr("chart-svg")) {
        spec = n.attr("asset") ? *n.attr("asset") : n.url();
        s_.drawings.push_back(
            {c.edition, c.file, spec, n.loc.line, std::hash<std::string>{}(*n.attr("chart-svg"))});
      } else if (n.kind == doc::Kind::Table && n.has_class("chart-data")) {
        chart_table(n, spec, c);
      }
    });
  }

  void chart_table(const doc::Node& t, const std::string& spec, ChapterItems& c) {
    if (t.children.empty()) return;
    const auto& header = t.children.front().children;
    const std::string name = fs::path(spec).filename().string();
    for (std::size_t r = 1; r < t.children.size(); ++r) {
      const auto& row = t.children[r].children;
      if (row.empty()) continue;
      const std::string label = doc::plain_text(row.front());
      for (std::size_t k = 1; k < row.size() && k < header.size(); ++k) {
        const std::string column = doc::plain_text(header[k]);
        add(c, Kind::Chart, spec + " | " + label + " | " + column, doc::plain_text(row[k]),
            name + ": " + label + ", " + column, t.loc);
      }
    }
  }

  const book::Book& book_;
  Snapshot& s_;
  std::map<std::string, std::size_t> by_file_;
  std::map<std::string, const book::NumberLocale*> locale_;
};

}  // namespace

Snapshot take_snapshot(const book::Book& book, const filters::Resolution& resolution,
                       const check::NumbersReport& numbers) {
  Snapshot s;
  if (!book.config.editions.empty()) s.source_edition = book.config.source().id;
  Taker t(book, s);
  t.chapters();
  t.bindings(resolution.bindings);
  t.numbers(numbers);
  t.calculations();
  t.sort();
  return s;
}

}  // namespace bb::diff
