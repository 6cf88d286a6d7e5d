// SVG figures for print, through the SVG module (builder/latex/svg_render.cpp).
#include "latex/svg.hpp"

#include "figures/modules.hpp"
#include "figures/pdf_render.h"

namespace bb::latex {

std::string svg_to_pdf(const std::filesystem::path& svg, const std::filesystem::path& pdf) {
  std::string error;
  auto fn = reinterpret_cast<bookbuild_svg_to_pdf_fn>(
      figures::module_symbol(figures::Module::Svg, "bookbuild_svg_to_pdf", error));
  if (!fn) return error;
  char message[512] = {};
  if (fn(svg.c_str(), pdf.c_str(), message, sizeof message) != 0) return message;
  return "";
}

}  // namespace bb::latex
