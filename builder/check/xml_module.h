/* The entry point of the XML module (bookbuild_xml.so, builder/check/xml_module.cpp), looked up with
   dlsym: libxml2 (and liblzma with it) is loaded by the checks that read pages and EPUB entries back,
   not by every run. */
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bookbuild_xml_attribute {
  const char* name; /* local name, UTF-8 */
  const char* ns;   /* namespace URI, or NULL */
  const char* value;
} bookbuild_xml_attribute;

/* Every element, in document order: its index is the number of elements reported before it; `parent`
   is the index of its parent element, -1 for the root. Strings are valid only during the call. */
typedef void (*bookbuild_xml_element_fn)(void* context, long parent, const char* name, long line,
                                         const bookbuild_xml_attribute* attributes, size_t count);
/* A well-formedness error (XML only; the HTML parser recovers silently), with its line. */
typedef void (*bookbuild_xml_error_fn)(void* context, long line, const char* message);

/* Parses data[0..size) as XML (html == 0; no network, every error reported) or as HTML (html != 0,
   libxml2's forgiving HTML parser) and reports its elements. Returns 0 when a document with a root
   element was built, non-zero otherwise. */
typedef int (*bookbuild_xml_parse_fn)(const char* data, size_t size, const char* url, int html,
                                      bookbuild_xml_element_fn element, bookbuild_xml_error_fn error,
                                      void* context);

int bookbuild_xml_parse(const char* data, size_t size, const char* url, int html,
                        bookbuild_xml_element_fn element, bookbuild_xml_error_fn error, void* context);

#ifdef __cplusplus
}
#endif
