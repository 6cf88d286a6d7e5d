// Rewriting a chapter's resolved links to the EPUB's files.
#include "epub/addressing.hpp"

namespace bb::epub {

using doc::Kind;
using doc::Node;

const ChapterFile* Addressing::chapter_by_key(std::string_view key) const {
  for (const auto& c : chapters)
    if (c.key == key) return &c;
  return nullptr;
}

namespace {

// Keeps a link's text and drops the link itself.
void unwrap(Node& n) {
  n.kind = Kind::Span;
  auto& x = n.extra();
  x.classes.clear();
  x.attrs.clear();
  if (auto* r = n.rare_if()) {
    r->url.clear();
    r->title.clear();
    r->id.clear();
  }
}

class Rewriter {
 public:
  Rewriter(const ChapterFile& self, const Addressing& a, Diagnostics& d) : self_(self), a_(a), diags_(d) {}

  void node(Node& n) {
    if (n.kind == Kind::Image) return image(n);
    if (n.kind != Kind::Link && n.kind != Kind::CrossRef) return;
    const std::string* chapter = n.attr("chapter");
    if (!chapter) return;  // a URL (kept), or text the filters left unresolved
    if (n.kind == Kind::CrossRef && n.children.empty()) return;
    const ChapterFile* target = a_.chapter_by_key(*chapter);
    if (!target) {  // a chapter this edition does not have
      unwrap(n);
      return;
    }
    const std::string* id = n.attr("target");
    std::string href = target == &self_ ? "" : target->href;
    if (id && *id != *chapter) href += "#" + *id;
    if (href.empty()) href = self_.href;
    n.kind = Kind::Link;
    n.rare().url = href;
  }

 private:
  void image(Node& n) {
    const std::string* dest = n.attr("dest");
    if (dest && *dest == "url") {
      diags_.error(n.loc, "image `" + n.url() +
                              "` is remote: an EPUB must carry its images; download it into the book");
      return;
    }
    const std::string* asset = n.attr("asset");
    if (!asset) return;  // refused by the link resolver, which said why
    if (auto it = a_.images.find(*asset); it != a_.images.end()) n.rare().url = it->second;
  }

  const ChapterFile& self_;
  const Addressing& a_;
  Diagnostics& diags_;
};

}  // namespace

void rewrite_links(Node& root, const ChapterFile& self, const Addressing& addressing, Diagnostics& diags) {
  Rewriter r(self, addressing, diags);
  doc::walk(root, [&](Node& n) { r.node(n); });
}

}  // namespace bb::epub
