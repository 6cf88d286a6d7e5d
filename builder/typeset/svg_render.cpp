// The SVG module: SVG to PDF with librsvg 2.52+ and cairo-pdf, loaded (dlopen) only when a figure
// is converted, so that librsvg, cairo, pango and the rest cost nothing to other runs. Every C handle
// is owned the moment it is created.
#include <cstring>
#include <filesystem>
#include <string>

#include "figures/pdf_render.h"

#include <cairo-pdf.h>
#include <cairo.h>
#include <librsvg/rsvg.h>
#include <libxml/parser.h>

#include <memory>

namespace {

struct GObjectUnref {
  void operator()(void* p) const { g_object_unref(p); }
};
struct ErrorFree {
  void operator()(GError* e) const { g_error_free(e); }
};
struct SurfaceDestroy {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct CairoDestroy {
  void operator()(cairo_t* c) const { cairo_destroy(c); }
};

std::string svg_to_pdf(const std::filesystem::path& svg, const std::filesystem::path& pdf) {
  GError* raw_error = nullptr;
  std::unique_ptr<RsvgHandle, GObjectUnref> handle(rsvg_handle_new_from_file(svg.c_str(), &raw_error));
  std::unique_ptr<GError, ErrorFree> error(raw_error);
  if (!handle) return error ? error->message : "cannot read the SVG";
  rsvg_handle_set_dpi(handle.get(), 96);

  double width = 0, height = 0;
  if (!rsvg_handle_get_intrinsic_size_in_pixels(handle.get(), &width, &height) || width <= 0 || height <= 0) {
    // No width/height in absolute units: use the viewBox, as browsers do.
    gboolean has_w, has_h, has_vb;
    RsvgLength w, h;
    RsvgRectangle vb;
    rsvg_handle_get_intrinsic_dimensions(handle.get(), &has_w, &w, &has_h, &h, &has_vb, &vb);
    if (!has_vb || vb.width <= 0 || vb.height <= 0) return "the SVG has neither a size nor a viewBox";
    width = vb.width;
    height = vb.height;
  }
  // CSS pixels are 1/96 in; PDF points 1/72 in.
  const double scale = 72.0 / 96.0;
  std::unique_ptr<cairo_surface_t, SurfaceDestroy> surface(
      cairo_pdf_surface_create(pdf.c_str(), width * scale, height * scale));
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
    return std::string("cannot create ") + pdf.string() + ": " +
           cairo_status_to_string(cairo_surface_status(surface.get()));
  // cairo stamps the PDF with the time of conversion unless told otherwise. An empty date leaves the
  // (optional) CreationDate out, so the same SVG gives the same bytes on every machine and every run,
  // as the cache, keyed by the SVG, assumes. (A set date would not do on Debian 12: cairo 1.16 writes
  // it without the "D:" prefix PDF dates take.) cairo_pdf_surface_set_metadata, cairo 1.16+:
  // https://www.cairographics.org/manual/cairo-PDF-Surfaces.html
  cairo_pdf_surface_set_metadata(surface.get(), CAIRO_PDF_METADATA_CREATE_DATE, "");
  std::unique_ptr<cairo_t, CairoDestroy> cr(cairo_create(surface.get()));
  cairo_scale(cr.get(), scale, scale);
  RsvgRectangle viewport{0, 0, width, height};
  GError* render_raw = nullptr;
  bool ok = rsvg_handle_render_document(handle.get(), cr.get(), &viewport, &render_raw);
  std::unique_ptr<GError, ErrorFree> render_error(render_raw);
  if (!ok) return render_error ? render_error->message : "cannot render the SVG";
  cr.reset();
  cairo_surface_finish(surface.get());
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
    return std::string("cannot write ") + pdf.string();
  return "";
}

}  // namespace

// librsvg parses with libxml2, whose global state is set up once by the loader before threads render
// figures in parallel (modules/modules.hpp).
extern "C" void bookbuild_module_init() {
  xmlInitParser();
}

extern "C" int bookbuild_svg_to_pdf(const char* svg, const char* pdf, char* error, std::size_t error_size) {
  std::string e;
  try {
    e = svg_to_pdf(svg, pdf);
  } catch (const std::exception& x) {
    e = x.what();
  }
  return bookbuild_report(e, error, error_size);
}
