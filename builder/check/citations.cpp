// Binding typed numbers to the results their text cites (see citations.hpp).
#include "check/citations.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "check/citations_rows.hpp"
#include "check/results_check.hpp"

namespace bb::check {

using doc::Kind;
using doc::Node;

namespace {

// A relative distance between two positive values: |log(a / b)|.
double spread(double a, double b) {
  return std::fabs(std::log(a / b));
}

bool compatible(Dim typed, Dim field) {
  if (typed == field) return true;
  switch (typed) {
    case Dim::Count: return field == Dim::Tokens;
    case Dim::Tokens: return field == Dim::Count;
    case Dim::Times:
    case Dim::Percent: return field == Dim::Count;
    default: return false;
  }
}

// "Per" is not part of the unit: a number typed per something ("8,192 FLOPs/tick", "每张卡 80 GB": each
// card has 80 GB) fits its unit per a thing or its unit alone, and a field per a thing
// (`history_bytes_per_token`) is met by its unit alone, the thing said in words ("each new token adds
// 144 KiB"). Where both fit with different values, nothing is bound.
bool compatible(const TypedNumber& n, const ResultField& f) {
  if (n.per) return n.dim == f.dim;
  return compatible(n.dim, f.dim);
}

bool fits(const TypedNumber& n, const ResultField& f) {
  if (!compatible(n, f)) return false;
  const double tolerance = n.half_step + 1e-9 * std::fabs(f.value);
  if (std::fabs(n.value - f.value) <= tolerance) return true;
  // A percentage stored as percent points ("utilization_percent": 35).
  const bool points =
      f.pointer.find("percent") != std::string::npos || f.pointer.find("pct") != std::string::npos;
  return n.dim == Dim::Percent && points && std::fabs(n.value * 100 - f.value) <= tolerance * 100;
}

}  // namespace

bool states(const TypedNumber& n, const ResultField& f) {
  if (!compatible(n, f)) return false;
  const bool points = n.dim == Dim::Percent && (f.pointer.find("percent") != std::string::npos ||
                                                f.pointer.find("pct") != std::string::npos);
  auto states_value = [&](double typed, double value, double half) {
    const double d = std::fabs(typed - value);
    const double slack = 1e-9 * std::max(std::fabs(value), half);
    if (d < half - slack) return true;
    // On the rounding edge only the digits rounded half away from zero state the value.
    return d <= half + slack && std::fabs(typed) > std::fabs(value);
  };
  if (states_value(n.value, f.value, n.half_step)) return true;
  return points && states_value(n.value * 100, f.value, n.half_step * 100);
}

namespace {

// Dimensions specific enough that a near value of the same one is the number meant: bytes, times,
// FLOP and rates. Counts, factors and percentages are too common to accuse a number of disagreeing.
bool specific(const TypedNumber& n) {
  const Dim d = n.dim;
  return d != Dim::Count && d != Dim::Times && d != Dim::Percent && d != Dim::Tokens;
}

}  // namespace

namespace {

// How well a fitting field names the number's unit: its own key names the same unit (3), an enclosing
// key does (2), or it is a looser fit (a count for a factor, tokens for a count: 1). Where several
// fields hold the value, the best named is the one reported and proposed.
int naming(const TypedNumber& n, const ResultField& f) {
  if (f.dim != n.dim || f.per != n.per) return 1;
  return f.inherited ? 2 : 3;
}

struct Fit {
  const ResultFile* file;
  const ResultField* field;
};

// The best named of `fits` (the first in the files among equals); the others are counted.
BindOutcome best_of(const TypedNumber& n, const std::vector<Fit>& fits) {
  BindOutcome out{Binding::Checked, nullptr, nullptr, -1, {}};
  int best = 0;
  for (const auto& f : fits) {
    ++out.others;
    if (naming(n, *f.field) > best) best = naming(n, *f.field), out.file = f.file, out.field = f.field;
  }
  return out;
}

}  // namespace

namespace {

std::set<double> values_of(const std::vector<Fit>& fits) {
  std::set<double> out;
  for (const auto& f : fits) out.insert(f.field->value);
  return out;
}

}  // namespace

BindOutcome bind_number(const TypedNumber& n, const std::vector<const ResultFile*>& cited,
                        std::string_view before, std::string_view after) {
  // Fitting fields: one value (however many fields hold it) binds; two different values do not,
  // unless exactly one of them is the number as written (8 MiB is 8388608 bytes, not 8491008). Where
  // the fields lie in rows of their own, the row the sentence names decides first.
  std::vector<Fit> fitting, exact;
  std::set<double> values, exact_values;
  for (const ResultFile* file : cited)
    for (const auto& f : file->fields) {
      if (!fits(n, f)) continue;
      fitting.push_back({file, &f});
      values.insert(f.value);
      if (std::fabs(n.value - f.value) > 1e-9 * std::fabs(f.value)) continue;
      exact.push_back({file, &f});
      exact_values.insert(f.value);
    }
  std::vector<FieldRef> refs;
  for (const auto& f : fitting) refs.emplace_back(f.file, f.field);
  if (const Rows rows = named_rows(refs, before, after); rows.table) {
    std::vector<Fit> named;
    for (const auto& [file, field] : rows.named) named.push_back({file, field});
    // Rows the sentence does not tell apart: a candidate each, for a person to pick in the lock.
    if (named.empty()) {
      BindOutcome out;
      std::set<std::string> seen;
      for (const auto& f : fitting)
        if (seen.insert(f.field->row).second) out.candidates.emplace_back(f.file, f.field);
      return out;
    }
    if (values_of(named).size() == 1) return best_of(n, named);
    fitting = named;
    values = values_of(named);
    exact.clear(), exact_values.clear();
    for (const auto& f : named)
      if (std::fabs(n.value - f.field->value) <= 1e-9 * std::fabs(f.field->value))
        exact.push_back(f), exact_values.insert(f.field->value);
  }
  if (values.size() == 1) return best_of(n, fitting);
  if (values.size() > 1) {
    if (exact_values.size() == 1) return best_of(n, exact);
    // Ambiguous: one candidate per value, the best named of its fields.
    BindOutcome out;
    for (double v : values) {
      std::vector<Fit> same;
      for (const auto& f : fitting)
        if (f.field->value == v) same.push_back(f);
      const BindOutcome best = best_of(n, same);
      out.candidates.emplace_back(best.file, best.field);
    }
    return out;
  }
  if (!specific(n) || n.range || n.value <= 0) return {};
  // No field fits: the nearest field of the same dimension is the one meant when it is close (within
  // 25%) and every other value is at least four times as far away.
  const ResultFile* near_file = nullptr;
  const ResultField* nearest = nullptr;
  double best = 1e300, second = 1e300;
  for (const ResultFile* file : cited)
    for (const auto& f : file->fields) {
      if (f.dim != n.dim || f.value <= 0) continue;
      const double d = spread(n.value, f.value);
      if (nearest && f.value == nearest->value) continue;
      if (d < best) {
        second = best;
        best = d, nearest = &f, near_file = file;
      } else if (d < second) {
        second = d;
      }
    }
  if (nearest && best <= std::log(1.25) && second >= 4 * best)
    return {Binding::Mismatch, near_file, nearest, 0, {}};
  return {};
}

namespace {

// The data a link cites, as a path under calculations/: `results/x.json` for a link to any rendering
// of results/x (`.md`, `.json`, `.csv`), and any other JSON file under calculations/ that the text
// links (`configs/models/m/config.json`, `sources/…/x.json`); else empty. A path that climbs out of
// calculations/ cites nothing.
std::string cited_data(const std::string& url) {
  auto at = url.find("calculations/");
  if (at == std::string::npos) return {};
  std::string path = url.substr(at + 13);
  if (auto hash = path.find_first_of("#?"); hash != std::string::npos) path.resize(hash);
  if (path.empty() || path.find("..") != std::string::npos) return {};
  if (path.starts_with("results/")) {
    std::string name = scenario_of_link(url);
    return name.empty() ? std::string() : "results/" + name + ".json";
  }
  return path.ends_with(".json") ? path : std::string();
}

// The data a node links to, else empty. A link the book cannot turn into a URL of its output stays a
// span that keeps its target in `href`.
std::string cited_result(const Node& n) {
  if (n.kind == Kind::Link) return cited_data(n.url());
  const std::string* href = n.kind == Kind::Span ? n.attr("href") : nullptr;
  return href ? cited_data(*href) : std::string();
}

void links_in(const Node& n, std::vector<std::pair<std::string, SourceLoc>>& out) {
  doc::walk(n, [&](const Node& x) {
    if (std::string name = cited_result(x); !name.empty()) out.emplace_back(std::move(name), x.loc);
  });
}

// How much of the sentence around a number the lock keeps on each side: enough to find it again after
// nearby edits, short enough to read.
constexpr std::size_t kContext = 24;  // code points

bool is_mark(const std::string& s, std::size_t i) {
  return s.compare(i, 3, "\u27E6") == 0 || s.compare(i, 3, "\u27E7") == 0;
}

// White space folded to single spaces (a manuscript reflowed keeps its numbers' places), and never the
// lock's own marks.
std::string fold(std::string_view s) {
  std::string out;
  bool space = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = true;
      continue;
    }
    if (is_mark(std::string(s.substr(i, 3)), 0)) {
      i += 2;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  if (space && !out.empty()) out += ' ';
  return out;
}

// The text before `at`, at most kContext code points (in a table row, the cells before it: a cell alone
// is often only its number).
std::string context_before(const std::string& text, std::size_t at, std::size_t points = kContext) {
  std::size_t start = at, count = 0;
  while (start > 0 && count < points) {
    std::size_t p = start - 1;
    while (p > 0 && (static_cast<unsigned char>(text[p]) & 0xC0) == 0x80) --p;
    start = p;
    ++count;
  }
  std::string out = fold(std::string_view(text).substr(start, at - start));
  while (!out.empty() && out.front() == ' ') out.erase(0, 1);
  return out;
}

// The text from `from` on, at most kContext code points.
std::string context_after(const std::string& text, std::size_t from, std::size_t points = kContext) {
  std::size_t end = from, count = 0;
  while (end < text.size() && count < points) {
    std::size_t len = 1;
    while (end + len < text.size() && (static_cast<unsigned char>(text[end + len]) & 0xC0) == 0x80) ++len;
    end += len;
    ++count;
  }
  std::string out = fold(std::string_view(text).substr(from, end - from));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The clause around a number, for the names that pick a row (bind_number): up to 96 code points
// before it back to the end of the previous clause, and after it up to the next clause's end.
// A sentence ends at 。！？ or at . ! ? before a space; a clause also at ；，; and , (after a number,
// the next clause names the next thing: "128 GB at 800 GB/s; M2 Ultra …").
bool clause_end(std::string_view s, std::size_t i, bool sentence_only) {
  for (std::string_view mark : {"\u3002", "\uFF01", "\uFF1F"})  // 。！？
    if (s.substr(i, mark.size()) == mark) return true;
  for (std::string_view mark : {"\uFF1B", "\uFF0C"})  // ；，
    if (!sentence_only && s.substr(i, mark.size()) == mark) return true;
  const char c = s[i];
  if (!sentence_only && (c == ';' || c == ',')) return true;
  return (c == '.' || c == '!' || c == '?') && (i + 1 == s.size() || s[i + 1] == ' ');
}
std::string clause_before(const std::string& text, std::size_t at) {
  const std::string wide = context_before(text, at, 96);
  std::size_t from = 0;
  for (std::size_t i = 0; i < wide.size(); ++i)
    if (clause_end(wide, i, true)) from = i + 1;
  while (from < wide.size() && (static_cast<unsigned char>(wide[from]) & 0xC0) == 0x80) ++from;
  return wide.substr(from);
}
std::string clause_after(const std::string& text, std::size_t from) {
  const std::string wide = context_after(text, from, 96);
  for (std::size_t i = 0; i < wide.size(); ++i)
    if (clause_end(wide, i, false)) return wide.substr(0, i);
  return wide;
}

struct Walker {
  const book::Edition& edition;
  std::string file;     // the chapter's file, from the book root
  std::string chapter;  // its key
  ResultFiles& results;
  CitationsReport& report;
  Diagnostics& diags;
  std::map<std::string, std::vector<std::pair<std::string, SourceLoc>>> notes;  // footnote key → links
  std::set<std::pair<std::string, int>> missing_seen;
  std::set<std::tuple<std::string, int, int>> seen;  // numbers already counted, by place

  using Cites = std::vector<std::pair<std::string, SourceLoc>>;

  // A block's own citations: its links, and the links of the footnotes it carries.
  Cites cites_of(const Node& block) const {
    Cites c;
    doc::walk(block, [&](const Node& x) {
      if (std::string name = cited_result(x); !name.empty()) {
        c.emplace_back(std::move(name), x.loc);
      } else if (x.kind == Kind::FootnoteRef) {
        if (auto it = notes.find(x.text); it != notes.end())
          c.insert(c.end(), it->second.begin(), it->second.end());
      }
    });
    return c;
  }

  // The inlines' plain text as a reader sees it, and where in it each typed number starts.
  struct Plain {
    std::string text;
    std::vector<std::size_t> at;  // per number found, its byte in `text`
  };

  void scan_inline(const Node& n, std::vector<TypedNumber>& out, std::vector<const Node*>& bound,
                   Plain& plain) const {
    switch (n.kind) {
      case Kind::Code:
      case Kind::InlineMath:
      case Kind::CalcNumber:
      case Kind::CrossRef:
      case Kind::HtmlInline:
      case Kind::FootnoteRef: plain.text += doc::plain_text(n); return;
      case Kind::SoftBreak:
      case Kind::LineBreak: plain.text += ' '; return;
      case Kind::TableCell:
        if (!plain.text.empty()) plain.text += " | ";
        break;
      case Kind::Span:
        if (n.attr("calc") || n.attr("result")) {
          plain.text += doc::plain_text(n);
          if (!n.attr("calc")) bound.push_back(&n);  // bound to a field of a cited result
          return;
        }
        break;
      case Kind::Text: {
        const std::size_t first = out.size(), base = plain.text.size();
        scan_typed_numbers(n.text, n.loc, edition.numbers, out);
        plain.text += n.text;
        for (std::size_t k = first; k < out.size(); ++k) {
          // The number's column is its byte in this text when the text is one run on its line.
          const long off = out[k].loc.line == n.loc.line ? out[k].loc.col - n.loc.col : -1;
          std::size_t at = n.text.find(out[k].text, off >= 0 ? static_cast<std::size_t>(off) : 0);
          if (at == std::string::npos) at = n.text.find(out[k].text);
          plain.at.push_back(base + (at == std::string::npos ? 0 : at));
        }
        return;
      }
      default: break;
    }
    for (const auto& c : n.children) scan_inline(c, out, bound, plain);
  }

  // `[148 倍]{result=results/x.json#/field}`: the literal is checked against that field alone.
  // `block`: the block it stands in, whose other numbers may derive from its field.
  void bound_literal(const Node& span, int block) {
    const std::string& target = *span.attr("result");
    const std::string text = doc::plain_text(span.children);
    if (span.attr("calc")) {
      diags.error(span.loc,
                  "a number is bound either to a calc expression (calc=) or to a cited result "
                  "(result=), not both");
      return;
    }
    const auto hash = target.find('#');
    const std::string name = target.substr(0, hash);
    if (hash == std::string::npos || target.size() == hash + 1 || target[hash + 1] != '/' ||
        name.find("..") != std::string::npos || !name.ends_with(".json")) {
      diags.error(span.loc, "result=`" + target +
                                "`: write the data file under calculations/ and a JSON Pointer to the field, "
                                "`result=results/<name>.json#/field`");
      return;
    }
    auto number = read_literal(text, span.loc, edition.numbers);
    if (!number) {
      diags.error(span.loc, "cannot read `" + text + "` as a number with an optional unit (edition " +
                                edition.id + ")");
      return;
    }
    ++report.typed;
    ++report.citing;
    const ResultFile* file = results.get(name);
    if (!file) {
      diags.error(span.loc, "`" + text + "` is bound to calculations/" + name + ", which is not in the book");
      return;
    }
    const std::string pointer = target.substr(hash + 1);
    auto field = std::find_if(file->fields.begin(), file->fields.end(),
                              [&](const ResultField& f) { return f.pointer == pointer; });
    if (field == file->fields.end()) {
      diags.error(span.loc,
                  "`" + text + "` is bound to " + file->path + " " + pointer + ", which holds no number");
      return;
    }
    // Bare digits are in the field's own unit, as stored; a number with a unit is read in it.
    const bool bare = number->text.find_first_not_of("0123456789.,\u00A0\u202F ") == std::string::npos;
    const bool ok =
        bare ? std::fabs(number->value - field->raw) <= number->half_step + 1e-9 * std::fabs(field->raw)
             : fits(*number, *field);
    CitationEntry e{number->loc, number->text, file->path, field->pointer, field->raw,
                    *number,     true,         0,          "literal",      {},
                    {},          {},           {}};
    if (ok) {
      report.block_fields[block].emplace_back(file, &*field);
      report.checked.push_back(std::move(e));
      return;
    }
    diags.error(span.loc,
                "bound literal `" + text + "` does not match " + file->path + " " + pointer + " = " +
                    nlohmann::json(field->raw).dump() +
                    (bare || compatible(*number, *field)
                         ? std::string(" (to the digits shown)")
                         : " (the field's unit is another: " + std::string(dim_name(field->dim)) + ")"));
    report.mismatches.push_back(std::move(e));
  }

  // Reads the typed numbers of one block of inline content, with what it cites.
  void block(const Node& n, const std::vector<Node>& inlines, const Cites& inherited) {
    std::vector<TypedNumber> numbers;
    std::vector<const Node*> bound;
    Plain plain;
    for (const auto& c : inlines) scan_inline(c, numbers, bound, plain);
    const int block_id = report.blocks++;
    for (const Node* span : bound)
      if (seen.insert({span->loc.path.string(), span->loc.line, span->loc.col}).second)
        bound_literal(*span, block_id);
    if (numbers.empty()) return;
    Cites cites = cites_of(n);
    cites.insert(cites.end(), inherited.begin(), inherited.end());
    std::vector<const ResultFile*> files;
    bool some_missing = false;
    std::vector<std::string> lacking;
    for (const auto& [name, loc] : cites) {
      if (const ResultFile* f = results.get(name)) {
        if (std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);
        continue;
      }
      some_missing = true;
      if (std::find(lacking.begin(), lacking.end(), name) == lacking.end()) lacking.push_back(name);
      if (missing_seen.insert({loc.path.string(), loc.line}).second)
        report.missing.emplace_back(loc, "calculations/" + name);
    }
    for (std::size_t k = 0; k < numbers.size(); ++k) {
      TypedNumber& num = numbers[k];
      // A figure whose caption is its alt text holds the same inlines twice: one place, one number.
      if (!seen.insert({num.loc.path.string(), num.loc.line, num.loc.col}).second) continue;
      ++report.typed;
      ReadNumber r;
      r.file = file;
      r.edition = edition.id;
      r.chapter = chapter;
      const std::size_t at = k < plain.at.size() ? plain.at[k] : 0;
      r.before = context_before(plain.text, at);
      r.after = context_after(plain.text, std::min(plain.text.size(), at + num.text.size()));
      r.clause_before = clause_before(plain.text, at);
      r.clause_after = clause_after(plain.text, std::min(plain.text.size(), at + num.text.size()));
      r.citing = !files.empty();
      r.some_missing = some_missing;
      r.missing = lacking;
      r.block = block_id;
      r.cited = files;
      r.number = std::move(num);
      report.read.push_back(std::move(r));
    }
  }

  // Blocks, each with what the blocks around it make it cite: a table's rows share the citations
  // of its caption and header; a list follows a lead-in paragraph that ends in a colon.
  void blocks(const std::vector<Node>& children, const Cites& inherited) {
    Cites lead;
    for (const auto& n : children) {
      switch (n.kind) {
        case Kind::Paragraph:
        case Kind::Heading: block(n, n.children, inherited); break;
        case Kind::Figure: block(n, n.caption(), inherited); break;
        case Kind::Table:
          // A chart's data table holds the chart's computed numbers (docs/charts.md), none typed.
          if (!n.has_class("chart-data")) table(n, inherited);
          break;
        case Kind::BulletList:
        case Kind::OrderedList: {
          Cites c = inherited;
          c.insert(c.end(), lead.begin(), lead.end());
          for (const auto& item : n.children) blocks(item.children, c);
          break;
        }
        case Kind::FootnoteDef: blocks(n.children, {}); break;
        case Kind::CodeBlock:
        case Kind::HtmlBlock:
        case Kind::DisplayMath: break;
        default: blocks(n.children, inherited); break;
      }
      lead.clear();
      if (n.kind == Kind::Paragraph && ends_with_colon(n)) lead = cites_of(n);
    }
  }

  void table(const Node& t, const Cites& inherited) {
    Cites shared = inherited;
    for (const auto& c : t.caption()) {
      Cites own = cites_of(c);
      shared.insert(shared.end(), own.begin(), own.end());
    }
    if (!t.children.empty()) {
      Cites head = cites_of(t.children.front());
      shared.insert(shared.end(), head.begin(), head.end());
    }
    for (const auto& row : t.children) block(row, row.children, shared);
    block(t, t.caption(), inherited);
  }

  static bool ends_with_colon(const Node& p) {
    std::string text = doc::plain_text(p.children);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.pop_back();
    return text.ends_with(":") || text.ends_with("：");
  }
};

}  // namespace

void check_citations(const book::Chapter& chapter, const book::Edition& edition, ResultFiles& results,
                     CitationsReport& report, Diagnostics& diags, const std::filesystem::path& root) {
  const std::string file =
      root.empty() ? chapter.path.generic_string() : chapter.path.lexically_relative(root).generic_string();
  Walker w{edition, file, chapter.key, results, report, diags, {}, {}, {}};
  doc::walk(chapter.root, [&](const Node& n) {
    if (n.kind == Kind::FootnoteDef) links_in(n, w.notes[n.text]);
    if (std::string name = cited_result(n); !name.empty())
      if (const ResultFile* f = results.get(name)) {
        report.cited.try_emplace(name, f->path);
        report.citing_places[name].push_back(n.loc);
      }
  });
  doc::walk(chapter.root, [&](const Node& n) {
    if (n.kind != Kind::FootnoteRef) return;
    if (auto it = w.notes.find(n.text); it != w.notes.end())
      for (const auto& [name, at] : it->second)
        if (report.cited.count(name)) report.citing_places[name].push_back(n.loc);
  });
  w.blocks(chapter.root.children, {});
}

void count_recomputed(CitationsReport& report, const std::set<std::string>& scenarios_recomputed) {
  report.recomputed.clear();
  report.not_recomputed.clear();
  for (const auto& [name, path] : report.cited) {
    const bool result = name.starts_with("results/") && name.ends_with(".json");
    const std::string id = result ? name.substr(8, name.size() - 13) : std::string();
    (result && scenarios_recomputed.count(id) ? report.recomputed : report.not_recomputed).push_back(path);
  }
}

}  // namespace bb::check
