// `check`'s view of the outputs' refusals: the figure preparation and the font look-up they run.
#include "check/refusals.hpp"

#include <set>
#include <string>
#include <vector>

#include "figures/figures.hpp"
#include "typeset/fonts.hpp"

namespace bb::check {

std::size_t check_figures(const book::Book& book, const book::EditionBook& edition,
                          const std::filesystem::path& figure_cache, Diagnostics& diags) {
  // As the site gathers them (site.cpp, publish_images): each image file once per chapter, at its
  // first use there. A chart drawn by bookbuild is not a file of the book: nothing in it is refused.
  std::vector<figures::Request> requests;
  for (const auto& c : edition.chapters) {
    std::set<std::string> requested;
    doc::walk(c.root, [&](const doc::Node& n) {
      const std::string* asset = n.kind == doc::Kind::Image ? n.attr("asset") : nullptr;
      if (!asset || n.attr("chart-svg") || !requested.insert(*asset).second) return;
      requests.push_back({book.config.root / *asset, n.loc});
    });
  }
  figures::FigureCache(figure_cache, book.config.root).prepare_all(requests, diags);
  return requests.size();
}

void check_print_fonts(const book::EditionBook& edition, Diagnostics& diags) {
  typeset::check_fonts(edition.edition.print, diags);
}

}  // namespace bb::check
