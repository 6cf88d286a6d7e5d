// The text and Markdown forms of a number diff (docs/diff.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "diff/render.hpp"

namespace bb::diff {

std::string percent(double relative) {
  const double p = relative * 100;
  char buf[48];
  const double a = std::fabs(p);
  std::snprintf(buf, sizeof buf, a >= 10 ? "%.0f%%" : a >= 1 ? "%.1f%%" : a >= 0.01 ? "%.2f%%" : "%.2g%%", a);
  return std::string(p < 0 ? "−" : "+") + buf;
}

namespace {

std::string short_commit(const std::string& c) {
  return c.size() > 12 ? c.substr(0, 12) : c;
}

std::string side(const std::string& name, const std::string& commit) {
  return commit.empty() || name == commit ? name : name + " (" + short_commit(commit) + ")";
}

std::string before_after(const std::string& before, const std::string& after) {
  if (before.empty()) return "(new) " + after;
  if (after.empty()) return before + " (removed)";
  return before + " -> " + after;
}

std::string counts(const Report& r) {
  std::map<std::string, int> per;
  for (const auto& c : r.changes) ++per[c.edition];
  std::string by;
  for (const auto& e : r.editions) by += (by.empty() ? "" : ", ") + e + " " + std::to_string(per[e]);
  return std::to_string(r.changes.size()) + " numbers move (" + by + "), " + std::to_string(r.drift.size()) +
         " drift in translations, " + std::to_string(r.redraws.size()) + " charts redrawn, " +
         std::to_string(r.data.size()) + " data files changed";
}

// The errors of each side, which the diff does not stop at.
std::string errors(const Report& r) {
  return "bookbuild check finds " + std::to_string(r.head_errors) + " error(s) at the head and " +
         std::to_string(r.base_errors) +
         " at the base (a bound number that no longer matches its source is one); the numbers of a chapter "
         "that could not be read are not compared";
}

// A cell of a Markdown table: a pull request's page must show the book's text, never run it as HTML.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '|': out += "\\|"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '`': out += "'"; break;
      case '\n': out += ' '; break;
      default: out += c;
    }
  }
  return out;
}

std::string place(const std::string& file, int line) {
  return "`" + cell(file) + ":" + std::to_string(line) + "`";
}

}  // namespace

std::string render_text(const Report& r, const Sides& sides) {
  std::ostringstream o;
  o << "number diff: " << side(sides.base, sides.base_commit) << " -> " << side(sides.head, sides.head_commit)
    << "\n";
  for (const auto& c : r.changes) {
    o << c.file << ':' << c.line << ": [" << c.edition << "] " << kind_name(c.kind) << ' ' << c.what << ": "
      << before_after(c.before, c.after);
    if (c.relative) o << " (" << percent(*c.relative) << ')';
    o << '\n';
  }
  for (const auto& d : r.drift)
    o << d.file << ':' << d.line << ": [" << d.edition << "] drift: still shows " << d.text
      << "; the source (" << d.source_file << ':' << d.source_line << ") changed " << d.before << " -> "
      << d.after << '\n';
  for (const auto& d : r.redraws)
    o << d.file << ':' << d.line << ": [" << d.edition << "] chart redrawn: " << d.spec << '\n';
  for (const auto& d : r.data) {
    o << d.file << ": " << d.status << '\n';
    for (const auto& f : d.fields)
      if (!f.pointer.empty())
        o << "  " << f.pointer << ": " << before_after(f.before, f.after) << " (" << f.owner << ", moves "
          << f.moves << ")\n";
    if (d.more_fields) o << "  … and " << d.more_fields << " more values\n";
  }
  if (r.base_errors || r.head_errors) o << "note: " << errors(r) << '\n';
  o << counts(r) << '\n';
  return o.str();
}

