// Native modules loaded on first use (dlopen): the libraries behind PDF and SVG work (Poppler,
// librsvg, cairo and the few dozen libraries they pull in) and behind ZIP archives (libzip, with
// libcrypto and bzip2) and behind the checks' XML and HTML parsing (libxml2, with liblzma) cost nothing
// to the runs that do not need them, which is most runs: a site or LaTeX build with its figure cache
// warm loads none of them.
#pragma once

#include <string>

namespace bb::figures {

enum class Module { Pdf, Svg, Zip, Xml };

// The address of `symbol` in the module, loading it on the first call (thread-safe). On failure
// returns nullptr and sets `error`. BOOKBUILD_PDF_MODULE / BOOKBUILD_SVG_MODULE / BOOKBUILD_ZIP_MODULE /
// BOOKBUILD_XML_MODULE override where the modules are looked for (an installed bookbuild, say).
void* module_symbol(Module module, const char* symbol, std::string& error);

}  // namespace bb::figures
