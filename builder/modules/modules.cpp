// Loading the PDF, SVG, ZIP, XML, highlighting and git modules.
#include "modules/modules.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>

namespace bb::modules {

namespace {

struct Loaded {
  std::once_flag once;
  void* handle = nullptr;
  std::string error;
};

Loaded& loaded(Module m) {
  static Loaded all[6];
  return all[static_cast<std::size_t>(m)];
}

}  // namespace

std::string module_path(Module module) {
  static constexpr const char* variables[] = {"BOOKBUILD_PDF_MODULE",       "BOOKBUILD_SVG_MODULE",
                                              "BOOKBUILD_ZIP_MODULE",       "BOOKBUILD_XML_MODULE",
                                              "BOOKBUILD_HIGHLIGHT_MODULE", "BOOKBUILD_GIT_MODULE"};
  static constexpr const char* built[] = {BOOKBUILD_PDF_MODULE,       BOOKBUILD_SVG_MODULE,
                                          BOOKBUILD_ZIP_MODULE,       BOOKBUILD_XML_MODULE,
                                          BOOKBUILD_HIGHLIGHT_MODULE, BOOKBUILD_GIT_MODULE};
  const auto m = static_cast<std::size_t>(module);
  const char* env = std::getenv(variables[m]);
  if (env && *env) return env;
  // An installed tree keeps the modules in <prefix>/lib/bookbuild, found from the executable's place
  // (<prefix>/bin/bookbuild), so that it works wherever it is moved; a binary in the build folder
  // loads them from where they were built.
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && !exe.empty()) {
    auto installed =
        exe.parent_path().parent_path() / "lib" / "bookbuild" / std::filesystem::path(built[m]).filename();
    if (std::filesystem::is_regular_file(installed, ec)) return installed.string();
  }
  return built[m];
}

void* module_symbol(Module module, const char* symbol, std::string& error) {
  Loaded& l = loaded(module);
  std::call_once(l.once, [&] {
    std::string path = module_path(module);
    l.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!l.handle) {
      const char* e = dlerror();
      l.error = "cannot load " + path + ": " + (e ? e : "unknown error");
      return;
    }
    // A module whose libraries keep global state sets it up here, once, before any thread calls into
    // it: libxml2 initialises its globals lazily on a thread's first call, and two threads racing
    // through that first call leak one of its mutexes (LeakSanitizer saw it in a parallel site build).
    if (auto* init = reinterpret_cast<void (*)()>(dlsym(l.handle, "bookbuild_module_init"))) init();
  });
  if (!l.handle) {
    error = l.error;
    return nullptr;
  }
  void* fn = dlsym(l.handle, symbol);
  if (!fn) error = std::string("the module has no ") + symbol;
  return fn;
}

}  // namespace bb::modules
