// The numbers check: parity between editions, the unbound-number audit, and the JSON report.
#include "check/numbers_check.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "filters/number_format.hpp"

namespace bb::check {

using doc::Kind;
using doc::Node;

namespace {

// Unit words the audit looks for after a number. Bare scale words (K, M, B) are left out: "8B" in
// a model name is not a measurement.
bool audit_unit(std::string_view word) {
  static const std::set<std::string, std::less<>> skip{"K", "M", "B"};
  if (skip.count(word)) return false;
  return filters::find_unit(word).has_value() || word == "TFLOPS" || word == "FLOP" || word == "GHz" ||
         word == "MHz" || word == "W" || word == "J" || word == "pJ" || word == "Gbps";
}

std::size_t utf8_len(unsigned char c) {
  return c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
}

void scan_text(const std::string& t, const SourceLoc& loc, const book::Edition& e, const std::string& chapter,
               std::vector<UnboundNumber>& out) {
  std::size_t i = 0;
  while (i < t.size()) {
    unsigned char c = static_cast<unsigned char>(t[i]);
    bool starts = std::isdigit(c) && (i == 0 || !(std::isalnum(static_cast<unsigned char>(t[i - 1])) ||
                                                  t[i - 1] == '-' || t[i - 1] == '.' || t[i - 1] == '_'));
    if (!starts) {
      i += utf8_len(c);
      continue;
    }
    std::size_t j = i;
    while (j < t.size() &&
           (std::isdigit(static_cast<unsigned char>(t[j])) ||
            ((t[j] == ',' || t[j] == '.') && j + 1 < t.size() &&
             std::isdigit(static_cast<unsigned char>(t[j + 1]))) ||
            (e.numbers.group.size() > 1 && t.compare(j, e.numbers.group.size(), e.numbers.group) == 0)))
      j += (std::isdigit(static_cast<unsigned char>(t[j])) || t[j] == ',' || t[j] == '.')
               ? 1
               : e.numbers.group.size();
    std::size_t k = j;
    if (k < t.size() && t[k] == ' ')
      ++k;
    else if (t.compare(k, 2, "\u00A0") == 0)
      k += 2;
    std::size_t w = k;
    while (w < t.size() && (std::isalpha(static_cast<unsigned char>(t[w])) || t[w] == '/' || t[w] == '%' ||
                            static_cast<unsigned char>(t[w]) >= 0x80)) {
      // Stop at CJK text glued to a unit ("16 GB的"): units are Latin, Greek (μ) or Cyrillic.
      unsigned char u = static_cast<unsigned char>(t[w]);
      if (u >= 0xE0) break;
      w += utf8_len(u);
    }
    std::string word = t.substr(k, w - k);
    while (!word.empty() && word.back() == '/') word.pop_back();
    if (!word.empty() && audit_unit(word)) {
      SourceLoc at = loc;
      at.col += static_cast<int>(i);
      out.push_back({e.id, chapter, at, t.substr(i, k - i) + word});
    }
    i = j;
  }
}

void walk(const Node& n, const book::Edition& e, const std::string& chapter,
          std::vector<UnboundNumber>& out) {
  switch (n.kind) {
    case Kind::Code:
    case Kind::CodeBlock:
    case Kind::InlineMath:
    case Kind::DisplayMath:
    case Kind::CalcNumber:
    case Kind::CrossRef:
    case Kind::HtmlInline:
    case Kind::HtmlBlock: return;
    case Kind::Span:
      if (n.attr("calc")) return;
      break;
    case Kind::Text: scan_text(n.text, n.loc, e, chapter, out); return;
    default: break;
  }
  for (const auto& c : n.caption) walk(c, e, chapter, out);
  for (const auto& c : n.children) walk(c, e, chapter, out);
}

}  // namespace

std::vector<UnboundNumber> find_unbound_numbers(const book::Chapter& chapter, const book::Edition& edition) {
  std::vector<UnboundNumber> out;
  walk(chapter.root, edition, chapter.key, out);
  return out;
}

NumbersReport check_numbers(const book::Book& book, const filters::Resolution& resolution, bool strict,
                            Diagnostics& diags) {
  Diagnostics::Scope scope(diags, "numbers");
  NumbersReport report;
  // Parity: each translated chapter binds exactly the calc keys its source chapter binds.
  // Where each key is first bound, per edition and chapter.
  std::map<std::pair<std::string, std::string>, std::map<std::string, SourceLoc>> keys;
  for (const auto& b : resolution.bindings) keys[{b.edition, b.chapter}].try_emplace(b.expr, b.loc);
  const book::EditionBook* source = book.edition(book.config.source_edition);
  if (source) {
    for (const auto& eb : book.editions) {
      if (&eb == source) continue;
      for (const auto& ch : eb.chapters) {
        if (!source->chapter(ch.key)) continue;
        const auto& want = keys[{source->edition.id, ch.key}];
        const auto& have = keys[{eb.edition.id, ch.key}];
        for (const auto& [k, at] : want)
          if (!have.count(k)) {
            diags.error({ch.path, 1, 1}, "calc key `" + k + "` is bound in the " + source->edition.id +
                                             " edition (" + at.path.filename().string() + ":" +
                                             std::to_string(at.line) + ") but not in this translation");
            ++report.parity_errors;
          }
        for (const auto& [k, at] : have)
          if (!want.count(k)) {
            diags.error(at, "calc key `" + k + "` is bound here but not in the " + source->edition.id +
                                " edition of this chapter");
            ++report.parity_errors;
          }
      }
    }
  }
  for (const auto& eb : book.editions) {
    for (const auto& ch : eb.chapters) {
      auto found = find_unbound_numbers(ch, eb.edition);
      for (const auto& u : found) {
        if (strict)
          diags.error(u.loc, "number with a unit `" + u.text + "` is neither computed nor bound to a result");
      }
      report.unbound.insert(report.unbound.end(), found.begin(), found.end());
    }
  }
  return report;
}

std::string numbers_report_json(const book::Book& book, const filters::Resolution& resolution,
                                const NumbersReport& report, const Diagnostics& diags) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["book"] = book.config.root.string();
  j["commit"] = resolution.commit;
  ordered_json bindings = ordered_json::array();
  int mismatches = 0;
  for (const auto& b : resolution.bindings) {
    if (!b.ok) ++mismatches;
    bindings.push_back({{"edition", b.edition},
                        {"chapter", b.chapter},
                        {"place", b.loc.path.lexically_relative(book.config.root).generic_string() + ":" +
                                      std::to_string(b.loc.line) + ":" + std::to_string(b.loc.col)},
                        {"kind", b.literal ? "literal" : "placeholder"},
                        {"expr", b.expr},
                        {"shown", b.shown},
                        {"recomputed", b.recomputed},
                        {"tolerance", b.tolerance},
                        {"ok", b.ok}});
  }
  std::map<std::string, std::map<std::string, int>> per_chapter;
  for (const auto& u : report.unbound) ++per_chapter[u.edition][u.chapter];
  ordered_json unbound = ordered_json::object();
  for (const auto& [edition, chapters] : per_chapter)
    for (const auto& [chapter, count] : chapters) unbound[edition][chapter] = count;
  ordered_json errors = ordered_json::array();
  for (const auto& d : diags.all())
    if (d.severity == Severity::Error) errors.push_back(format_diagnostic(d, book.config.root));
  j["summary"] = {{"bindings", resolution.bindings.size()},
                  {"mismatches", mismatches},
                  {"parity_errors", report.parity_errors},
                  {"unbound_numbers", report.unbound.size()},
                  {"errors", errors.size()}};
  j["bindings"] = bindings;
  j["unbound_per_chapter"] = unbound;
  j["errors"] = errors;
  return j.dump(2) + "\n";
}

}  // namespace bb::check
