// Rewriting a chapter's links to the EPUB's files: chapters, fragments, images and repository URLs.
#include "epub/addressing.hpp"

#include <map>

#include "writers/escape.hpp"

namespace bb::epub {

namespace fs = std::filesystem;
using doc::Kind;
using doc::Node;

const ChapterFile* Addressing::chapter_by_key(std::string_view key) const {
  for (const auto& c : chapters)
    if (c.key == key) return &c;
  return nullptr;
}

const ChapterFile* Addressing::chapter_by_path(const fs::path& canonical) const {
  for (const auto& c : chapters)
    if (c.manuscript == canonical) return &c;
  return nullptr;
}

bool has_scheme(std::string_view url) {
  // RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
  std::size_t colon = url.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  for (std::size_t i = 0; i < colon; ++i) {
    unsigned char c = static_cast<unsigned char>(url[i]);
    bool ok = std::isalpha(c) || (i > 0 && (std::isdigit(c) || c == '+' || c == '-' || c == '.'));
    if (!ok) return false;
  }
  return true;
}

fs::path local_path(const fs::path& manuscript, std::string_view url) {
  return (manuscript.parent_path() / writers::percent_decode(url)).lexically_normal();
}

std::string xhtml_id(std::string_view id) {
  return writers::sanitize_id(id);
}

namespace {

bool renders_id(Kind k) {
  switch (k) {
    case Kind::Heading:
    case Kind::Callout:
    case Kind::Table:
    case Kind::Figure:
    case Kind::DisplayMath:
    case Kind::Anchor:
    case Kind::Span: return true;
    default: return false;
  }
}

// Keeps a link's text and drops the link itself.
void unwrap(Node& n) {
  n.kind = Kind::Span;
  n.url.clear();
  n.title.clear();
  n.id.clear();
  n.classes.clear();
  n.attrs.clear();
}

std::string percent_encode_path(std::string_view path) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (char ch : path) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      out += ch;
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

class Rewriter {
 public:
  Rewriter(const ChapterFile& self, const Addressing& a, Diagnostics& d) : self_(self), a_(a), diags_(d) {}

  void node(Node& n) {
    if (n.kind == Kind::CrossRef)
      crossref(n);
    else if (n.kind == Kind::Link)
      link(n);
    else if (n.kind == Kind::Image)
      image(n);
  }

 private:
  // `chapter`#`target` for a resolved reference; "" (with a warning) when the EPUB has no such place.
  std::string to_chapter(const Node& n, const ChapterFile& target, std::string_view fragment) {
    if (fragment.empty()) return target.href;
    std::string id = xhtml_id(fragment);
    if (target.ids.count(id)) return (&target == &self_ ? "" : target.href) + "#" + id;
    diags_.warning(n.loc, "link target `#" + std::string(fragment) + "` is not an id in " + target.key +
                              "; the link goes to the start of the chapter");
    return target.href;
  }

  void crossref(Node& n) {
    const std::string* chapter = n.attr("chapter");
    if (!chapter || n.children.empty()) return;  // unresolved: the writer shows it as such
    const ChapterFile* target = a_.chapter_by_key(*chapter);
    if (!target) return;  // a chapter this edition does not have: text only
    const std::string* id = n.attr("target");
    std::string url = to_chapter(n, *target, id ? *id : "");
    n.kind = Kind::Link;
    n.url = url;
  }

  void link(Node& n) {
    if (const std::string* chapter = n.attr("chapter")) {
      if (const ChapterFile* target = a_.chapter_by_key(*chapter)) {
        const std::string* id = n.attr("target");
        n.url = to_chapter(n, *target, id ? *id : "");
        return;
      }
    }
    const std::string url = n.url;
    if (url.empty() || has_scheme(url) || url.starts_with("//")) return;
    std::size_t hash = url.find('#');
    std::string file = url.substr(0, hash);
    std::string fragment = hash == std::string::npos ? "" : url.substr(hash + 1);
    if (file.empty()) {
      std::string id = xhtml_id(fragment);
      if (self_.ids.count(id)) {
        n.url = "#" + id;
      } else {
        diags_.warning(n.loc, "link target `#" + fragment + "` is not an id in this chapter; kept as text");
        unwrap(n);
      }
      return;
    }
    fs::path target = local_path(self_.manuscript, file);
    if (const ChapterFile* c = a_.chapter_by_path(target)) {
      n.url = to_chapter(n, *c, fragment);
      return;
    }
    fs::path rel = target.lexically_relative(a_.repository_root);
    if (rel.empty() || *rel.begin() == "..") {
      diags_.warning(n.loc, "link `" + url + "` points outside the book's repository; kept as text");
      unwrap(n);
      return;
    }
    if (a_.repository_blob.empty()) {
      diags_.warning(n.loc, "link `" + url +
                                "` points into the repository, but the book names no `repository` URL "
                                "to make it absolute; kept as text");
      unwrap(n);
      return;
    }
    n.url = a_.repository_blob + percent_encode_path(rel.generic_string()) +
            (hash == std::string::npos ? "" : "#" + fragment);
  }

  void image(Node& n) {
    if (has_scheme(n.url) || n.url.starts_with("//")) {
      diags_.error(
          n.loc, "image `" + n.url + "` is remote: an EPUB must carry its images; download it into the book");
      return;
    }
    auto it = a_.images.find(local_path(self_.manuscript, n.url));
    if (it != a_.images.end()) n.url = it->second;  // else: reported when the images were prepared
  }

  const ChapterFile& self_;
  const Addressing& a_;
  Diagnostics& diags_;
};

}  // namespace

std::set<std::string> assign_ids(Node& root) {
  std::set<std::string> ids;
  std::map<std::string, int> repeats;
  int untitled = 0;
  auto unique = [&](std::string id) {
    if (ids.insert(id).second) return id;
    for (int k = ++repeats[id] + 1;; ++k) {
      std::string candidate = id + "-" + std::to_string(k);
      if (ids.insert(candidate).second) return candidate;
    }
  };
  doc::walk(root, [&](Node& n) {
    if (!renders_id(n.kind)) return;
    if (n.id.empty() && n.kind == Kind::Heading && (n.level == 2 || n.level == 3))
      n.id = "toc-" + std::to_string(++untitled);
    if (!n.id.empty()) n.id = unique(xhtml_id(n.id));
  });
  // Footnotes: the writer's fn-KEY and fnref-KEY ids, so that links to them resolve too.
  doc::walk(root, [&](const Node& n) {
    if (n.kind != Kind::FootnoteRef) return;
    std::string key = writers::sanitize_id(n.text);
    ids.insert("fn-" + key);
    ids.insert("fnref-" + key);
  });
  return ids;
}

void rewrite_links(Node& root, const ChapterFile& self, const Addressing& addressing, Diagnostics& diags) {
  Rewriter r(self, addressing, diags);
  doc::walk(root, [&](Node& n) { r.node(n); });
}

}  // namespace bb::epub
