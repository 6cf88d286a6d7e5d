// Diagnostics: collection, ordering and printing with the offending source line.
#include "diag/diagnostics.hpp"
#include "inputs/inputs.hpp"
#include "text/unicode.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <sstream>
#include <tuple>

namespace bb {

namespace {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

std::string display_path(const std::filesystem::path& p, const std::filesystem::path& base) {
  if (p.empty()) return "<input>";
  if (!base.empty()) {
    // Lexically: the book's paths are absolute and normalized, and resolving links for every
    // diagnostic of a long report costs thousands of system calls.
    auto rel = p.lexically_normal().lexically_relative(base.lexically_normal());
    if (!rel.empty() && rel.native().rfind("..", 0) != 0) return escape_controls(rel.generic_string());
  }
  return escape_controls(p.generic_string());
}

// The length of the escape for the character at s[i] (0 when it is shown as it is) and its byte count.
std::pair<std::size_t, std::size_t> control_at(std::string_view s, std::size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x20 || c == 0x7F) return {4, 1};  // \x1B
  if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
      static_cast<unsigned char>(s[i + 1]) <= 0x9F)
    return {6, 2};  // C1 controls, \u009B
  if (c == 0xE2 && i + 2 < s.size()) {
    auto c1 = static_cast<unsigned char>(s[i + 1]);
    auto c2 = static_cast<unsigned char>(s[i + 2]);
    // Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) reorder what is shown.
    if ((c1 == 0x80 && c2 >= 0xAA && c2 <= 0xAE) || (c1 == 0x81 && c2 >= 0xA6 && c2 <= 0xA9)) return {6, 3};
  }
  return {0, 1};
}

}  // namespace

std::string escape_controls(std::string_view s, bool keep_tabs) {
  std::string out;
  out.reserve(s.size());
  static const char* hex = "0123456789ABCDEF";
  std::size_t shown = 0;  // s[shown, i) is shown as it is and not yet in `out`
  for (std::size_t i = 0; i < s.size();) {
    // Only these bytes can begin a character that is escaped (control_at).
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c >= 0x20 && c != 0x7F && c != 0xC2 && c != 0xE2) || (keep_tabs && c == '\t')) {
      ++i;
      continue;
    }
    auto [escaped, bytes] = control_at(s, i);
    if (escaped == 0) {
      i += bytes;
      continue;
    }
    out.append(s.substr(shown, i - shown));
    unsigned cp = c;
    if (bytes == 2) cp = static_cast<unsigned char>(s[i + 1]);
    if (bytes == 3)
      cp = ((cp & 0x0F) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3F) << 6) |
           (static_cast<unsigned char>(s[i + 2]) & 0x3F);
    out += bytes == 1 ? "\\x" : "\\u";
    for (int shift = bytes == 1 ? 4 : 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 15];
    i += bytes;
    shown = i;
  }
  out.append(s.substr(shown));
  return out;
}

namespace {

// The interned paths: never freed (a process builds one book, with tens of files), found by value.
const std::filesystem::path* intern(const std::filesystem::path& p) {
  static const std::filesystem::path* const empty = new std::filesystem::path;
  if (p.empty()) return empty;  // default-constructed locations take no lock
  // A thread asks for the same path many times in a row (every node of a chapter): the last one it
  // got is compared as a string, without the lock or the set's component-wise path comparisons.
  thread_local const std::filesystem::path* last = empty;
  if (last->native() == p.native()) return last;
  static std::mutex mutex;
  static std::set<std::filesystem::path>* paths = new std::set<std::filesystem::path>;
  std::lock_guard lock(mutex);
  last = &*paths->insert(p).first;
  return last;
}

}  // namespace

SourcePath::SourcePath() : path_(intern({})) {}  // the shared empty path, without a lock
SourcePath::SourcePath(const std::filesystem::path& p) : path_(intern(p)) {}

std::string& Diagnostics::current_check() {
  thread_local std::string check = "parse";
  return check;
}

void Diagnostics::add(Diagnostic d) {
  if (d.check == "parse") d.check = current_check();
  std::lock_guard lock(mutex_);
  items_.push_back(std::move(d));
}

