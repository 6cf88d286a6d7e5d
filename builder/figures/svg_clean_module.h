/* The SVG cleaner's entry point in the XML module (bookbuild_xml.so), looked up with dlsym: libxml2
   parses the figure (no network, no entity expansion, no DTD loading), asks the policy in
   svg_clean.cpp about every element, processing instruction and attribute, applies its answers and
   writes the document back. Only the tree surgery lives here; every decision is the caller's. */
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Answers of the callbacks. */
enum {
  BOOKBUILD_SVG_KEEP = 0,
  BOOKBUILD_SVG_DROP = 1,        /* the attribute, element or processing instruction goes */
  BOOKBUILD_SVG_REPLACE = 2,     /* the attribute's value (or the style text) becomes *replacement */
  BOOKBUILD_SVG_DROP_ELEMENT = 3 /* from an attribute: its whole element goes */
};

/* Results of bookbuild_svg_clean. */
enum {
  BOOKBUILD_SVG_OK = 0,
  BOOKBUILD_SVG_NOT_WELL_FORMED = 1, /* errors went to the error callback */
  BOOKBUILD_SVG_ENTITIES = 2         /* the document declares or uses entities: nothing written */
};

/* An element (name "script") or a processing instruction (name "?xml-stylesheet"); `ns` is the
   namespace URI or NULL. */
typedef int (*bookbuild_svg_node_fn)(void* context, const char* name, const char* ns, long line);
/* An attribute of `element`, or the text of a <style> element (name "#text"). On REPLACE the new
   value is read from *replacement, owned by the caller until its next call. */
typedef int (*bookbuild_svg_attribute_fn)(void* context, const char* element, const char* name,
                                          const char* ns, const char* value, long line,
                                          const char** replacement);
typedef void (*bookbuild_svg_error_fn)(void* context, long line, const char* message);
/* The cleaned document, UTF-8, called once on success. */
typedef void (*bookbuild_svg_output_fn)(void* context, const char* data, size_t size);

typedef int (*bookbuild_svg_clean_fn)(const char* data, size_t size, const char* url,
                                      bookbuild_svg_node_fn node, bookbuild_svg_attribute_fn attribute,
                                      bookbuild_svg_error_fn error, bookbuild_svg_output_fn output,
                                      void* context);

int bookbuild_svg_clean(const char* data, size_t size, const char* url, bookbuild_svg_node_fn node,
                        bookbuild_svg_attribute_fn attribute, bookbuild_svg_error_fn error,
                        bookbuild_svg_output_fn output, void* context);

#ifdef __cplusplus
}
#endif
