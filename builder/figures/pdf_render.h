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

#ifdef __cplusplus
}
#endif
