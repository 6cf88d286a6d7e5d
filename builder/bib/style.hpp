// The two built-in citation styles (docs/manuscripts.md, "Citations"): author-date, close to
// Chicago's ("(Smith 2020, 33)", "Smith (2020)"), and numeric, close to IEEE's ("[1]", "[1, p. 33]",
// "[1]–[3]"). Each formats a citation and a reference-list entry as document-tree inlines. Full CSL
// styles are not read.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bib/bibliography.hpp"
#include "bib/citation.hpp"
#include "doc/tree.hpp"

namespace bb::bib {

enum class Style { AuthorDate, Numeric };

// The edition's words (languages/*.toml, [cite]); `page` and `pages` are patterns ("p. {}").
struct Words {
  std::string and_ = "and", et_al = "et al.", page = "p. {}", pages = "pp. {}", no_date = "n.d.";
};

// Makes the link from a citation to its entry around `shown`.
using LinkTo = std::function<doc::Node(const std::string& key, std::vector<doc::Node> shown)>;

struct Formatter {
  Style style = Style::AuthorDate;
  Words words;
  const Bibliography* bibliography = nullptr;
  std::function<int(const std::string& key)> number;  // numeric: the entry's number
  LinkTo link;

  // The inlines a citation prints (every key must be in the bibliography).
  [[nodiscard]] std::vector<doc::Node> citation(const Citation& c, const SourceLoc& at) const;
  // One entry of the reference list, without its anchor; numeric entries start with "[n] ".
  [[nodiscard]] std::vector<doc::Node> entry(const Entry& e, int number, const SourceLoc& at) const;
};

// How the author-date list is sorted: first author's family name, year, title (case-folded ASCII).
std::string sort_key(const Entry& e);

// "Smith", "Smith and Lee", "Smith et al."; the editors, or the title, when there are no authors.
std::string short_names(const Entry& e, const Words& w);

}  // namespace bb::bib
