// Template loading (the book's own templates/ first, then bookbuild's) and slot filling.
#include "writers/template.hpp"

#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>

#include "assets/assets.hpp"
#include "diag/diagnostics.hpp"
#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"

namespace bb::writers {

namespace fs = std::filesystem;

namespace {

std::mutex mutex;
fs::path book_templates;                // the book's templates/ folder, or empty
std::map<std::string, fs::path> found;  // template name → the file it was read from

// The book's file for `name`, when it has one inside its templates/ folder (a link out of it is
// refused: book inputs never reach outside the book).
std::optional<fs::path> book_file(const std::string& name) {
  if (book_templates.empty()) return std::nullopt;
  const fs::path file = book_templates / name;
  inputs::note_file(file);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  const fs::path real = fs::weakly_canonical(file, ec), base = fs::weakly_canonical(book_templates, ec);
  const auto rel = real.lexically_relative(base);
  if (ec || rel.empty() || *rel.begin() == "..")
    throw FatalError(file.string() + ": error: template links outside the book's templates folder");
  return file;
}

std::pair<int, int> line_col(const std::string& text, std::size_t offset) {
  int line = 1;
  std::size_t start = 0;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i)
    if (text[i] == '\n') ++line, start = i + 1;
  return {line, static_cast<int>(offset - start + 1)};
}

std::string place(const std::string& name, const std::string& tmpl, std::size_t offset) {
  fs::path file;
  {
    std::lock_guard lock(mutex);
    auto it = found.find(name);
    file = it != found.end() ? it->second : fs::path("templates") / name;
  }
  auto [line, col] = line_col(tmpl, offset);
  return file.string() + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: ";
}

bool is_slot_name(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace

fs::path data_dir() {
  return assets::data_dir();
}

void use_book_templates(const fs::path& folder) {
  std::lock_guard lock(mutex);
  book_templates = folder;
  found.clear();
}

std::string load_template(const std::string& name) {
  std::lock_guard lock(mutex);
  if (auto file = book_file(name)) {
    // A book's template is untrusted: read whole only within a bound (a page template is a few KiB).
    constexpr std::size_t kMaxTemplateBytes = std::size_t{4} << 20;
    auto read = inputs::read_bounded(*file, kMaxTemplateBytes);
    if (!read.ok())
      throw FatalError(file->string() + ": error: " + inputs::read_problem(read, kMaxTemplateBytes));
    found[name] = *file;
    return std::move(read.bytes);
  }
  found[name] = data_dir() / "templates" / name;
  return assets::read_data_file(fs::path("templates") / name);
}

fs::path template_file(const std::string& name) {
  std::lock_guard lock(mutex);
  if (auto it = found.find(name); it != found.end()) return it->second;
  return data_dir() / "templates" / name;
}

std::string fill_template(const std::string& tmpl, const std::map<std::string, std::string>& values,
                          const std::string& template_name) {
  // Sized once for the template and every value (a slot is used about once): a page grown by
  // doubling was copied ~8 times on its way to 100-200 KiB and held up to twice its size, which a
  // site build of every chapter at once paid for in fresh pages (issue 49).
  std::size_t size = tmpl.size();
  for (const auto& [name, value] : values) size += value.size();
  std::string out;
  out.reserve(size);
  std::size_t pos = 0;
  while (true) {
    std::size_t open = tmpl.find("{{", pos);
    if (open == std::string::npos) break;
    std::size_t close = tmpl.find("}}", open + 2);
    std::string name = close == std::string::npos ? "" : tmpl.substr(open + 2, close - open - 2);
    if (!is_slot_name(name))
      throw FatalError(
          place(template_name, tmpl, open) +
          "`{{` must open a slot such as {{title}}: a lower-case name and `}}` on the same line");
    auto it = values.find(name);
    if (it == values.end()) {
      std::string known;
      for (const auto& [k, v] : values) known += (known.empty() ? "" : ", ") + k;
      throw FatalError(place(template_name, tmpl, open) + "unknown slot {{" + name + "}} in " +
                       template_name + " (its slots: " + known + "; docs/configuration.md)");
    }
    out.append(tmpl, pos, open - pos);
    out += it->second;
    pos = close + 2;
  }
  out.append(tmpl, pos, std::string::npos);
  return out;
}

}  // namespace bb::writers
