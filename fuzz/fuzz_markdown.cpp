// Fuzz target: one chapter through the Markdown front end (cmark-gfm and bookbuild's syntax), the
// filters (numbering, targets, cross-references, links, computed numbers with the real calc
// evaluator, formula checks) and the HTML writer with MathML. Problems are diagnostics, never crashes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "book/book.hpp"
#include "book/config.hpp"
#include "cli/calc_evaluator.hpp"
#include "filters/pipeline.hpp"
#include "fuzz_support.hpp"
#include "markdown/frontend.hpp"
#include "math/mathml.hpp"
#include "writers/html.hpp"

namespace fs = std::filesystem;

namespace {

struct Setup {
  bb::book::Config config;
  std::optional<bb::filters::Evaluator> evaluate;
};

const Setup& setup() {
  static const Setup s = [] {
    fs::path root = bb::fuzz::scratch() / "book";
    bb::fuzz::write(root / "book.toml",
                    "[book]\ntitle = \"Fuzz\"\nrepository = \"https://example.org/fuzz\"\n\n"
                    "[[edition]]\nid = \"en\"\nlang = \"en\"\nfolder = \"manuscripts\"\nsite-path = \"\"\n"
                    "chapters = [\"chapter01.md\"]\n");
    bb::fuzz::write(root / "manuscripts" / "chapter01.md", "# Chapter\n");
    bb::fuzz::write(root / "manuscripts" / "img" / "a.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
    bb::Diagnostics diags;
    Setup out;
    auto config = bb::book::load_config(root, diags);
    if (!config || diags.has_errors()) std::abort();  // the harness's own book must load
    out.config = *config;
    out.evaluate = bb::cli::make_evaluator(fs::path(BOOKBUILD_SOURCE_DIR) / "calculations");
    return out;
  }();
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Setup& s = setup();
  bb::Diagnostics diags;
  bb::book::Book book;
  book.config = s.config;
  bb::book::EditionBook edition;
  edition.edition = s.config.editions.front();
  bb::book::Chapter chapter;
  chapter.key = "ch01";
  chapter.number = 1;
  chapter.path = s.config.root / "manuscripts" / "chapter01.md";
  chapter.root =
      bb::markdown::parse(std::string_view(reinterpret_cast<const char*>(data), size), chapter.path, diags);
  edition.chapters.push_back(std::move(chapter));
  book.editions.push_back(std::move(edition));

  bb::filters::ResolveOptions options;
  options.evaluate = s.evaluate ? &*s.evaluate : nullptr;
  static const bb::repo::Repository repository = [] {
    bb::repo::Repository r;  // a fixed one: no .git read per input
    r.commit = "0123456789abcdef0123456789abcdef01234567";
    return r;
  }();
  options.repository = &repository;
  bb::filters::resolve(book, diags, options);

  bb::writers::HtmlOptions html;
  html.math = [](const bb::doc::Node& n) {
    return bb::math::to_mathml(n.text, n.kind == bb::doc::Kind::DisplayMath).mathml;
  };
  bb::writers::render_html(book.editions.front().chapters.front().root, html);
  return 0;
}
