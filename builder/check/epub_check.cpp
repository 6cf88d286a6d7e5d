// The EPUB checks: container, package, XHTML well-formedness and link resolution.
#include "check/epub_check.hpp"
#include "text/url.hpp"
#include "writers/escape.hpp"

#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "check/xml.hpp"
#include "epub/addressing.hpp"
#include "epub/zip.hpp"

namespace bb::check {

namespace fs = std::filesystem;

namespace {

// The archive path `href` (relative to the entry `base`) names, with `.` and `..` resolved.
std::string resolve(const std::string& base, const std::string& href) {
  fs::path p = fs::path(base).parent_path() / writers::percent_decode(href);
  return p.lexically_normal().generic_string();
}

class EpubChecker {
 public:
  EpubChecker(const fs::path& name, Diagnostics& diags) : name_(name), diags_(diags) {}

  void run(std::string bytes) {
    check_mimetype_header(bytes);
    std::string error;
    auto zip = epub::ZipReader::open(std::move(bytes), error);
    if (!zip) {
      diags_.error({name_, 0, 0}, "not a valid ZIP archive: " + error);
      return;
    }
    zip_ = &*zip;
    if (zip->entries().empty() || zip->entries().front().name != "mimetype")
      diags_.error({name_, 0, 0}, "the first entry of the archive must be `mimetype`");
    std::string package_path = container();
    if (package_path.empty()) return;
    package(package_path);
    for (const auto& [path, type] : manifest_) {
      if (type == "application/xhtml+xml") xhtml(path);
      if (type == "image/svg+xml") svg(path);
    }
    links();
    for (const auto& e : zip->entries()) {
      if (e.name == "mimetype" || e.name.starts_with("META-INF/") || e.name == package_path ||
          e.name.ends_with("/"))
        continue;
      if (!manifest_.count(e.name))
        diags_.warning(at(e.name), "file is in the archive but not in the manifest");
    }
  }

 private:
  SourceLoc at(const std::string& entry, int line = 0) const { return {name_ / entry, line, 0}; }

  // The container's first bytes as reading systems sniff them: a stored `mimetype` entry, with no
  // extra field, holding exactly `application/epub+zip`.
  void check_mimetype_header(const std::string& b) {
    auto u16 = [&](std::size_t off) {
      return off + 1 < b.size() ? static_cast<unsigned>(static_cast<unsigned char>(b[off])) |
                                      static_cast<unsigned>(static_cast<unsigned char>(b[off + 1])) << 8
                                : 0u;
    };
    const std::string expected = "application/epub+zip";
    if (b.size() < 30 || b.compare(0, 4, "PK\x03\x04") != 0) {
      diags_.error({name_, 0, 0}, "not a ZIP archive (no local file header at the start)");
      return;
    }
    if (u16(26) != 8 || b.compare(30, 8, "mimetype") != 0)
      diags_.error({name_, 0, 0}, "the first entry of the archive must be `mimetype`");
    else if (u16(8) != 0)
      diags_.error(at("mimetype"), "`mimetype` must be stored, not compressed");
    else if (u16(28) != 0)
      diags_.error(at("mimetype"), "`mimetype` must not have an extra field in its local header");
    else if (b.compare(38, expected.size(), expected) != 0 || u16(18) != expected.size())
      diags_.error(at("mimetype"), "`mimetype` must contain exactly `application/epub+zip`");
  }

  std::optional<XmlDoc> parse(const std::string& entry) {
    auto data = zip_->read(entry);
    if (!data) {
      diags_.error(at(entry), "missing from the archive");
      return std::nullopt;
    }
    std::vector<XmlProblem> problems;
    auto doc = parse_xml(*data, entry, false, problems);
    for (const auto& p : problems) diags_.error(at(entry, p.line), "not well-formed XML: " + p.message);
    if (!problems.empty()) return std::nullopt;
    // libxml2 refuses an empty document without a word.
    if (!doc) {
      diags_.error(at(entry), data->empty() ? "the file is empty" : "no XML document in the file");
      return std::nullopt;
    }
    return doc;
  }