namespace {

// One chapter's section; at most `budget` rows (what is left of kMaxMarkdownRows), the count of the rest
// said in the section.
void markdown_chapter(std::ostringstream& o, const std::string& heading, std::vector<const Change*> rows,
                      const std::vector<std::string>& editions, std::size_t& budget) {
  auto order = [&](const std::string& e) {
    return std::find(editions.begin(), editions.end(), e) - editions.begin();
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const Change* a, const Change* b) {
    const double ra = a->relative ? std::fabs(*a->relative) : -1,
                 rb = b->relative ? std::fabs(*b->relative) : -1;
    if (ra != rb) return ra > rb;
    return std::make_tuple(order(a->edition), a->line) < std::make_tuple(order(b->edition), b->line);
  });
  o << "\n#### " << cell(heading) << " (" << rows.size() << ")\n\n";
  auto header = [&] {
    o << "| edition | place | number | before | after | change |\n|---|---|---|---|---|---|\n";
  };
  header();
  std::size_t i = 0;
  for (; i < rows.size() && budget > 0; ++i, --budget) {
    if (i == kScreenful) {
      o << "\n<details><summary>" << rows.size() - kScreenful << " more</summary>\n\n";
      header();
    }
    const Change& c = *rows[i];
    o << "| " << cell(c.edition) << " | " << place(c.file, c.line) << " | " << kind_name(c.kind) << ": "
      << cell(c.what) << " | " << cell(c.before) << " | " << cell(c.after) << " | "
      << (c.relative ? percent(*c.relative) : std::string()) << " |\n";
  }
  if (i < rows.size())
    o << "| … | " << rows.size() - i << " more: `bookbuild diff` lists every one | | | | |\n";
  if (rows.size() > kScreenful) o << "\n</details>\n";
}

}  // namespace

std::string render_markdown(const Report& r, const Sides& sides) {
  std::ostringstream o;
  o << "### Number diff\n\n"
    << cell(side(sides.base, sides.base_commit)) << " → " << cell(side(sides.head, sides.head_commit))
    << ": **" << cell(counts(r)) << "**.\n";
  if (r.changes.empty() && r.drift.empty() && r.redraws.empty() && r.data.empty())
    o << "\nNo number of the book changes.\n";
  if (r.base_errors || r.head_errors) o << "\n> " << cell(errors(r)) << '\n';
  if (!r.drift.empty()) {
    o << "\n#### Translations that still show the old number (" << r.drift.size() << ")\n\n"
      << "| edition | place | still shows | source | source change |\n|---|---|---|---|---|\n";
    for (const auto& d : r.drift)
      o << "| " << cell(d.edition) << " | " << place(d.file, d.line) << " | " << cell(d.text) << " | "
        << place(d.source_file, d.source_line) << " | " << cell(d.before) << " → " << cell(d.after) << " |\n";
  }
  if (!r.data.empty()) {
    o << "\n#### Calculation data (" << r.data.size()
      << " files)\n\n| file | value | before | after | moves |\n|---|---|---|---|---|\n";
    for (const auto& d : r.data) {
      for (const auto& f : d.fields)
        o << "| `" << cell(d.file) << "` | " << cell(f.pointer.empty() ? d.status : f.pointer) << " | "
          << cell(f.before) << " | " << cell(f.after) << " | " << f.moves << " |\n";
      if (d.more_fields) o << "| | … " << d.more_fields << " more values | | | |\n";
    }
  }
  if (!r.redraws.empty()) {
    o << "\n#### Charts redrawn (" << r.redraws.size() << ")\n\n";
    for (const auto& d : r.redraws)
      o << "- " << cell(d.edition) << ": `" << cell(d.spec) << "` at " << place(d.file, d.line) << "\n";
  }
  std::size_t budget = kMaxMarkdownRows;
  std::map<std::size_t, std::vector<const Change*>> by_chapter;
  for (const auto& c : r.changes) by_chapter[c.chapter_index].push_back(&c);
  for (const auto& [index, rows] : by_chapter) {
    const std::string title =
        index < r.titles.size() && !r.titles[index].empty() ? r.titles[index] : rows.front()->chapter;
    markdown_chapter(o, title, rows, r.editions, budget);
  }
  return o.str();
}

}  // namespace bb::diff
