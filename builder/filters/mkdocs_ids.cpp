// MkDocs' heading ids as aliases (see mkdocs_ids.hpp). MkDocs walks the finished HTML tree, where
// Python-Markdown has moved footnote definitions to the end of the page: their headings come last.
#include "filters/mkdocs_ids.hpp"

#include <map>
#include <set>

#include "text/uslug.hpp"

namespace bb::filters {

using doc::Kind;
using doc::Node;

namespace {

void append_text(const Node& n, const std::map<std::string, int>& notes, std::string& out) {
  switch (n.kind) {
    case Kind::Text:
    case Kind::Code:
    case Kind::CrossRef: out += n.text; return;
    case Kind::InlineMath: out += "\\(" + n.text + "\\)"; return;
    case Kind::SoftBreak:
    case Kind::LineBreak: out += '\n'; return;
    case Kind::FootnoteRef:
      if (auto it = notes.find(n.text); it != notes.end()) out += std::to_string(it->second);
      return;
    case Kind::HtmlInline: return;  // stashed raw HTML: its tags are stripped, nothing left of a tag
    default:
      for (const auto& c : n.children) append_text(c, notes, out);
  }
}

// Python-Markdown numbers footnotes in the order their definitions appear.
std::map<std::string, int> footnote_numbers(const Node& root) {
  std::map<std::string, int> out;
  doc::walk(root, [&](const Node& n) {
    if (n.kind == Kind::FootnoteDef) out.try_emplace(n.text, static_cast<int>(out.size()) + 1);
  });
  return out;
}

void collect_headings(Node& n, bool in_note, std::vector<Node*>& body, std::vector<Node*>& notes) {
  if (n.kind == Kind::Heading) (in_note ? notes : body).push_back(&n);
  for (auto& c : n.children) collect_headings(c, in_note || n.kind == Kind::FootnoteDef, body, notes);
}

}  // namespace

std::string mkdocs_heading_text(const Node& heading, const std::map<std::string, int>& footnote_numbers) {
  std::string out;
  for (const auto& c : heading.children) append_text(c, footnote_numbers, out);
  return out;
}

void mark_mkdocs_ids(Node& root) {
  std::vector<Node*> body, notes;
  collect_headings(root, false, body, notes);
  body.insert(body.end(), notes.begin(), notes.end());
  // An id written on a heading (`{#x}`) is kept by MkDocs and taken before any slug.
  std::set<std::string> used;
  for (const Node* h : body)
    if (!h->id().empty()) used.insert(h->id());
  const auto numbers = footnote_numbers(root);
  for (Node* h : body) {
    if (h->attr("mkdocs-id")) continue;
    const std::string id =
        h->id().empty() ? text::unique_mkdocs_id(text::uslugify(mkdocs_heading_text(*h, numbers)), used)
                        : h->id();
    h->set_attr("mkdocs-id", id);
  }
}

}  // namespace bb::filters
