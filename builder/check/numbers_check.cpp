// The numbers check: parity between editions, the unbound-number audit, and the JSON report.
#include "check/numbers_check.hpp"
#include "text/unicode.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "calc/scenario_file.hpp"
#include "check/parity.hpp"
#include "filters/number_format.hpp"
#include "inputs/file_io.hpp"

namespace bb::check {

using doc::Kind;
using doc::Node;

namespace {

// Unit words the audit looks for after a number, beyond the formatter's units: every unit family the
// book uses (byte and bit rates, tokens/s, FLOPs and FLOP/s, %, ×, power and clock). Bare scale words
// (K, M, B) are left out: "8B" in a model name is not a measurement.
bool audit_unit(std::string_view word) {
  static const std::set<std::string, std::less<>> skip{"K", "M", "B"};
  static const std::set<std::string, std::less<>> extra{
      "TFLOPS", "GFLOPS", "PFLOPS",    "FLOPS",  "FLOP",     "TOPS",    "GHz",   "MHz",  "W",
      "kW",     "MW",     "J",         "pJ",     "Gbps",     "Tbps",    "Mbps",  "Gb/s", "Tb/s",
      "Mb/s",   "Gbit/s", "Tbit/s",    "Mbit/s", "tokens/s", "token/s", "tok/s", "×",    "TB",
      "ГБ/с",   "Гбит/с", "токенов/с", "ток/с",  "Вт",       "ГГц",     "TiB/s", "GiB/s"};
  if (skip.count(word)) return false;
  return filters::find_unit(word).has_value() || extra.count(word);
}

// Bytes of the UTF-8 sequence at t[i] (1 for a malformed byte).
std::size_t utf8_len(const std::string& t, std::size_t i) {
  std::size_t n = 1;
  if (static_cast<unsigned char>(t[i]) >= 0x80) text::decode_utf8(t, i, n);
  return n;
}

bool is_ascii_alpha(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}

// The count noun (from the per-language list) that starts at `k`, or empty. A Latin or Cyrillic
// noun must end at a word boundary ("36 layers", not "36 layersX"). The longest entry wins, and an
// entry written `!word` names a longer word that is no count noun: "!位元組" (bytes) keeps "16 位元組"
// from being read as the count noun "位元" (bits), since CJK nouns have no word boundary to end at.
std::string count_noun_at(const std::string& t, std::size_t k, const std::vector<std::string>& nouns) {
  std::string_view best;
  bool excluded = false;
  for (const auto& entry : nouns) {
    bool exclusion = entry.starts_with('!');
    const std::string_view n = exclusion ? std::string_view(entry).substr(1) : std::string_view(entry);
    if (n.size() <= best.size() || t.compare(k, n.size(), n) != 0) continue;
    std::size_t end = k + n.size();
    // A noun ending in a Latin or Cyrillic letter must end the word; CJK nouns need no boundary.
    auto letter_at = [&](std::size_t p) {
      unsigned char u = static_cast<unsigned char>(t[p]);
      return is_ascii_alpha(t[p]) || (u >= 0xC0 && u < 0xE0);
    };
    bool latin_end =
        is_ascii_alpha(n.back()) || (n.size() >= 2 && static_cast<unsigned char>(n[n.size() - 2]) >= 0xC0 &&
                                     static_cast<unsigned char>(n[n.size() - 2]) < 0xE0);
    if (latin_end && end < t.size() && letter_at(end)) continue;
    best = n;
    excluded = exclusion;
  }
  return excluded ? std::string() : std::string(best);
}

// Where the word after a number starts: past one space, no-break space or narrow no-break space, or
// the hyphen of a compound ("8-bit", "eight-card", "36-слойная"; a digit after `-` is a range: "4-5").
std::size_t after_separator(const std::string& t, std::size_t k) {
  if (k < t.size() && t[k] == ' ') return k + 1;
  if (t.compare(k, 2, "\u00A0") == 0) return k + 2;
  if (t.compare(k, 3, "\u202F") == 0) return k + 3;
  if (k + 1 < t.size() && t[k] == '-' &&
      (std::isalpha(static_cast<unsigned char>(t[k + 1])) || static_cast<unsigned char>(t[k + 1]) >= 0x80))
    return k + 1;
  return k;
}

// The language's number words as the audit looks them up: by view (no copy of the text), and only
// where a word can start, which most letters cannot (text::lower lowers code point by code point, so
// a word's lower case starts with its first letter's).
struct NumberWords {
  std::unordered_map<std::string_view, long long> values;
  std::unordered_set<char32_t> first;    // the first code point of every word
  std::size_t longest = 0;               // bytes
  std::array<bool, 128> ascii_starts{};  // may_start for ASCII letters, where most of the text is
  mutable std::unordered_map<char32_t, bool> starts;  // and for the other letters met so far