  std::string container() {
    const std::string entry = "META-INF/container.xml";
    if (!zip_->contains(entry)) {
      diags_.error({name_, 0, 0}, "no META-INF/container.xml");
      return {};
    }
    auto doc = parse(entry);
    if (!doc) return {};
    std::string path;
    for (const XmlElement& n : doc->elements) {
      if (n.name == "rootfile" && path.empty()) {
        path = n.attr("full-path");
        if (n.attr("media-type") != "application/oebps-package+xml")
          diags_.error(at(entry, n.line), "rootfile media-type must be application/oebps-package+xml");
      }
    }
    if (path.empty())
      diags_.error(at(entry), "no rootfile names the package document");
    else if (!zip_->contains(path))
      diags_.error(at(entry), "the package document `" + path + "` is missing");
    return zip_->contains(path) ? path : std::string();
  }

  void package(const std::string& entry) {
    auto doc = parse(entry);
    if (!doc) return;
    const XmlElement& root = doc->elements.front();
    if (root.name != "package") {
      diags_.error(at(entry, root.line),
                   "the package document's root element is `" + root.name + "`, not `package`");
      return;
    }
    std::string unique_id = root.attr("unique-identifier");
    std::set<std::string> ids;
    bool identifier = false, title = false, language = false, modified = false, nav = false;
    bool has_manifest = false, has_spine = false;
    std::vector<std::pair<std::string, int>> spine;
    for (const XmlElement& n : doc->elements) {
      std::string_view name = n.name;
      int line = n.line;
      if (name == "identifier" && n.attr("id") == unique_id) identifier = true;
      if (name == "title") title = true;
      if (name == "manifest" && n.parent == 0) has_manifest = true;
      if (name == "spine" && n.parent == 0) has_spine = true;
      if (name == "language") language = true;
      if (name == "meta" && n.attr("property") == "dcterms:modified") modified = true;
      if (name == "item") {
        std::string id = n.attr("id"), href = n.attr("href"), type = n.attr("media-type");
        ids.insert(id);
        if (text::classify_url(href) != text::UrlKind::Relative) {
          diags_.error(at(entry, line), "manifest item `" + id + "` is remote: `" + href + "`");
          continue;
        }
        std::string path = resolve(entry, href);
        if (!zip_->contains(path))
          diags_.error(at(entry, line),
                       "manifest item `" + id + "` names `" + path + "`, which is not in the archive");
        manifest_[path] = type;
        std::string props = n.attr("properties");
        if ((" " + props + " ").find(" nav ") != std::string::npos) nav = true;
        properties_[path] = props;
      }
      if (name == "itemref") spine.emplace_back(n.attr("idref"), line);
    }
    if (!identifier)
      diags_.error(at(entry), "no dc:identifier matches unique-identifier `" + unique_id + "`");
    if (!title) diags_.error(at(entry), "no dc:title");
    if (!language) diags_.error(at(entry), "no dc:language");
    if (!modified) diags_.error(at(entry), "no dcterms:modified");
    if (!nav) diags_.error(at(entry), "no manifest item has the `nav` property");
    if (!has_manifest) diags_.error(at(entry), "no manifest element");
    if (!has_spine)
      diags_.error(at(entry), "no spine element");
    else if (spine.empty())
      diags_.error(at(entry), "the spine is empty");
    for (const auto& [idref, line] : spine)
      if (!ids.count(idref))
        diags_.error(at(entry, line), "spine item `" + idref + "` is not in the manifest");
  }

