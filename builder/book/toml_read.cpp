// book.toml's reading, shared by its readers (toml_read.hpp).
#include "book/toml_read.hpp"

#include "inputs/file_io.hpp"
#include "tomlfile/parse.hpp"

namespace bb::book {

SourceLoc toml_place(const std::filesystem::path& file, const toml::node* n) {
  if (!n) return {file, 1, 1};
  const auto& begin = n->source().begin;
  return {file, static_cast<int>(begin.line), static_cast<int>(begin.column)};
}

std::optional<toml::table> read_book_toml(const std::filesystem::path& file, Diagnostics& diags) {
  constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;
  auto read = inputs::read_bounded(file, kMaxConfigBytes);
  if (!read.ok()) {
    diags.error({file, 0, 0}, inputs::read_problem(read, kMaxConfigBytes));
    return std::nullopt;
  }
  auto parsed = tomlfile::parse(read.bytes, file);
  if (!parsed.error.empty()) {
    diags.error({file, parsed.line, parsed.col}, parsed.error);
    return std::nullopt;
  }
  return std::move(parsed.table);
}

}  // namespace bb::book
