// The PDF renderer, a module loaded (dlopen) only when a PDF figure is not in the cache yet: Poppler
// and the two dozen libraries it pulls in then cost nothing to the builds that do not need them.
#include <poppler-document.h>
#include <poppler-font.h>
#include <poppler-global.h>
#include <poppler-image.h>
#include <poppler-page-renderer.h>
#include <poppler-page.h>
#include <poppler-toc.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "figures/pdf_render.h"

namespace {

// A page taller than this once rendered at the figure width is refused: Poppler would try to allocate
// the whole bitmap (a 1×14,400 pt strip is 20 million pixels tall at 1,400 px wide) and give a 1×1
// image after printing "Bogus memory allocation size" to stderr.
constexpr double kMaxRenderHeight = 16384;

std::string render(const char* data, std::size_t size, const char* png, int width) {
  // Poppler prints syntax warnings of slightly broken PDFs to stderr; a figure that cannot be
  // rendered is reported as a diagnostic instead.
  static std::once_flag once;
  std::call_once(once, [] { poppler::set_debug_error_function([](const std::string&, void*) {}, nullptr); });
  std::unique_ptr<poppler::document> doc(poppler::document::load_from_raw_data(data, static_cast<int>(size)));
  if (!doc || doc->is_locked()) return "cannot open the PDF";
  if (doc->pages() < 1) return "the PDF has no pages";
  std::unique_ptr<poppler::page> page(doc->create_page(0));
  if (!page) return "cannot read the PDF's first page";
  poppler::rectf box = page->page_rect(poppler::media_box);
  bool turned =
      page->orientation() == poppler::page::landscape || page->orientation() == poppler::page::seascape;
  double points = turned ? box.height() : box.width();
  double tall = turned ? box.width() : box.height();
  if (points <= 0 || tall <= 0) return "the PDF's first page has no width or no height";
  double dpi = width * 72.0 / points;
  double height = tall * dpi / 72.0;
  if (height > kMaxRenderHeight)
    return "the PDF's first page is " + std::to_string(static_cast<long>(points)) + " × " +
           std::to_string(static_cast<long>(tall)) + " pt: rendered " + std::to_string(width) +
           " px wide it would be " + std::to_string(static_cast<long long>(height)) + " px tall (at most " +
           std::to_string(static_cast<long>(kMaxRenderHeight)) + ")";
  poppler::page_renderer renderer;
  renderer.set_render_hint(poppler::page_renderer::antialiasing, true);
  renderer.set_render_hint(poppler::page_renderer::text_antialiasing, true);
  renderer.set_render_hint(poppler::page_renderer::text_hinting, true);
  poppler::image image = renderer.render_page(page.get(), dpi, dpi);
  if (!image.is_valid() || image.width() < width / 2 || image.height() < height / 2)
    return "Poppler could not render the PDF";
  if (!image.save(png, "png")) return std::string("cannot write ") + png;
  return {};
}

}  // namespace

extern "C" int bookbuild_render_pdf(const char* data, std::size_t size, const char* png, int width,
                                    char* error, std::size_t error_size) {
  std::string e;
  try {
    e = render(data, size, png, width);
  } catch (const std::exception& x) {
    e = x.what();
  }
  return bookbuild_report(e, error, error_size);
}

namespace {

std::string utf8(const poppler::ustring& s) {
  auto bytes = s.to_utf8();
  return std::string(bytes.begin(), bytes.end());
}

std::string inspect(const char* path, const bookbuild_pdf_visitor* v) {
  static std::once_flag once;
  std::call_once(once, [] { poppler::set_debug_error_function([](const std::string&, void*) {}, nullptr); });
  std::unique_ptr<poppler::document> doc(poppler::document::load_from_file(path));
  if (!doc) return "cannot open the PDF";
  v->pages(v->context, doc->pages());
  std::unique_ptr<poppler::toc> toc(doc->create_toc());
  if (toc && toc->root())
    for (const auto* item : toc->root()->children()) v->bookmark(v->context, utf8(item->title()).c_str());
  for (int i = 0; i < doc->pages(); ++i) {
    std::unique_ptr<poppler::page> page(doc->create_page(i));
    if (!page) continue;
    std::string t = utf8(page->text());
    v->page_text(v->context, i, t.data(), t.size());
  }
  for (const auto& f : doc->fonts()) v->font(v->context, f.name().c_str(), f.is_embedded() ? 1 : 0);
  return {};
}

}  // namespace

extern "C" int bookbuild_inspect_pdf(const char* path, const bookbuild_pdf_visitor* visitor, char* error,
                                     std::size_t error_size) {
  std::string e;
  try {
    e = inspect(path, visitor);
  } catch (const std::exception& x) {
    e = x.what();
  }
  return bookbuild_report(e, error, error_size);
}
