/* The entry point of the highlighting module (bookbuild_highlighter.so,
   builder/highlight/highlight_module.cpp), looked up with dlsym: GNU Source-highlight, Boost.Regex and ICU's
   i18n library behind it, and the regular expressions Source-highlight compiles when it is loaded, are paid
   by the runs that highlight a code block, not by every run. */
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One run of code with one meaning: `kind` is Source-highlight's element name, "" for plain text.
   Strings are valid only during the call. */
typedef void (*bookbuild_highlight_token_fn)(void* context, const char* kind, const char* text, size_t size);

/* Splits code[0..size) into tokens of `language` (a lang.map name, lower case) and reports them in order,
   adjacent runs of one kind merged, newlines as plain text. Returns 0 when highlighted, non-zero (and
   reports nothing) when Source-highlight has no usable definition for the language. Thread-safe. */
typedef int (*bookbuild_highlight_fn)(const char* language, const char* code, size_t size,
                                      bookbuild_highlight_token_fn token, void* context);

int bookbuild_highlight(const char* language, const char* code, size_t size,
                        bookbuild_highlight_token_fn token, void* context);

/* The definition file lang.map names for `language` (as bookbuild_highlight would read it), copied with its
   terminating NUL into out[0..size). Returns its length ("" when lang.map has no such name), or -1 when
   lang.map cannot be read or the name does not fit. Thread-safe. */
typedef long (*bookbuild_highlight_definition_fn)(const char* language, char* out, size_t size);

long bookbuild_highlight_definition(const char* language, char* out, size_t size);

#ifdef __cplusplus
}
#endif
