// The CSL-JSON reader (bibliography.hpp): an array of items as Zotero and Pandoc write them. The
// nesting is checked before nlohmann-json parses (a file nested thousands deep is refused, not
// recursed into); a syntax error is reported at its line and column.
#include <string>

#include <nlohmann/json.hpp>

#include "bib/bibliography.hpp"

namespace bb::bib {

namespace {

using Json = nlohmann::json;

// Line and column of byte offsets asked for front to back (counted on from the last one).
struct Lines {
  std::string_view text;
  std::filesystem::path path;
  std::size_t pos = 0, start = 0;
  int line = 1;
  SourceLoc at(std::size_t offset) {
    if (offset < pos) pos = 0, start = 0, line = 1;
    for (; pos < offset && pos < text.size(); ++pos)
      if (text[pos] == '\n') ++line, start = pos + 1;
    return {path, line, static_cast<int>(offset - start) + 1};
  }
};

SourceLoc place(std::string_view text, std::size_t at, const std::filesystem::path& path) {
  return Lines{text, path}.at(at);
}

// The byte where the nesting first goes deeper than kMaxBraceDepth, or npos.
std::size_t too_deep(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxBraceDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string_view::npos;
}

std::string scalar(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  return {};
}

std::vector<Name> names(const Json& list) {
  std::vector<Name> out;
  if (!list.is_array()) return out;
  for (const auto& p : list) {
    if (!p.is_object()) continue;
    Name n;
    if (auto f = p.find("family"); f != p.end()) n.family = scalar(*f);
    if (auto g = p.find("given"); g != p.end()) n.given = scalar(*g);
    if (auto l = p.find("literal"); l != p.end() && n.family.empty()) n.family = scalar(*l);
    if (!n.family.empty() || !n.given.empty()) out.push_back(std::move(n));
  }
  return out;
}

std::string year_of(const Json& date) {
  if (!date.is_object()) return {};
  if (auto parts = date.find("date-parts"); parts != date.end() && parts->is_array() && !parts->empty() &&
                                            (*parts)[0].is_array() && !(*parts)[0].empty())
    return scalar((*parts)[0][0]);
  if (auto raw = date.find("raw"); raw != date.end() && raw->is_string())
    return raw->get<std::string>().substr(0, 4);
  return {};
}

// CSL's types under the BibTeX names the styles know.
std::string bibtex_type(const std::string& csl) {
  if (csl == "article-journal" || csl == "article-magazine" || csl == "article-newspaper") return "article";
  if (csl == "paper-conference") return "inproceedings";
  if (csl == "chapter") return "incollection";
  if (csl == "report") return "techreport";
  if (csl == "thesis") return "phdthesis";
  if (csl == "webpage" || csl == "post-weblog") return "online";
  if (csl == "book") return "book";
  return "misc";
}

Entry item(const Json& it, SourceLoc loc) {
  Entry e;
  e.loc = std::move(loc);
  e.key = scalar(it.value("id", Json()));
  e.type = bibtex_type(it.value("type", std::string()));
  if (auto a = it.find("author"); a != it.end()) e.authors = names(*a);
  if (auto ed = it.find("editor"); ed != it.end()) e.editors = names(*ed);
  static const std::pair<const char*, const char*> fields[] = {{"title", "title"},
                                                               {"volume", "volume"},
                                                               {"issue", "number"},
                                                               {"page", "pages"},
                                                               {"publisher", "publisher"},
                                                               {"URL", "url"},
                                                               {"DOI", "doi"},
                                                               {"note", "note"},
                                                               {"edition", "edition"},
                                                               {"publisher-place", "address"}};
  for (const auto& [csl, bib] : fields)
    if (auto f = it.find(csl); f != it.end() && !scalar(*f).empty()) e.fields[bib] = scalar(*f);
  if (auto c = it.find("container-title"); c != it.end() && !scalar(*c).empty())
    e.fields[e.type == "article" ? "journal" : "booktitle"] = scalar(*c);
  if (e.type == "techreport" && e.fields.count("publisher")) e.fields["institution"] = e.fields["publisher"];
  if (auto d = it.find("issued"); d != it.end()) e.fields["year"] = year_of(*d);
  if (e.fields["year"].empty()) e.fields.erase("year");
  return e;
}

}  // namespace

std::vector<Entry> parse_csl_json(std::string_view text, const std::filesystem::path& path,
                                  Diagnostics& diags) {
  std::vector<Entry> out;
  if (const std::size_t deep = too_deep(text); deep != std::string_view::npos) {
    diags.error(place(text, deep, path), "JSON nested more than " + std::to_string(kMaxBraceDepth) + " deep");
    return out;
  }
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    std::string why = e.what();
    if (auto colon = why.rfind(": "); colon != std::string::npos) why = why.substr(colon + 2);
    diags.error(place(text, e.byte > 0 ? e.byte - 1 : 0, path), "not valid JSON: " + why);
    return out;
  }
  if (!doc.is_array()) {
    diags.error({path, 1, 1}, "a CSL-JSON bibliography is an array of items (`[{\"id\": …}, …]`)");
    return out;
  }
  // Items carry no place of their own once parsed: each is found again by its `"id"` in the text.
  std::size_t search = 0;
  Lines lines{text, path};
  for (const auto& it : doc) {
    if (out.size() >= kMaxEntries) break;
    const std::string id = it.is_object() ? scalar(it.value("id", Json())) : "";
    std::size_t at = id.empty() ? std::string_view::npos : text.find("\"" + id + "\"", search);
    if (at != std::string_view::npos) search = at;
    SourceLoc loc = lines.at(at == std::string_view::npos ? search : at);
    if (id.empty()) {
      // Without an id the item cannot be found in the text: the place is the item before it.
      const std::string title = it.is_object() ? scalar(it.value("title", Json())) : "";
      diags.error(loc, "a CSL-JSON item" + (title.empty() ? std::string() : " (\"" + title + "\")") +
                           " after this place needs an `id` (the key it is cited by)");
      continue;
    }
    out.push_back(item(it, std::move(loc)));
  }
  return out;
}

}  // namespace bb::bib
