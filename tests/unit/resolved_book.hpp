// Shared by tests that resolve a whole book from its folder: the book loaded as the CLI loads it, then
// resolved once, its folder standing as the repository's top level.
#pragma once

#include <filesystem>
#include <optional>
#include <utility>

#include "book/book.hpp"
#include "diag/diagnostics.hpp"
#include "filters/pipeline.hpp"

namespace bb::test {

// The book at `root`, resolved; nullopt when its book.toml cannot be read (said in `diags`).
inline std::optional<book::Book> resolved_book(const std::filesystem::path& root, Diagnostics& diags) {
  auto config = book::load_config(root, diags);
  if (!config) return std::nullopt;
  book::Book book = book::load_book(std::move(*config), diags);
  repo::Repository repository;
  repository.toplevel = book.config.root;
  filters::ResolveOptions options;
  options.repository = &repository;
  filters::resolve(book, diags, options);
  return book;
}

}  // namespace bb::test
