// Looking up book.toml's fonts in fontconfig (fonts.hpp).
#include "typeset/fonts.hpp"

#include <fontconfig/fontconfig.h>

#include <mutex>
#include <set>
#include <string>

namespace bb::typeset {

namespace {

// A name as fontconfig compares family names: case and spaces ignored.
std::string fold(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == ' ') continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

// Every family, full and PostScript name fontconfig lists, folded; read once per process.
const std::set<std::string>& installed_names() {
  static std::once_flag once;
  static std::set<std::string> names;
  std::call_once(once, [] {
    FcConfig* config = FcInitLoadConfigAndFonts();
    if (!config) return;
    FcPattern* any = FcPatternCreate();
    FcObjectSet* fields = FcObjectSetBuild(FC_FAMILY, FC_FULLNAME, FC_POSTSCRIPT_NAME, nullptr);
    if (FcFontSet* set = FcFontList(config, any, fields)) {
      for (int i = 0; i < set->nfont; ++i)
        for (const char* field : {FC_FAMILY, FC_FULLNAME, FC_POSTSCRIPT_NAME}) {
          FcChar8* value = nullptr;
          for (int k = 0; FcPatternGetString(set->fonts[i], field, k, &value) == FcResultMatch; ++k)
            names.insert(fold(reinterpret_cast<const char*>(value)));
        }
      FcFontSetDestroy(set);
    }
    FcObjectSetDestroy(fields);
    FcPatternDestroy(any);
    FcConfigDestroy(config);
  });
  return names;
}

}  // namespace

bool font_installed(std::string_view name) {
  return installed_names().count(fold(name)) > 0;
}

bool check_fonts(const book::PrintLook& look, Diagnostics& diags) {
  bool ok = true;
  for (const book::PrintLook::Font* f : look.families()) {
    if (font_installed(f->name)) continue;
    ok = false;
    diags.error(f->loc,
                "font `" + f->name +
                    "` is not installed: fontconfig, where XeLaTeX looks for fonts, knows no font "
                    "of that family or name (`fc-list : family` lists them)",
                "font");
  }
  return ok;
}

}  // namespace bb::typeset
