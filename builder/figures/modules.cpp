// Loading the PDF and SVG modules.
#include "figures/modules.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

namespace bb::figures {

namespace {

struct Loaded {
  std::once_flag once;
  void* handle = nullptr;
  std::string error;
};

Loaded& loaded(Module m) {
  static Loaded pdf, svg;
  return m == Module::Pdf ? pdf : svg;
}

}  // namespace

void* module_symbol(Module module, const char* symbol, std::string& error) {
  Loaded& l = loaded(module);
  std::call_once(l.once, [&] {
    const char* env = std::getenv(module == Module::Pdf ? "BOOKBUILD_PDF_MODULE" : "BOOKBUILD_SVG_MODULE");
    std::string path =
        env && *env ? env : (module == Module::Pdf ? BOOKBUILD_PDF_MODULE : BOOKBUILD_SVG_MODULE);
    l.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!l.handle) {
      const char* e = dlerror();
      l.error = "cannot load " + path + ": " + (e ? e : "unknown error");
    }
  });
  if (!l.handle) {
    error = l.error;
    return nullptr;
  }
  void* fn = dlsym(l.handle, symbol);
  if (!fn) error = std::string("the module has no ") + symbol;
  return fn;
}

}  // namespace bb::figures
