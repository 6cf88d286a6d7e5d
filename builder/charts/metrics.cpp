// FreeType advances by code point, cached for the process. Fonts are found once with fontconfig.
#include "charts/metrics.hpp"

#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H

#include <mutex>
#include <unordered_map>

#include "text/unicode.hpp"

namespace bb::charts {

namespace {

struct Face {
  FT_Face face = nullptr;
  double units = 1000;
};

class Fonts {
 public:
  Fonts() {
    if (FT_Init_FreeType(&library_) != 0) {
      problem_ = "FreeType cannot start";
      return;
    }
    latin_ = open("Noto Sans");
    cjk_ = open("Noto Sans CJK SC");
  }
  ~Fonts() {
    for (Face* f : {&latin_, &cjk_})
      if (f->face) FT_Done_Face(f->face);
    if (library_) FT_Done_FreeType(library_);
  }
  Fonts(const Fonts&) = delete;
  Fonts& operator=(const Fonts&) = delete;

  // Advance of one code point in ems.
  double advance(char32_t c) {
    std::lock_guard lock(mutex_);
    auto it = cache_.find(c);
    if (it != cache_.end()) return it->second;
    double ems = measure(c);
    cache_.emplace(c, ems);
    return ems;
  }
  [[nodiscard]] const std::string& problem() const { return problem_; }

 private:
  Face open(const char* family) {
    Face f;
    FcPattern* pattern = FcNameParse(reinterpret_cast<const FcChar8*>(family));
    FcConfigSubstitute(nullptr, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result;
    FcPattern* match = FcFontMatch(nullptr, pattern, &result);
    FcChar8* file = nullptr;
    FcChar8* found = nullptr;
    int index = 0;
    if (match && FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch &&
        FcPatternGetString(match, FC_FAMILY, 0, &found) == FcResultMatch &&
        std::string_view(reinterpret_cast<const char*>(found)) == family) {
      FcPatternGetInteger(match, FC_INDEX, 0, &index);
      if (FT_New_Face(library_, reinterpret_cast<const char*>(file), index, &f.face) == 0)
        f.units = f.face->units_per_EM;
      else
        f.face = nullptr;
    }
    if (!f.face && problem_.empty())
      problem_ = std::string("font `") + family + "` not found (fonts-noto-core, fonts-noto-cjk)";
    if (match) FcPatternDestroy(match);
    FcPatternDestroy(pattern);
    return f;
  }

  double measure(char32_t c) {
    for (Face* f : {&latin_, &cjk_}) {
      if (!f->face) continue;
      FT_UInt glyph = FT_Get_Char_Index(f->face, c);
      if (glyph == 0) continue;
      FT_Fixed adv = 0;
      if (FT_Get_Advance(f->face, glyph, FT_LOAD_NO_SCALE, &adv) == 0)
        return static_cast<double>(adv) / f->units;
    }
    return text::char_width(c) == 2 ? 1.0 : 0.6;  // no font has it: the width a fallback font might take
  }

  FT_Library library_ = nullptr;
  Face latin_, cjk_;
  std::string problem_;
  std::mutex mutex_;
  std::unordered_map<char32_t, double> cache_;
};

Fonts& fonts() {
  static Fonts f;
  return f;
}

}  // namespace

double text_width(std::string_view text, double px, std::string& error) {
  Fonts& f = fonts();
  if (!f.problem().empty()) error = f.problem();
  double ems = 0;
  for (std::size_t pos = 0; pos < text.size();) ems += f.advance(text::next_code_point(text, pos));
  return ems * px;
}

}  // namespace bb::charts