std::vector<Diagnostic> Diagnostics::forget(const std::filesystem::path& file) {
  std::lock_guard lock(mutex_);
  std::vector<Diagnostic> gone;
  std::erase_if(items_, [&](Diagnostic& d) {
    if (!(d.loc.path == file)) return false;
    gone.push_back(std::move(d));
    return true;
  });
  return gone;
}

std::vector<Diagnostic> Diagnostics::in(const std::filesystem::path& file) const {
  std::lock_guard lock(mutex_);
  std::vector<Diagnostic> out;
  for (const auto& d : items_)
    if (d.loc.path == file) out.push_back(d);
  return out;
}

void Diagnostics::keep_checks(const std::vector<std::string>& checks) {
  std::lock_guard lock(mutex_);
  std::erase_if(items_, [&](const Diagnostic& d) {
    return d.check != "parse" && std::find(checks.begin(), checks.end(), d.check) == checks.end();
  });
}

void Diagnostics::error(SourceLoc loc, std::string message, std::string kind) {
  add({Severity::Error, std::move(loc), std::move(message), "parse", std::move(kind)});
}
void Diagnostics::warning(SourceLoc loc, std::string message, std::string kind) {
  add({Severity::Warning, std::move(loc), std::move(message), "parse", std::move(kind)});
}
void Diagnostics::note(SourceLoc loc, std::string message, std::string kind) {
  add({Severity::Note, std::move(loc), std::move(message), "parse", std::move(kind)});
}

std::string_view kind_of(const Diagnostic& d) {
  return d.kind.empty() ? std::string_view(d.check) : std::string_view(d.kind);
}

bool Diagnostics::has_errors() const {
  return error_count() > 0;
}

std::size_t Diagnostics::error_count() const {
  std::lock_guard lock(mutex_);
  return std::count_if(items_.begin(), items_.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

std::size_t Diagnostics::warning_count() const {
  std::lock_guard lock(mutex_);
  return std::count_if(items_.begin(), items_.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Warning; });
}

std::vector<Diagnostic> Diagnostics::all() const {
  std::lock_guard lock(mutex_);
  // Sorted as positions, not as copies: paths are interned (one object per value), so each file is
  // ranked once by its path and the sort compares integers. Comparing paths on every step of a sort
  // of the diagnostics themselves was most of a warm site build's report (458 warnings).
  std::vector<const std::filesystem::path*> files;
  for (const auto& d : items_) files.push_back(&d.loc.path.get());
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  std::vector<std::size_t> by_path(files.size());
  for (std::size_t i = 0; i < by_path.size(); ++i) by_path[i] = i;
  std::sort(by_path.begin(), by_path.end(),
            [&](std::size_t a, std::size_t b) { return *files[a] < *files[b]; });
  std::vector<std::size_t> rank(files.size());
  for (std::size_t r = 0; r < by_path.size(); ++r) rank[by_path[r]] = r;
  auto rank_of = [&](const Diagnostic& d) {
    return rank[static_cast<std::size_t>(std::lower_bound(files.begin(), files.end(), &d.loc.path.get()) -
                                         files.begin())];
  };
  struct Key {
    std::size_t file;
    int line, col;
    std::size_t index;  // the order of adding breaks ties: the sort is stable
  };
  std::vector<Key> keys;
  keys.reserve(items_.size());
  for (std::size_t i = 0; i < items_.size(); ++i)
    keys.push_back({rank_of(items_[i]), items_[i].loc.line, items_[i].loc.col, i});
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    return std::tie(a.file, a.line, a.col, a.index) < std::tie(b.file, b.line, b.col, b.index);
  });
  // The same problem at the same place, found by two passes (or on a node the tree holds twice, as
  // an image in a figure's caption), is reported once.
  std::vector<Diagnostic> out;
  out.reserve(keys.size());
  std::size_t group = 0;  // first entry of the run at the same place
  for (const auto& k : keys) {
    const Diagnostic& d = items_[k.index];
    if (group < out.size() && (out[group].loc.path != d.loc.path || out[group].loc.line != d.loc.line ||
                               out[group].loc.col != d.loc.col))
      group = out.size();
    bool repeat =
        std::any_of(out.begin() + static_cast<std::ptrdiff_t>(group), out.end(),
                    [&](const Diagnostic& o) { return o.severity == d.severity && o.message == d.message; });
    if (!repeat) out.push_back(d);
  }
  return out;
}

