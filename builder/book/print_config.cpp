// The print look of book.toml (print_config.hpp).
#include "book/print_config.hpp"
#include "book/toml_read.hpp"

#include <algorithm>

#include "book/paths.hpp"
#include "inputs/inputs.hpp"
#include "text/suggest.hpp"

namespace bb::book {

namespace fs = std::filesystem;

namespace {

class PrintReader {
 public:
  PrintReader(const Config& cfg, Diagnostics& diags) : cfg_(cfg), file_(cfg.config_file), diags_(diags) {}

  // One font key: a string that names a family.
  void font(const toml::table& t, std::string_view key, PrintLook::Font& out) {
    const toml::node* n = t.get(key);
    if (!n) return;
    auto v = n->value<std::string>();
    if (!v || v->empty()) {
      diags_.error(toml_place(file_, n), "`" + std::string(key) + "` must be a font family name");
      return;
    }
    if (!is_font_name(*v)) {
      diags_.error(toml_place(file_, n),
                   "font name `" + *v +
                       "` holds characters no font family name has (TeX would read them "
                       "as markup): letters, digits, spaces and - . , ' ( ) + only");
      return;
    }
    out = {*v, toml_place(file_, n)};
  }

  // A list of font names (the rules of `check pdf`), appended to `out`.
  void font_list(const toml::table& t, std::string_view key, std::vector<PrintLook::Font>& out) {
    const toml::node* n = t.get(key);
    if (!n) return;
    const auto* arr = n->as_array();
    if (!arr) {
      diags_.error(toml_place(file_, n), "`" + std::string(key) + "` must be an array of font names");
      return;
    }
    for (const auto& item : *arr) {
      auto v = item.value<std::string>();
      if (!v || v->empty())
        diags_.error(toml_place(file_, &item), "`" + std::string(key) + "` holds font names (strings)");
      else
        out.push_back({*v, toml_place(file_, &item)});
    }
  }

  void unknown_keys(const toml::table& t, std::initializer_list<std::string_view> keys,
                    std::string_view where) {
    for (const auto& [k, v] : t)
      if (std::find(keys.begin(), keys.end(), k.str()) == keys.end())
        diags_.warning(toml_place(file_, &v), "unknown key `" + std::string(k.str()) + "` in " +
                                                  std::string(where) +
                                                  text::did_you_mean(k.str(), {keys.begin(), keys.end()}));
  }

  // `pdf-cover`: a file inside the book — an image or a PDF (its first page becomes the cover), or a
  // TeX file in the book's templates/ folder.
  void cover(const toml::table& t, const Edition& e, PrintLook& out) {
    const toml::node* n = t.get("pdf-cover");
    if (!n) return;
    auto v = n->value<std::string>();
    if (!v || v->empty()) {
      diags_.error(toml_place(file_, n), "`pdf-cover` must be a file name");
      return;
    }
    PathGuard guard(cfg_.root);
    // Like `cover`: relative to the edition's folder; a path from the book's root works as well.
    fs::path candidate = cfg_.root / e.folder / *v;
    if (!fs::exists(candidate) && fs::exists(cfg_.root / *v)) candidate = cfg_.root / *v;
    auto c = guard.confine(candidate);
    if (!c.ok()) {
      diags_.error(toml_place(file_, n), "pdf-cover `" + *v + "` " + c.error);
      return;
    }
    inputs::note_file(c.path);
    if (!fs::is_regular_file(c.path)) {
      diags_.error(toml_place(file_, n), "pdf-cover `" + *v + "` does not exist");
      return;
    }
    std::string ext = c.path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return std::tolower(ch); });
    if (ext == ".tex") {
      const fs::path templates = fs::weakly_canonical(cfg_.root / "templates");
      const fs::path rel = fs::weakly_canonical(c.path).lexically_relative(templates);
      if (rel.empty() || *rel.begin() == "..") {
        diags_.error(toml_place(file_, n),
                     "a TeX cover is kept in the book's templates/ folder (like "
                     "templates/latex/preamble.tex): `" +
                         *v + "` is not");
        return;
      }
    } else if (ext != ".pdf" && ext != ".png" && ext != ".jpg" && ext != ".jpeg") {
      diags_.error(toml_place(file_, n), "pdf-cover `" + *v +
                                             "` must be a PDF, PNG or JPEG (its first page " +
                                             "becomes the cover) or a .tex file in templates/");
      return;
    }
    out.cover = c.path;
    out.cover_loc = toml_place(file_, n);
  }

 private:
  const Config& cfg_;
  fs::path file_;
  Diagnostics& diags_;
};

}  // namespace

bool is_font_name(std::string_view name) {
  if (name.empty() || name.size() > 200) return false;
  for (unsigned char c : name) {
    if (c >= 0x80 || std::isalnum(c)) continue;  // a letter of another script is part of a UTF-8 sequence
    if (std::string_view(" -.,'()+").find(static_cast<char>(c)) == std::string_view::npos) return false;
  }
  return true;
}

void read_print_config(const toml::table& doc, Config& cfg, Diagnostics& diags) {
  PrintReader r(cfg, diags);
  std::vector<PrintLook::Font> book_required, book_forbidden;
  if (const toml::node* pdf = doc.get("pdf")) {
    if (const auto* t = pdf->as_table()) {
      r.unknown_keys(*t, {"fonts-required", "fonts-forbidden"}, "[pdf]");
      r.font_list(*t, "fonts-required", book_required);
      r.font_list(*t, "fonts-forbidden", book_forbidden);
    } else {
      diags.error(toml_place(cfg.config_file, pdf), "`pdf` must be a table: [pdf]");
    }
  }
  const auto* editions = doc["edition"].as_array();
  for (auto& e : cfg.editions) {
    PrintLook& look = e.print;
    look.required = book_required;
    look.forbidden = book_forbidden;
    if (!editions) continue;
    for (const auto& node : *editions) {
      const auto* t = node.as_table();
      if (!t || t->get("id") == nullptr || t->get("id")->value<std::string>() != e.id) continue;
      r.cover(*t, e, look);
      const toml::node* fonts = t->get("fonts");
      if (!fonts) break;
      const auto* f = fonts->as_table();
      if (!f) {
        diags.error(toml_place(cfg.config_file, fonts), "`fonts` must be a table: [edition.fonts]");
        break;
      }
      r.unknown_keys(*f, {"main", "sans", "mono", "cjk", "cjk-sans", "cjk-mono", "required", "forbidden"},
                     "[edition.fonts]");
      r.font(*f, "main", look.main);
      r.font(*f, "sans", look.sans);
      r.font(*f, "mono", look.mono);
      r.font(*f, "cjk", look.cjk);
      r.font(*f, "cjk-sans", look.cjk_sans);
      r.font(*f, "cjk-mono", look.cjk_mono);
      r.font_list(*f, "required", look.required);
      r.font_list(*f, "forbidden", look.forbidden);
      break;
    }
  }
}

}  // namespace bb::book
