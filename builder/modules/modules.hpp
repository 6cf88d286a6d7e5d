// Native modules loaded on first use (dlopen): the libraries behind PDF and SVG work (Poppler,
// librsvg, cairo and the few dozen libraries they pull in) and behind ZIP archives (libzip, with
// libcrypto and bzip2), behind the checks' XML and HTML parsing (libxml2, with liblzma) and behind code
// highlighting (Source-highlight, Boost.Regex, ICU i18n) cost nothing to the runs that do not need
// them: a site or LaTeX build with its figure cache warm loads none of the first three.
#pragma once

#include <string>

namespace bb::modules {

enum class Module { Pdf, Svg, Zip, Xml, Highlight, Git };

// The address of `symbol` in the module, loading it on the first call (thread-safe). On failure
// returns nullptr and sets `error`. BOOKBUILD_PDF_MODULE / BOOKBUILD_SVG_MODULE / BOOKBUILD_ZIP_MODULE /
// BOOKBUILD_XML_MODULE / BOOKBUILD_HIGHLIGHT_MODULE / BOOKBUILD_GIT_MODULE override where the modules are
// looked for (an installed bookbuild, say). A module that exports `extern "C" void bookbuild_module_init()`
// has it called once, right after loading and before any symbol is handed out.
void* module_symbol(Module module, const char* symbol, std::string& error);

// The file the module is (or would be) loaded from: the override's value or the built module.
std::string module_path(Module module);

}  // namespace bb::modules