namespace {

// A diagnostic's line after its file's name as shown (display_path).
std::string format_diagnostic_shown(const Diagnostic& d, std::string out, bool with_kind) {
  if (d.loc.line > 0) {
    out += ":" + std::to_string(d.loc.line);
    if (d.loc.col > 0) out += ":" + std::to_string(d.loc.col);
  }
  out += ": ";
  out += severity_name(d.severity);
  out += ": ";
  out += escape_controls(d.message);
  if (with_kind) {
    out += " [";
    out += kind_of(d);
    out += ']';
  }
  return out;
}

}  // namespace

std::string format_diagnostic(const Diagnostic& d, const std::filesystem::path& base, bool with_kind) {
  return format_diagnostic_shown(d, display_path(d.loc.path, base), with_kind);
}

namespace {

// The first `wanted` lines of a file, each cut at 1 MiB (a diagnostic further along such a line
// shows no source), as views into `text`: the file is read in one piece (at most 256 MiB; a longer
// one shows the lines within it) and split with memchr, with no allocation per line.
struct SourceLines {
  std::string text;
  std::vector<std::string_view> lines;
};

SourceLines read_lines(const std::filesystem::path& path, std::size_t wanted) {
  constexpr std::size_t kLineCap = std::size_t{1} << 20;
  constexpr std::size_t kFileCap = std::size_t{256} << 20;
  SourceLines out;
  inputs::note_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  out.text.resize(ec ? 0 : static_cast<std::size_t>(std::min<std::uintmax_t>(size, kFileCap)));
  in.read(out.text.data(), static_cast<std::streamsize>(out.text.size()));
  out.text.resize(static_cast<std::size_t>(in.gcount()));
  std::string_view rest(out.text);
  while (out.lines.size() < wanted && !rest.empty()) {
    const void* nl = std::memchr(rest.data(), '\n', rest.size());
    std::size_t length =
        nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - rest.data()) : rest.size();
    std::string_view line = rest.substr(0, length);
    rest.remove_prefix(nl ? length + 1 : length);
    if (line.ends_with('\r')) line.remove_suffix(1);
    out.lines.push_back(line.substr(0, kLineCap));
  }
  return out;
}

// A long line becomes a window of about 240 bytes around the (1-based byte) column, cut at character
// boundaries and marked with "…"; the column is moved to the same character in the window.
std::string window(std::string_view src, int& col) {
  constexpr std::size_t kHalf = 120;
  if (src.size() <= 2 * kHalf + 40) return std::string(src);
  const std::size_t at = col > 0 ? std::min(src.size(), static_cast<std::size_t>(col - 1)) : 0;
  std::size_t from = at > kHalf ? at - kHalf : 0, to = std::min(src.size(), at + kHalf);
  while (from > 0 && (static_cast<unsigned char>(src[from]) & 0xC0) == 0x80) --from;
  while (to < src.size() && (static_cast<unsigned char>(src[to]) & 0xC0) == 0x80) ++to;
  const std::string_view head = from > 0 ? "…" : "", tail = to < src.size() ? "…" : "";
  if (col > 0) col = static_cast<int>(at - from + head.size()) + 1;
  std::string out;
  out.reserve(head.size() + (to - from) + tail.size());
  out += head;
  out += src.substr(from, to - from);
  out += tail;
  return out;
}

}  // namespace

