// The file, table and element limits (see size_limits.hpp): a scan of the lines, no parsing.
#include "markdown/size_limits.hpp"

#include <cmark-gfm.h>

#include <string>

#include "text/unicode.hpp"

namespace bb::markdown {
namespace {

std::string mib(std::size_t bytes) {
  return std::to_string((bytes + (std::size_t{1} << 19)) >> 20) + " MiB";
}

// A GFM table's delimiter row: pipes, dashes, colons and spaces, with at least one dash and a pipe.
bool delimiter_row(std::string_view line) {
  bool dash = false, pipe = false;
  for (char c : line) {
    if (c == '-') {
      dash = true;
    } else if (c == '|') {
      pipe = true;
    } else if (c != ':' && c != ' ' && c != '\t' && c != '\r') {
      return false;
    }
  }
  return dash && pipe;
}

// Cells of a row: the unescaped pipes between cells, plus one; leading and trailing pipes are borders.
std::size_t cells(std::string_view row) {
  const auto first = row.find_first_not_of(" \t\r"), last = row.find_last_not_of(" \t\r");
  if (first == std::string_view::npos) return 0;
  row = row.substr(first, last - first + 1);
  std::size_t pipes = 0;
  for (std::size_t i = 0; i < row.size(); ++i)
    if (row[i] == '|' && (i == 0 || row[i - 1] != '\\')) ++pipes;
  std::size_t n = pipes + 1;
  if (row.front() == '|' && n > 1) --n;
  if (row.size() > 1 && row.back() == '|' && row[row.size() - 2] != '\\' && n > 1) --n;
  return n;
}

// A code fence: up to three spaces, then three or more backticks or tildes; its character and length.
struct Fence {
  char mark = 0;
  std::size_t length = 0;
};
Fence fence_of(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  if (i >= line.size() || (line[i] != '`' && line[i] != '~')) return {};
  const char mark = line[i];
  std::size_t n = 0;
  while (i + n < line.size() && line[i + n] == mark) ++n;
  return n >= 3 ? Fence{mark, n} : Fence{};
}

}  // namespace

bool within_file_size(std::size_t bytes, const std::filesystem::path& path, Diagnostics& diags) {
  if (bytes <= kMaxFileBytes) return true;
  diags.error({path, 1, 1}, "the file is " + mib(bytes) + "; a manuscript may be at most " +
                                mib(kMaxFileBytes) + " (split it into several chapters)");
  return false;
}

bool within_size_limits(std::string_view source, const std::filesystem::path& path, Diagnostics& diags) {
  if (!within_file_size(source.size(), path, diags)) return false;
  bool ok = true;
  std::string_view previous;
  int line_no = 0, table_line = 0;
  std::size_t table_cells = 0;
  bool reported = false;
  Fence open;  // the code block the scan is in: its lines are never table rows
  for (std::size_t start = 0; start < source.size();) {
    std::size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    const std::string_view line = source.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (const Fence f = fence_of(line); open.mark != 0 || f.mark != 0) {
      if (open.mark == 0) {
        open = f;
      } else if (f.mark == open.mark && f.length >= open.length && text::trim(line).size() == f.length) {
        open = {};
      }
      table_line = 0;
      previous = {};
      continue;
    }
    if (table_line > 0 && text::trim(line).empty()) {
      table_line = 0;
    } else if (table_line > 0) {
      table_cells += cells(line);
    } else if (delimiter_row(line) && !text::trim(previous).empty()) {
      table_line = line_no - 1;  // the header row
      table_cells = cells(previous) + cells(line);
      reported = false;
    }
    if (table_line > 0 && table_cells > kMaxTableCells && !reported) {
      diags.error({path, table_line, 1}, "this table has more than " + std::to_string(kMaxTableCells) +
                                             " cells, the limit of one table (split it or link a data file)");
      reported = true;
      ok = false;
    }
    previous = line;
  }
  return ok;
}

namespace {
// How the element limit is stated in messages.
std::string element_rule() {
  return "(" + std::to_string(kBaseElements) + " plus one per " + std::to_string(kBytesPerElement) +
         " bytes)";
}
}  // namespace

void over_parse_budget(std::size_t budget, std::size_t bytes, const std::filesystem::path& path,
                       Diagnostics& diags) {
  diags.error({path, 1, 1},
              "the file makes more than " + std::to_string(element_limit(bytes)) +
                  " elements (paragraphs, emphasis, links, cells …), the most a manuscript of " +
                  "this size may make " + element_rule() + ": parsing stopped at " + mib(budget) +
                  "; split it into several chapters");
}

bool within_element_limit(cmark_node* root, std::size_t bytes, const std::filesystem::path& path,
                          Diagnostics& diags) {
  std::size_t count = 0;
  cmark_iter* it = cmark_iter_new(root);
  for (cmark_event_type ev; (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE;)
    if (ev == CMARK_EVENT_ENTER) ++count;
  cmark_iter_free(it);
  const std::size_t limit = element_limit(bytes);
  if (count <= limit) return true;
  diags.error({path, 1, 1},
              "the file makes " + std::to_string(count) + " elements (paragraphs, emphasis, links, " +
                  "cells …); a manuscript of this size may make at most " + std::to_string(limit) + " " +
                  element_rule() + "; split it into several chapters");
  return false;
}

}  // namespace bb::markdown
