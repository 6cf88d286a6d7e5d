/* The entry point of the PDF renderer module (bookbuild_pdf.so), looked up with dlsym. */
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Renders the first page of the PDF in data[0..size) to a PNG file `width` pixels wide at `png`.
   Returns 0, or non-zero with a message in error[0..error_size). */
int bookbuild_render_pdf(const char* data, size_t size, const char* png, int width, char* error,
                         size_t error_size);
typedef int (*bookbuild_render_pdf_fn)(const char*, size_t, const char*, int, char*, size_t);

/* What `check pdf` reads from a PDF, handed over piece by piece (strings are UTF-8, valid only during
   the call). */
typedef struct bookbuild_pdf_visitor {
  void* context;
  void (*pages)(void* context, int count);
  void (*bookmark)(void* context, const char* title); /* each top-level outline entry, in order */
  void (*page_text)(void* context, int page, const char* text, size_t size);
  void (*font)(void* context, const char* name, int embedded);
} bookbuild_pdf_visitor;

/* Opens the PDF at `path` and visits its pages, outline, text and fonts. Returns 0, or non-zero with
   a message in error[0..error_size). */
int bookbuild_inspect_pdf(const char* path, const bookbuild_pdf_visitor* visitor, char* error,
                          size_t error_size);
typedef int (*bookbuild_inspect_pdf_fn)(const char*, const bookbuild_pdf_visitor*, char*, size_t);

/* The SVG module (builder/latex/svg_render.cpp): the SVG at `svg` as a one-page PDF of its own size at
   `pdf`. Returns 0, or non-zero with a message. */
int bookbuild_svg_to_pdf(const char* svg, const char* pdf, char* error, size_t error_size);
typedef int (*bookbuild_svg_to_pdf_fn)(const char*, const char*, char*, size_t);

#ifdef __cplusplus
}

#include <cstring>
#include <string>

// For the modules' entry points: the message into the caller's buffer, and the C return value.
inline int bookbuild_report(const std::string& message, char* error, size_t error_size) {
  if (message.empty()) return 0;
  if (error_size > 0) {
    std::strncpy(error, message.c_str(), error_size - 1);
    error[error_size - 1] = '\0';
  }
  return 1;
}
#endif