void Diagnostics::print(std::ostream& stream, const std::filesystem::path& base, PrintStyle style) const {
  // Written in one piece at the end (std::cerr is unbuffered: one system call per `<<` otherwise).
  std::ostringstream out;
  struct Flush {
    std::ostream& to;
    std::ostringstream& from;
    ~Flush() { to << from.str(); }
  } flush{stream, out};
  const auto diagnostics = all();
  // Source lines are read once per file, only for files that have diagnostics, and only up to the
  // last line a diagnostic points at. A report names a few files many times; their paths are
  // interned (SourcePath): one object per value, so they are told apart by address.
  std::map<const std::filesystem::path*, int> last_line;
  for (const auto& d : diagnostics)
    if (d.loc.line > 0 && !d.loc.path.empty()) {
      int& last = last_line[&d.loc.path.get()];
      last = std::max(last, d.loc.line);
    }
  std::map<const std::filesystem::path*, SourceLines> lines_by_file;
  std::map<const std::filesystem::path*, std::string> shown_paths;
  for (const auto& d : diagnostics) {
    auto [shown, added] = shown_paths.try_emplace(&d.loc.path.get());
    if (added) shown->second = display_path(d.loc.path, base);
    out << format_diagnostic_shown(d, shown->second, style == PrintStyle::OneLine) << '\n';
    if (style == PrintStyle::OneLine || d.loc.line <= 0 || d.loc.path.empty()) continue;
    const std::filesystem::path* file = &d.loc.path.get();
    auto [it, inserted] = lines_by_file.try_emplace(file);
    if (inserted) it->second = read_lines(*file, static_cast<std::size_t>(last_line[file]));
    const auto& lines = it->second.lines;
    if (static_cast<std::size_t>(d.loc.line) > lines.size()) continue;
    if (d.loc.col > 0 && static_cast<std::size_t>(d.loc.col) > lines[d.loc.line - 1].size() + 1) continue;
    int col = d.loc.col;
    const std::string src = window(lines[d.loc.line - 1], col);
    out << "  " << escape_controls(src, true) << '\n';
    if (col > 0 && static_cast<std::size_t>(col) <= src.size() + 1) {
      // The caret lines up under the byte column; tabs are kept so the terminal aligns them alike.
      std::string pad;
      for (std::size_t i = 0; i + 1 < static_cast<std::size_t>(col) && i < src.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(src[i]);
        auto continuation = [&](std::size_t k) {
          return k < src.size() && (static_cast<unsigned char>(src[k]) & 0xC0) == 0x80;
        };
        if (c == '\t') {
          pad += '\t';
        } else if (c >= 0x20 && c < 0x7F) {
          pad += ' ';  // printable ASCII: one column, no decoding
        } else if (c >= 0xE5 && c <= 0xE9 && continuation(i + 1) && continuation(i + 2)) {
          pad += "  ";  // U+5000–U+9FFF: CJK Unified Ideographs, all East Asian Wide
          i += 2;
        } else if (auto [escaped, bytes] = control_at(src, i); escaped > 0) {
          pad.append(escaped, ' ');  // shown escaped above
          i += bytes - 1;
        } else {
          // One column per code point; wide (CJK) characters take two terminal cells.
          std::size_t next = i;
          const char32_t cp = text::next_code_point(src, next);
          pad += text::char_width(cp) == 2 ? "  " : " ";
          i = next - 1;
        }
      }
      out << "  " << pad << "^\n";
    }
  }
}

namespace {

// "  warnings: 413 link-target, 43 repository-link": the kinds of one severity, most frequent first
// (then by name), or "" when there are none.
std::string counts_by_kind(const std::vector<Diagnostic>& diagnostics, Severity severity, const char* label) {
  std::map<std::string_view, std::size_t> counts;
  for (const auto& d : diagnostics)
    if (d.severity == severity) ++counts[kind_of(d)];
  if (counts.empty()) return {};
  std::vector<std::pair<std::string_view, std::size_t>> sorted(counts.begin(), counts.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out = std::string("  ") + label + ":";
  for (std::size_t i = 0; i < sorted.size(); ++i)
    out += (i ? ", " : " ") + std::to_string(sorted[i].second) + " " + std::string(sorted[i].first);
  return out + "\n";
}

}  // namespace

void Diagnostics::print_summary(std::ostream& out) const {
  const auto diagnostics = all();
  std::size_t e = 0, w = 0;
  for (const auto& d : diagnostics) {
    e += d.severity == Severity::Error;
    w += d.severity == Severity::Warning;
  }
  if (e == 0 && w == 0) return;
  std::string text = std::to_string(e) + (e == 1 ? " error" : " errors") + ", " + std::to_string(w) +
                     (w == 1 ? " warning" : " warnings") + "\n";
  // One problem needs no breakdown: its kind is on its own line.
  if (e + w > 1)
    text += counts_by_kind(diagnostics, Severity::Error, "errors") +
            counts_by_kind(diagnostics, Severity::Warning, "warnings");
  out << text;
}

}  // namespace bb
