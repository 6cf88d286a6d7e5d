// TeX log findings (undefined references, overfull boxes) reported at manuscript lines.
#include "typeset/log_report.hpp"

#include <cstdio>
#include <fstream>
#include <string>

namespace bb::typeset {

namespace fs = std::filesystem;

namespace {

// The manuscript place of a book.tex line; book.tex itself for lines of another file or outside
// the chapters (the title page, the TOC).
SourceLoc place(const std::vector<writers::SourceMark>& marks, const fs::path& tex, const std::string& file,
                int line) {
  const bool in_book = file.empty() || fs::path(file).filename() == tex.filename();
  if (in_book && line > 0) {
    SourceLoc loc = writers::map_line(marks, line);
    if (!loc.path.empty()) return loc;
  }
  return {in_book ? tex : fs::path(file), line, 0};
}

std::string points(double pt) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f pt (%.1f mm)", pt, pt * 25.4 / 72.27);
  return buf;
}

}  // namespace

int report_layout_problems(const TexLog& log, const std::vector<writers::SourceMark>& marks,
                           const fs::path& tex, Severity overfull, Diagnostics& diags) {
  int reported = 0;
  for (const auto& ref : log.undefined_references) {
    std::string message = "LaTeX: reference to `" + ref.label + "`, a label that does not exist";
    if (ref.line > 0) message += " (" + tex.filename().string() + ":" + std::to_string(ref.line) + ")";
    diags.error(place(marks, tex, ref.file, ref.line), message);
    ++reported;
  }
  for (const auto& box : log.overfull_boxes) {
    if (box.points <= kOverfullTolerancePt) continue;
    std::string message = box.vertical
                              ? "LaTeX: a page is " + points(box.points) + " taller than the text block"
                              : "LaTeX: a line runs " + points(box.points) + " into the margin";
    if (box.first_line > 0) {
      message += " (" + tex.filename().string() + ":" + std::to_string(box.first_line);
      if (box.last_line > box.first_line) message += "-" + std::to_string(box.last_line);
      message += ")";
    }
    // A paragraph or table is reported where it starts: TeX names the lines it spans, not the line
    // of the paragraph that sticks out.
    Diagnostic d;
    d.severity = overfull;
    d.loc = place(marks, tex, box.file, box.first_line);
    d.message = std::move(message);
    diags.add(std::move(d));
    ++reported;
  }
  return reported;
}

std::vector<writers::SourceMark> read_srcmap(const fs::path& srcmap, const fs::path& book_root) {
  std::vector<writers::SourceMark> marks;
  std::ifstream in(srcmap);
  for (std::string line; std::getline(in, line);) {
    const auto tab = line.find('\t');
    const auto colon = line.rfind(':');
    if (tab == std::string::npos || colon == std::string::npos || colon < tab) continue;
    try {
      marks.push_back(
          {std::stoi(line.substr(0, tab)),
           {book_root / line.substr(tab + 1, colon - tab - 1), std::stoi(line.substr(colon + 1)), 1}});
    } catch (const std::exception&) {
      continue;  // a damaged line: the rest of the map is still useful
    }
  }
  return marks;
}

}  // namespace bb::typeset
