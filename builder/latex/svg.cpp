// SVG figures for print, through the SVG module (builder/latex/svg_render.cpp) and the figure cache.
#include "latex/svg.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include "figures/figures.hpp"
#include "figures/modules.hpp"
#include "figures/pdf_render.h"
#include "text/digest.hpp"

namespace bb::latex {

namespace fs = std::filesystem;

std::string svg_to_pdf(const fs::path& svg, const fs::path& pdf) {
  std::string error;
  auto fn = reinterpret_cast<bookbuild_svg_to_pdf_fn>(
      figures::module_symbol(figures::Module::Svg, "bookbuild_svg_to_pdf", error));
  if (!fn) return error;
  char message[512] = {};
  if (fn(svg.c_str(), pdf.c_str(), message, sizeof message) != 0) return message;
  return "";
}

std::string svg_to_pdf_cached(const fs::path& svg, const fs::path& pdf, const fs::path& cache) {
  if (cache.empty()) return svg_to_pdf(svg, pdf);
  std::ifstream in(svg, std::ios::binary);
  if (!in) return "cannot read " + svg.string();
  std::ostringstream bytes;
  bytes << in.rdbuf();
  // The key covers the converter's settings (96 px per inch, PDF points), so that changing them
  // never serves a stale PDF.
  fs::path entry = cache / (text::sha256_hex(bytes.str() + "\nsvg-to-pdf 96dpi") + ".pdf");
  std::error_code ec;
  if (!fs::is_regular_file(entry, ec)) {
    fs::create_directories(cache, ec);
    // Written aside and renamed, so that a concurrent build never reads half a PDF.
    static std::atomic<unsigned> counter{0};
    fs::path tmp = cache / ("." + entry.filename().string() + ".tmp-" + std::to_string(getpid()) + "-" +
                            std::to_string(counter++));
    if (std::string err = svg_to_pdf(svg, tmp); !err.empty()) {
      fs::remove(tmp, ec);
      return err;
    }
    fs::rename(tmp, entry, ec);
    if (ec) return "cannot write " + entry.string() + ": " + ec.message();
  }
  fs::remove(pdf, ec);
  fs::create_hard_link(entry, pdf, ec);
  if (ec) fs::copy_file(entry, pdf, fs::copy_options::overwrite_existing, ec);
  if (ec) return "cannot write " + pdf.string() + ": " + ec.message();
  return "";
}

}  // namespace bb::latex