  void xhtml(const std::string& entry) {
    auto doc = parse(entry);
    if (!doc) return;
    const XmlElement& root = doc->elements.front();
    auto& ids = ids_[entry];
    if (!root.has_attr("lang") || root.attr("lang", "http://www.w3.org/XML/1998/namespace").empty())
      diags_.error(at(entry, root.line), "the html element needs both lang and xml:lang");
    for (const XmlElement& n : doc->elements) {
      std::string id = n.attr("id");
      if (!id.empty() && !ids.insert(id).second) diags_.error(at(entry, n.line), "duplicate id `" + id + "`");
      for (const char* a : {"href", "src"}) {
        if (!n.has_attr(a)) continue;
        std::string url = n.attr(a);
        bool resource = std::string_view(a) == "src" || n.name == "link";
        refs_.push_back({entry, n.line, url, resource});
      }
    }
  }

  // An SVG entry: scripts need the `scripted` property (which bookbuild never writes: its figures are
  // cleaned, figures/svg_clean.hpp), and what it references must be inside the container.
  void svg(const std::string& entry) {
    auto doc = parse(entry);
    if (!doc) return;
    bool scripted = (" " + properties_[entry] + " ").find(" scripted ") != std::string::npos;
    for (const XmlElement& n : doc->elements) {
      bool script = n.name == "script";
      for (const auto& a : n.attributes)
        if (a.ns.empty() && a.name.size() > 2 && a.name.starts_with("on")) script = true;
      if (script && !scripted)
        diags_.error(at(entry, n.line), "the SVG holds a script (<" + n.name +
                                            ">) but its manifest item lacks the `scripted` property");
      for (const auto& a : n.attributes) {
        if (a.name != "href" || a.value.empty() || a.value.starts_with("#") || a.value.starts_with("data:"))
          continue;
        bool resource = n.name == "image" || n.name == "use" || n.name == "feImage";
        refs_.push_back({entry, n.line, a.value, resource});
      }
    }
  }

  void links() {
    for (const auto& r : refs_) {
      if (r.url.empty()) continue;
      if (auto kind = text::classify_url(r.url); kind == text::UrlKind::Script) {
        diags_.error(at(r.entry, r.line), "`" + r.url + "` runs a script");
        continue;
      } else if (kind != text::UrlKind::Relative && kind != text::UrlKind::Fragment) {
        if (r.resource)
          diags_.error(at(r.entry, r.line), "remote resource `" + r.url + "`: an EPUB carries its resources");
        continue;
      }
      std::size_t hash = r.url.find('#');
      std::string file = r.url.substr(0, hash);
      std::string fragment = hash == std::string::npos ? "" : writers::percent_decode(r.url.substr(hash + 1));
      std::string target = file.empty() ? r.entry : resolve(r.entry, file);
      if (!zip_->contains(target)) {
        diags_.error(at(r.entry, r.line),
                     "`" + r.url + "` names `" + target + "`, which is not in the archive");
        continue;
      }
      if (!manifest_.count(target)) {
        diags_.error(at(r.entry, r.line),
                     "`" + r.url + "` names `" + target + "`, which is not in the manifest");
        continue;
      }
      if (fragment.empty()) continue;
      auto it = ids_.find(target);
      if (it == ids_.end() || !it->second.count(fragment))
        diags_.error(at(r.entry, r.line), "`" + r.url + "`: no id `" + fragment + "` in " + target);
    }
  }

  struct Ref {
    std::string entry;
    int line;
    std::string url;
    bool resource;  // loaded by the reading system (img src, stylesheet), not followed by the reader
  };

  fs::path name_;
  Diagnostics& diags_;
  const epub::ZipReader* zip_ = nullptr;
  std::map<std::string, std::string> manifest_;    // archive path → media type
  std::map<std::string, std::string> properties_;  // archive path → manifest properties
  std::map<std::string, std::set<std::string>> ids_;
  std::vector<Ref> refs_;
};

}  // namespace

void check_epub_bytes(std::string bytes, const fs::path& name, Diagnostics& diags) {
  EpubChecker(name, diags).run(std::move(bytes));
}

void check_epub(const fs::path& file, Diagnostics& diags) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    diags.error({file, 0, 0}, "cannot read the EPUB");
    return;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  check_epub_bytes(ss.str(), file, diags);
}

}  // namespace bb::check
