// The SVG policy: what a figure may keep, what is dropped with a warning, what refuses the figure.
// libxml2 does the parsing and the tree surgery in the XML module (svg_clean_module.cpp).
#include "figures/svg_clean.hpp"

#include <nettle/base64.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <fstream>
#include <sstream>

#include "figures/memo.hpp"
#include "figures/svg_clean_module.h"
#include "figures/validate.hpp"
#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"
#include "modules/modules.hpp"
#include "text/digest.hpp"

namespace bb::figures {

namespace fs = std::filesystem;

namespace {

constexpr const char* kXhtmlNs = "http://www.w3.org/1999/xhtml";
// The memo's purpose for "this SVG needs no cleaning" (value ""); a change of the policy changes the
// executable, which the memo's stamp names, so old verdicts are dropped with it.
constexpr std::string_view kCleanAsIs = "svg-clean-as-is";
constexpr std::uintmax_t kMaxEmbedded = std::uintmax_t{16} << 20;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string trim(std::string_view s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  return std::string(s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1));
}

// A reference as quoted in a message: short, on one line.
std::string shown_ref(std::string_view value) {
  std::string s(value.substr(0, 60));
  std::replace_if(
      s.begin(), s.end(), [](char c) { return c == '\n' || c == '\r' || c == '`'; }, ' ');
  return "`" + s + (value.size() > 60 ? "…" : "") + "`";
}

std::optional<std::string> read_all(const fs::path& p) {
  inputs::note_file(p);
  // A figure's SVG, or a file it uses: bounded as every figure is.
  auto read = inputs::read_bounded(p, kMaxFigureBytes);
  if (!read.ok()) return std::nullopt;
  return std::move(read.bytes);
}

std::string data_url(std::string_view media_type, const std::string& bytes) {
  std::string b64(BASE64_ENCODE_RAW_LENGTH(bytes.size()), '\0');
  base64_encode_raw(b64.data(), bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
  return "data:" + std::string(media_type) + ";base64," + b64;
}

// What a reference names.
struct Target {
  enum Kind { Empty, Fragment, DataImage, Scheme, Path } kind = Empty;
  fs::path file;  // Path: the file it names, resolved, when inside the book; empty when outside
};

bool is_data_image(const std::string& v) {
  std::string l = lower(v.substr(0, 20));
  return l.starts_with("data:image/png") || l.starts_with("data:image/jpeg") ||
         l.starts_with("data:image/gif");
}

class Policy {
 public:
  Policy(fs::path file, fs::path root) : file_(std::move(file)), root_(std::move(root)) {
    std::error_code ec;
    if (root_.empty()) root_ = file_.parent_path();
    root_ = fs::weakly_canonical(root_, ec);
  }

  int node(std::string_view name, const char* ns, long line) {
    std::string n(name);
    if (n == "?xml-stylesheet")
      return drop(line, "dropped an `xml-stylesheet` instruction: a figure loads no style sheet");
    if (name.starts_with("?")) return BOOKBUILD_SVG_KEEP;
    if (n == "script" || n == "handler" || n == "listener")
      return drop(line, "dropped <" + n + ">: a figure runs no code");
    if (n == "foreignObject") return drop(line, "dropped <foreignObject>: a figure holds SVG only");
    if (ns && std::string_view(ns) == kXhtmlNs) return drop(line, "dropped the HTML element <" + n + ">");
    return BOOKBUILD_SVG_KEEP;
  }

  int attribute(std::string_view element, std::string_view name, const char* ns, const std::string& value,
                long line, const char** replacement) {
    std::string n = lower(name);
    if (name == "#text") return rewrite(css(value, line, true), value, replacement);
    if (!ns && n.size() > 2 && n.starts_with("on"))
      return drop(line, "dropped the event handler `" + std::string(name) + "`: a figure runs no code");
    if (n == "base" && ns) return drop(line, "dropped `xml:base`");
    if (n == "attributename" && is_animation(element)) {
      std::string target = lower(trim(value));
      if (target == "href" || target == "xlink:href")
        return drop_element(line, "dropped <" + std::string(element) + "> that animates a link");
    }
    if (n == "href") return href(element, trim(value), line, replacement);
    if (value.find("url(") != std::string::npos) return rewrite(css(value, line, false), value, replacement);
    return BOOKBUILD_SVG_KEEP;
  }

  void error(long line, const std::string& message) { findings_.push_back({true, line, message}); }
  std::vector<SvgFinding> take() { return std::move(findings_); }
  [[nodiscard]] bool changed() const { return changed_; }
  [[nodiscard]] bool found() const { return !findings_.empty(); }

 private:
  static bool is_animation(std::string_view e) {
    return e == "animate" || e == "set" || e == "animateMotion" || e == "animateTransform" ||
           e == "animateColor";
  }
  static bool displays(std::string_view e) { return e == "image" || e == "feImage" || e == "use"; }

  int drop(long line, std::string message) {
    findings_.push_back({false, line, std::move(message)});
    changed_ = true;
    return BOOKBUILD_SVG_DROP;
  }
  int drop_element(long line, std::string message) {
    drop(line, std::move(message));
    return BOOKBUILD_SVG_DROP_ELEMENT;
  }
  int rewrite(std::string next, const std::string& value, const char** replacement) {
    if (next == value) return BOOKBUILD_SVG_KEEP;
    changed_ = true;
    replacement_ = std::move(next);
    *replacement = replacement_.c_str();
    return BOOKBUILD_SVG_REPLACE;
  }

  Target classify(const std::string& v) const {
    if (v.empty()) return {};
    if (v[0] == '#') return {Target::Fragment, {}};
    auto colon = v.find(':');
    if (colon != std::string::npos && v.find_first_of("/?#") > colon) {
      return {is_data_image(v) ? Target::DataImage : Target::Scheme, {}};
    }
    std::string path = v.substr(0, v.find_first_of("?#"));
    if (path.empty() || path[0] == '/' || path.find('%') != std::string::npos) return {Target::Path, {}};
    std::error_code ec;
    fs::path resolved = fs::weakly_canonical(file_.parent_path() / path, ec);
    auto rel = resolved.lexically_relative(root_);
    if (ec || rel.empty() || *rel.begin() == ".." || !fs::is_regular_file(resolved, ec))
      return {Target::Path, {}};
    return {Target::Path, resolved};
  }

  // The data: URL of an image file inside the book, or "" (with the reason in `why`).
  std::string embed(const fs::path& f, std::string& why) const {
    std::string ext = lower(f.extension().string());
    std::string type = ext == ".png"                     ? "image/png"
                       : ext == ".jpg" || ext == ".jpeg" ? "image/jpeg"
                       : ext == ".gif"                   ? "image/gif"
                                                         : "";
    std::error_code ec;
    if (type.empty())
      why = "only PNG, JPEG and GIF files are embedded in a figure";
    else if (fs::file_size(f, ec) > kMaxEmbedded)
      why = "it is larger than 16 MiB";
    else if (std::string problem = image_problem(f); !problem.empty())
      why = "it " + problem;
    if (!why.empty()) return {};
    auto bytes = read_all(f);
    if (!bytes) why = "it cannot be read";
    return bytes ? data_url(type, *bytes) : std::string();
  }

  int href(std::string_view element, const std::string& v, long line, const char** replacement) {
    Target t = classify(v);
    if (t.kind == Target::Empty || t.kind == Target::Fragment) return BOOKBUILD_SVG_KEEP;
    if (!displays(element)) {
      return drop(line, "dropped the link " + shown_ref(v) + " of <" + std::string(element) +
                            ">: a figure links only within itself");
    }
    std::string e(element);
    if (t.kind == Target::DataImage && e != "use") return BOOKBUILD_SVG_KEEP;
    if (t.kind == Target::Path && !t.file.empty() && e != "use") {
      std::string why;
      std::string url = embed(t.file, why);
      if (!url.empty()) return rewrite(url, v, replacement);
      error(line, "<" + e + "> shows " + shown_ref(v) + ", which cannot be embedded: " + why);
      return BOOKBUILD_SVG_KEEP;
    }
    error(line, "<" + e + "> shows " + shown_ref(v) +
                    ", which is not inside the book: removing it would change the figure, so it is refused");
    return BOOKBUILD_SVG_KEEP;
  }

  // `text` with each url(...) that is not a fragment replaced (by an embedded image inside the book,
  // else by `none`), and in a style sheet each @import removed.
  std::string css(const std::string& text, long line, bool sheet) {
    std::string out;
    std::size_t at = 0;
    for (;;) {
      std::string l = lower(text.substr(at));
      std::size_t u = l.find("url(");
      std::size_t imp = sheet ? l.find("@import") : std::string::npos;
      if (imp != std::string::npos && imp < u) {
        out += text.substr(at, imp);
        std::size_t end = text.find(';', at + imp);
        drop(line, "dropped an @import rule: a figure loads no style sheet");
        if (end == std::string::npos) return out;
        at = end + 1;
        continue;
      }
      if (u == std::string::npos) return out + text.substr(at);
      out += text.substr(at, u);
      std::size_t close = text.find(')', at + u);
      if (close == std::string::npos) return out + text.substr(at + u);
      std::string arg = trim(text.substr(at + u + 4, close - at - u - 4));
      if (arg.size() >= 2 && (arg[0] == '"' || arg[0] == '\'') && arg.back() == arg[0])
        arg = arg.substr(1, arg.size() - 2);
      out += css_url(arg, text.substr(at + u, close + 1 - at - u), line);
      at = close + 1;
    }
  }

  std::string css_url(const std::string& arg, const std::string& original, long line) {
    Target t = classify(arg);
    if (t.kind == Target::Empty || t.kind == Target::Fragment || t.kind == Target::DataImage) return original;
    if (t.kind == Target::Path && !t.file.empty()) {
      std::string why;
      std::string url = embed(t.file, why);
      if (!url.empty()) return "url(\"" + url + "\")";
    }
    drop(line, "dropped the reference " + shown_ref(arg) +
                   ": a figure refers only to itself and the book's images");
    return "none";
  }

  fs::path file_;
  fs::path root_;
  std::vector<SvgFinding> findings_;
  std::string replacement_;
  bool changed_ = false;
};

struct Run {
  Policy policy;
  std::string output;
};

}  // namespace

bool CleanedSvg::refused() const {
  return std::any_of(findings.begin(), findings.end(), [](const SvgFinding& f) { return f.error; });
}

std::string svg_finding_text(const fs::path& file, const SvgFinding& f) {
  return "figure `" + file.filename().string() + "`" + (f.line > 0 ? " line " + std::to_string(f.line) : "") +
         ": " + f.message;
}

CleanedSvg clean_svg(const std::string& data, const fs::path& file, const fs::path& root) {
  std::string load_error;
  auto clean = reinterpret_cast<bookbuild_svg_clean_fn>(
      modules::module_symbol(modules::Module::Xml, "bookbuild_svg_clean", load_error));
  if (!clean) throw FatalError(load_error);
  Run run{Policy(file, root), {}};
  auto node = [](void* c, const char* name, const char* ns, long line) {
    return static_cast<Run*>(c)->policy.node(name, ns, line);
  };
  auto attribute = [](void* c, const char* element, const char* name, const char* ns, const char* value,
                      long line, const char** replacement) {
    return static_cast<Run*>(c)->policy.attribute(element, name, ns, value, line, replacement);
  };
  auto error = [](void* c, long line, const char* message) {
    static_cast<Run*>(c)->policy.error(line, std::string("is not well-formed XML: ") + message);
  };
  auto output = [](void* c, const char* bytes, size_t size) {
    static_cast<Run*>(c)->output.assign(bytes, size);
  };
  int status = clean(data.data(), data.size(), file.c_str(), node, attribute, error, output, &run);
  if (status == BOOKBUILD_SVG_ENTITIES)
    run.policy.error(0, "declares XML entities, which bookbuild does not expand: refused");
  else if (status != BOOKBUILD_SVG_OK && !run.policy.found())
    run.policy.error(0, "is not well-formed XML");
  CleanedSvg result;
  bool changed = run.policy.changed();
  result.findings = run.policy.take();
  if (changed && !result.refused()) result.bytes = std::move(run.output);
  return result;
}

std::optional<fs::path> cleaned_svg_file(const fs::path& svg, const fs::path& root, const fs::path& cache_dir,
                                         std::vector<SvgFinding>& findings, const FileId* identity) {
  // A figure found clean (nothing to drop, embed or refuse) is shipped as it is, and that verdict is
  // remembered under the file's identity (memo.hpp): it rests on the file's bytes alone, since every
  // reference that reaches outside the SVG changes it or is a finding. A rebuild then neither reads
  // nor parses the figure (the real book's 484 SVGs were parsed by libxml2 on every build).
  const std::optional<FileId> id = cache_dir.empty() ? std::nullopt
                                   : identity        ? std::optional<FileId>(*identity)
                                                     : identify(svg);
  if (id && Memo::of(cache_dir).find(svg, kCleanAsIs, *id)) {
    inputs::note_file(svg);
    return svg;
  }
  auto data = read_all(svg);
  if (!data) {
    findings.push_back({true, 0, "cannot be read"});
    return std::nullopt;
  }
  CleanedSvg cleaned = clean_svg(*data, svg, root);
  findings.insert(findings.end(), cleaned.findings.begin(), cleaned.findings.end());
  if (cleaned.refused()) return std::nullopt;
  if (!cleaned.bytes) {
    if (id && cleaned.findings.empty()) Memo::of(cache_dir).put(svg, kCleanAsIs, *id, "");
    return svg;
  }
  fs::path entry = cache_dir / (text::sha256_hex(*cleaned.bytes) + ".svg");
  std::error_code ec;
  if (fs::is_regular_file(entry, ec)) return entry;
  fs::create_directories(cache_dir, ec);
  // Written aside and renamed, so that a concurrent build never reads half a figure.
  static std::atomic<unsigned> counter{0};
  fs::path tmp = cache_dir / ("." + entry.filename().string() + ".tmp-" + std::to_string(getpid()) + "-" +
                              std::to_string(counter++));
  {
    std::ofstream out(tmp, std::ios::binary);
    out.write(cleaned.bytes->data(), static_cast<std::streamsize>(cleaned.bytes->size()));
    if (!out.flush()) {
      fs::remove(tmp, ec);
      findings.push_back({true, 0, "cannot write its cleaned copy to " + cache_dir.string()});
      return std::nullopt;
    }
  }
  fs::rename(tmp, entry, ec);
  if (ec) {
    findings.push_back({true, 0, "cannot write " + entry.string() + ": " + ec.message()});
    return std::nullopt;
  }
  return entry;
}

std::optional<fs::path> cleaned_svg_file(const fs::path& svg, const fs::path& root, const fs::path& cache_dir,
                                         const SourceLoc& loc, Diagnostics& diags, const FileId* identity) {
  std::vector<SvgFinding> findings;
  auto file = cleaned_svg_file(svg, root, cache_dir, findings, identity);
  for (const auto& f : findings) {
    if (f.error)
      diags.error(loc, svg_finding_text(svg, f), "svg");
    else
      diags.warning(loc, svg_finding_text(svg, f), "svg");
  }
  return file;
}

}  // namespace bb::figures