  explicit NumberWords(const std::map<std::string, long long>* words) {
    if (words == nullptr) return;
    for (const auto& [w, n] : *words) {
      values.emplace(w, n);
      longest = std::max(longest, w.size());
      std::size_t len = 1;
      if (!w.empty()) first.insert(text::decode_utf8(w, 0, len));
    }
    for (char32_t c = 0; c < ascii_starts.size(); ++c) ascii_starts[c] = lower_starts(c);
  }
  // Whether a word can start at letter `c`: CJK text is looked up as it is, other text in lower case.
  bool may_start(char32_t c, bool cjk) const {
    if (cjk) return first.count(c) > 0;
    if (c < ascii_starts.size()) return ascii_starts[c];
    auto [it, added] = starts.try_emplace(c, false);
    if (added) it->second = lower_starts(c);
    return it->second;
  }
  const long long* find(std::string_view w) const {
    auto it = values.find(w);
    return it == values.end() ? nullptr : &it->second;
  }

 private:
  bool lower_starts(char32_t c) const {
    std::string one;
    text::append_utf8(one, c);
    const std::string lowered = text::lower(one);
    std::size_t len = 1;
    return !lowered.empty() && first.count(text::decode_utf8(lowered, 0, len)) > 0;
  }
};

// What the audit of one chapter scans with.
struct Scan {
  const book::Edition& edition;
  const std::string& chapter;
  const std::vector<std::string>& nouns;
  NumberWords words;
};

// The code point at t[i] and its length, ASCII without a call (most of the text the audit reads).
char32_t code_point(const std::string& t, std::size_t i, std::size_t& len) {
  const auto b = static_cast<unsigned char>(t[i]);
  if (b < 0x80) {
    len = 1;
    return b;
  }
  return text::decode_utf8(t, i, len);
}

// text::is_letter, with ASCII answered here: its letters are A-Z and a-z.
bool letter(char32_t c) {
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  return text::is_letter(c);
}

// Numbers written as words before a count noun: "four cards", "четыре карты", "八张卡", "eight-card";
// from three up (one and two are as often an article, "both" or "any two" as a count).
// A word is one of the language's number words (languages/*.toml, [numbers] words) standing alone:
// whole letters on both sides in spaced scripts; in CJK, where nothing separates words, the longest
// numeral at the place, not after 第 (an ordinal: 第四张卡 is "the fourth card") nor after 几/数
// ("几十张卡", "數十層": dozens, no count).
void scan_number_words(const std::string& t, const SourceLoc& loc, const Scan& scan,
                       std::vector<UnboundNumber>& out) {
  const NumberWords& words = scan.words;
  const book::Edition& e = scan.edition;
  const std::string& chapter = scan.chapter;
  const std::vector<std::string>& nouns = scan.nouns;
  if (words.values.empty() || nouns.empty()) return;
  char32_t before = 0;
  for (std::size_t i = 0; i < t.size();) {
    std::size_t len = 1;
    const char32_t c = code_point(t, i, len);
    const bool cjk = c >= 0x80 && text::is_cjk(c);
    // Whether a number word (in lower case) can start here is asked first: most letters cannot start
    // one, and for ASCII the answer is a table's; ICU is asked whether it is a letter only after it.
    if (!words.may_start(c, cjk) || !letter(c) || (!cjk && letter(before)) ||
        (cjk &&
         (before == U'第' || before == U'几' || before == U'幾' || before == U'数' || before == U'數'))) {
      before = c;
      i += len;
      continue;
    }
    std::size_t end = i;  // where the number word ends
    long long value = 0;
    if (cjk) {
      // The longest number word that starts here.
      for (std::size_t n = std::min(words.longest, t.size() - i); n > 0 && end == i; --n)
        if (const long long* v = words.find(std::string_view(t).substr(i, n))) end = i + n, value = *v;
    } else {
      std::size_t w = i;
      bool ascii = true;
      while (w < t.size()) {
        std::size_t l = 1;
        const char32_t d = code_point(t, w, l);
        if (!letter(d) || (d >= 0x80 && text::is_cjk(d))) break;
        ascii = ascii && d < 0x80;
        w += l;
      }
      const std::string_view word = std::string_view(t).substr(i, w - i);
      // An ASCII word keeps its length in lower case: one longer than every number word is none.
      const long long* v = nullptr;
      if (!ascii) {
        v = words.find(text::lower(word));
      } else if (word.size() <= words.longest) {
        std::string lowered(word);
        for (char& ch : lowered)
          if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
        v = words.find(lowered);
      }
      if (v) end = w, value = *v;
    }
    if (end == i) {
      before = c;
      i += len;
      continue;
    }
    // A Latin or Cyrillic word ended at a non-letter; CJK has no boundary to keep.
    before = cjk ? U'\0' : U'a';
    const std::size_t at_word = i;
    i = end;
    // One and two are as often an article, "both" or "any two" as a count: not reported.
    if (value < 3) continue;
    const std::size_t k = after_separator(t, end);
    if (std::string noun = count_noun_at(t, k, nouns); !noun.empty()) {
      SourceLoc at = loc;
      at.col += static_cast<int>(at_word);
      out.push_back({e.id, chapter, at, t.substr(at_word, k - at_word) + noun});
    }
  }
}

void scan_text(const std::string& t, const SourceLoc& loc, const Scan& scan,
               std::vector<UnboundNumber>& out) {
  const book::Edition& e = scan.edition;
  const std::string& chapter = scan.chapter;
  const std::vector<std::string>& nouns = scan.nouns;
  std::size_t i = 0;
  while (i < t.size()) {
    // Straight to the next digit: a byte below 0x80 is never inside a UTF-8 sequence (nor taken into
    // one by decode_utf8, which steps over a malformed byte alone), so a digit is where one starts.
    while (i < t.size() && !std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    if (i == t.size()) break;
    bool starts = i == 0 || !(std::isalnum(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '-' ||
                              t[i - 1] == '.' || t[i - 1] == '_');
    if (!starts) {
      ++i;
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
    // Scientific notation: 1e12, 7.5e-3.
    if (j + 1 < t.size() && (t[j] == 'e' || t[j] == 'E')) {
      std::size_t x = j + 1;
      if (x < t.size() && (t[x] == '-' || t[x] == '+')) ++x;
      if (x < t.size() && std::isdigit(static_cast<unsigned char>(t[x]))) {
        while (x < t.size() && std::isdigit(static_cast<unsigned char>(t[x]))) ++x;
        j = x;
      }
    }
    const std::size_t k = after_separator(t, j);
    std::size_t w = k;
    while (w < t.size() && (std::isalpha(static_cast<unsigned char>(t[w])) || t[w] == '/' || t[w] == '%' ||
                            static_cast<unsigned char>(t[w]) >= 0x80)) {
      // Stop at CJK text glued to a unit ("16 GB的"): units are Latin, Greek (μ) or Cyrillic.
      unsigned char u = static_cast<unsigned char>(t[w]);
      if (u >= 0xE0) break;
      w += utf8_len(t, w);
      if (t.compare(k, 2, "×") == 0) break;  // "2×" is a unit of its own
    }
    std::string word = t.substr(k, w - k);
    while (!word.empty() && word.back() == '/') word.pop_back();
    SourceLoc at = loc;
    at.col += static_cast<int>(i);
    if (!word.empty() && audit_unit(word)) {
      out.push_back({e.id, chapter, at, t.substr(i, k - i) + word});
    } else if (std::string noun = count_noun_at(t, k, nouns); !noun.empty()) {
      out.push_back({e.id, chapter, at, t.substr(i, k - i) + noun});
    } else if (k == j && j < t.size() && t[j] == '%') {
      out.push_back({e.id, chapter, at, t.substr(i, j - i + 1)});
    }
    i = j;
  }
  scan_number_words(t, loc, scan, out);
}

bool has_class(const Node& n, std::string_view c) {
  return std::find(n.classes().begin(), n.classes().end(), c) != n.classes().end();
}

void walk(const Node& n, const Scan& scan, ChapterAudit& out) {
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
      if ((n.attr("calc") || n.attr("result")) && has_class(n, "typed")) {
        out.contradictions.push_back(n.loc);
        return;
      }
      if (n.attr("calc") || n.attr("result")) return;  // bound to a calc expression or a cited result
      if (has_class(n, "typed")) {
        // Deliberately typed: what it holds is counted apart, never reported; a mark around no number
        // the audit would report is itself reported, so the marks stay few and meaningful.
        std::vector<UnboundNumber> inside;
        scan_text(doc::plain_text(n.children), n.loc, scan, inside);
        if (inside.empty())
          out.empty_marks.push_back(n.loc);
        else
          out.typed.insert(out.typed.end(), inside.begin(), inside.end());
        return;
      }
      break;
    case Kind::Text: scan_text(n.text, n.loc, scan, out.unbound); return;
    // A chart's data table: every number in it is drawn from the chart's spec, where each one must come
    // from calc or a cited source (docs/charts.md, "Checks"): computed, not typed.
    case Kind::Table:
      if (has_class(n, "chart-data")) return;
      break;
    default: break;
  }
  for (const auto& c : n.caption()) walk(c, scan, out);
  for (const auto& c : n.children) walk(c, scan, out);
}

}  // namespace

AuditWords load_audit_words(const std::filesystem::path& calculations, Diagnostics& diags) {
  AuditWords words;
  const auto file = calculations / "audit.json";
  if (!std::filesystem::exists(file)) return words;
  try {
    std::ifstream in(file, std::ios::binary);
    auto doc = nlohmann::json::parse(in);
    for (const auto& [lang, list] : doc.at("count_nouns").items())
      for (const auto& noun : list) words.count_nouns[lang].push_back(noun.get<std::string>());
  } catch (const std::exception& ex) {
    diags.error({file, 1, 1}, std::string("cannot read the audit word lists: ") + ex.what());
  }
  return words;
}

const std::vector<std::string>& AuditWords::nouns_for(const std::string& lang) const {
  static const std::vector<std::string> none;
  // The most specific entry: "zh-Hant", then "zh".
  for (std::string l = lang; !l.empty();
       l = l.substr(0, l.rfind('-') == std::string::npos ? 0 : l.rfind('-')))
    if (auto it = count_nouns.find(l); it != count_nouns.end()) return it->second;
  return none;
}

ChapterAudit audit_chapter(const book::Chapter& chapter, const book::Edition& edition,
                           const AuditWords& words) {
  ChapterAudit out;
  const Scan scan{edition, chapter.key, words.nouns_for(edition.lang), NumberWords(edition.numbers.words)};
  walk(chapter.root, scan, out);
  // A figure whose caption is its alt text holds the same inlines twice (caption and image): one
  // place, one finding.
  auto once = [](std::vector<UnboundNumber>& v) {
    std::set<std::tuple<int, int, std::string>> seen;
    std::erase_if(v, [&](const UnboundNumber& u) {
      return !seen.insert({u.loc.line, u.loc.col, u.text}).second;
    });
  };
  auto once_at = [](std::vector<SourceLoc>& v) {
    std::set<std::pair<int, int>> seen;
    std::erase_if(v, [&](const SourceLoc& l) { return !seen.insert({l.line, l.col}).second; });
  };
  once(out.unbound);
  once(out.typed);
  once_at(out.empty_marks);
  once_at(out.contradictions);
  return out;
}

std::vector<UnboundNumber> find_unbound_numbers(const book::Chapter& chapter, const book::Edition& edition,
                                                const AuditWords& words) {
  return audit_chapter(chapter, edition, words).unbound;
}

NumbersCheck::NumbersCheck(const book::Book& book, bool strict, Diagnostics& diags, calc::Engine* engine)
    : strict_(strict), engine_(engine), result_files_(book.config.root, book.config.calculations) {
  Diagnostics::Scope scope(diags, "numbers");
  words_ = load_audit_words(book.config.calculations, diags);
  lock_ = read_numbers_lock(book.config.root, diags);
  own_scenarios_ = calc::read_scenario_file(book.config.calculations).form == calc::ScenarioForm::Scenarios;
  root_ = book.config.root;
}

void NumbersCheck::add_edition(const book::EditionBook& eb, Diagnostics& diags) {
  Diagnostics::Scope scope(diags, "numbers");
  for (const auto& ch : eb.chapters) {
    scenario_links(ch.root, links_);
    numbered_[{eb.edition.id, ch.key}] = numbered_elements(ch.root);
    auto audit = audit_chapter(ch, eb.edition, words_);
    check_citations(ch, eb.edition, result_files_, report_.citations, diags, root_);
    for (const auto& at : audit.contradictions)
      diags.error(at, "a number cannot be both bound (calc=) and marked typed (.typed): choose one");
    for (const auto& at : audit.empty_marks)
      diags.warning(at, "`.typed` marks no number with a unit or count noun; remove the mark");
    report_.unbound.insert(report_.unbound.end(), audit.unbound.begin(), audit.unbound.end());
    report_.typed.insert(report_.typed.end(), audit.typed.begin(), audit.typed.end());
  }
}

NumbersReport NumbersCheck::finish(const book::Book& book, const filters::Resolution& resolution,
                                   Diagnostics& diags) {
  Diagnostics::Scope scope(diags, "numbers");
  NumbersReport report = std::move(report_);
  SettleOptions options{strict_, write_lock_, book.config.source_edition};
  report.lock = settle_citations(report.citations, result_files_, lock_, options, diags);
  // --strict: in a book that computes its numbers (scenarios of bookbuild's own form), a number with a
  // unit must be computed or bound; one in text citing a result is the citation check's (checked,
  // waived or an error there). A book of the real book's form is held to its citations alone.
  if (strict_ && own_scenarios_) {
    std::set<std::tuple<std::string, int, int>> citing;
    for (const auto& r : report.citations.read)
      if (r.citing) citing.insert({r.number.loc.path.string(), r.number.loc.line, r.number.loc.col});
    for (const auto& u : report.unbound)
      if (!citing.count({u.loc.path.string(), u.loc.line, u.loc.col}))
        diags.error(u.loc, "number with a unit `" + u.text + "` is neither computed nor bound to a result");
  }
  if (write_lock_) {
    const std::string text = numbers_lock_text(report.lock.entries);
    if (!inputs::write_atomic(lock_.path, text))
      diags.error({lock_.path, 1, 1}, "cannot write the lock");
    else
      report.lock_written = true;
  }
  report.results = check_results(book, resolution, links_, diags, engine_);
  report.recompute =
      check_recomputed(book.config.calculations, report.citations, report.results.recomputed, diags);
  std::set<std::string> recomputed = report.results.recomputed;
  recomputed.insert(report.recompute.recomputed.begin(), report.recompute.recomputed.end());
  count_recomputed(report.citations, recomputed);
  report.structure_errors = check_parity(book, resolution, numbered_, diags);
  // Labels and calc keys on one side only were reported once the book was resolved
  // (filters/translation_parity.hpp): counted here.
  report.structure_errors += resolution.label_differences;
  report.parity_errors = resolution.calc_key_differences;
  return report;
}

NumbersReport check_numbers(const book::Book& book, const filters::Resolution& resolution, bool strict,
                            Diagnostics& diags) {
  NumbersCheck check(book, strict, diags);
  for (const auto& eb : book.editions) check.add_edition(eb, diags);
  return check.finish(book, resolution, diags);
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
    bindings.push_back({{"edition", b.edition.str()},
                        {"chapter", b.chapter.str()},
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
                  {"structure_parity_errors", report.structure_errors},
                  {"scenarios_recomputed", report.results.scenarios},
                  {"stale_scenarios", report.results.stale_scenarios},
                  {"citations_of_stale_results", report.results.citations_of_stale},
                  {"catalogue_problems", report.results.catalogue_problems},
                  {"cited_results", report.citations.cited.size()},
                  {"cited_results_recomputed", report.citations.recomputed.size()},
                  {"cited_results_not_recomputed", report.citations.not_recomputed.size()},
                  {"cited_results_equal", report.recompute.equal},
                  {"cited_results_stale", report.recompute.stale},
                  {"unbound_numbers", report.unbound.size()},
                  {"typed_numbers", report.typed.size()},
                  {"errors", errors.size()}};
  j["bindings"] = bindings;
  j["unbound_per_chapter"] = unbound;
  j["citations"] = citations_json(report.citations, book.config.root);
  j["recompute"] = recompute_json(report.recompute);
  j["errors"] = errors;
  return j.dump(2) + "\n";
}

}  // namespace bb::check
