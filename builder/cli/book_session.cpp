// Loading a book for a subcommand, and reporting what was found.
#include "cli/book_session.hpp"

#include <iostream>

#include "cli/calc_evaluator.hpp"

namespace bb::cli {

bool BookSession::load(const Context& ctx, const std::vector<std::string>& editions, SessionCache* cache) {
  auto config = book::load_config(ctx.global.book_dir, diags);
  if (!config) return false;
  if (!ctx.global.repository.empty()) config->repository = ctx.global.repository;
  book = book::load_book(std::move(*config), diags, editions, cache ? &cache->parsed : nullptr);
  std::optional<filters::Evaluator> local;
  std::optional<filters::Evaluator>& evaluator = cache ? cache->evaluator : local;
  if (!cache || !cache->evaluator_loaded) {
    try {
      evaluator = make_evaluator(book->config.calculations);
      if (cache) cache->evaluator_loaded = true;
    } catch (const std::exception& e) {
      diags.error({book->config.calculations, 0, 0}, std::string("cannot load the calc data: ") + e.what());
    }
  }
  filters::ResolveOptions options;
  options.evaluate = evaluator ? &*evaluator : nullptr;
  if (cache && cache->repository) options.repository = &*cache->repository;
  resolution = filters::resolve(*book, diags, options);
  if (cache) cache->repository = resolution.repository;
  return true;
}

int BookSession::report(const Context& ctx) const {
  diags.print(std::cerr, ctx.global.book_dir);
  diags.print_summary(std::cerr);
  return diags.has_errors() ? 1 : 0;
}

}  // namespace bb::cli
