// Document tree helpers: attribute access, plain text and the golden-test dump.
#include "doc/tree.hpp"

#include <sstream>

#include "text/escape.hpp"

namespace bb::doc {

bool Node::has_class(std::string_view c) const {
  for (const auto& k : classes())
    if (k == c) return true;
  return false;
}

const std::string* Node::attr(std::string_view key) const {
  for (const auto& [k, v] : attrs())
    if (k == key) return &v;
  return nullptr;
}

void Node::set_attr(std::string key, std::string value) {
  auto& attrs = extra().attrs;
  for (auto& [k, v] : attrs)
    if (k == key) {
      v = std::move(value);
      return;
    }
  attrs.emplace_back(std::move(key), std::move(value));
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Document: return "Document";
    case Kind::Heading: return "Heading";
    case Kind::Paragraph: return "Paragraph";
    case Kind::BlockQuote: return "BlockQuote";
    case Kind::Callout: return "Callout";
    case Kind::BulletList: return "BulletList";
    case Kind::OrderedList: return "OrderedList";
    case Kind::ListItem: return "ListItem";
    case Kind::DefinitionList: return "DefinitionList";
    case Kind::DefinitionTerm: return "DefinitionTerm";
    case Kind::DefinitionDetails: return "DefinitionDetails";
    case Kind::CodeBlock: return "CodeBlock";
    case Kind::HtmlBlock: return "HtmlBlock";
    case Kind::ThematicBreak: return "ThematicBreak";
    case Kind::Table: return "Table";
    case Kind::TableRow: return "TableRow";
    case Kind::TableCell: return "TableCell";
    case Kind::Figure: return "Figure";
    case Kind::DisplayMath: return "DisplayMath";
    case Kind::FootnoteDef: return "FootnoteDef";
    case Kind::Text: return "Text";
    case Kind::Emph: return "Emph";
    case Kind::Strong: return "Strong";
    case Kind::Strike: return "Strike";
    case Kind::Subscript: return "Subscript";
    case Kind::Superscript: return "Superscript";
    case Kind::Code: return "Code";
    case Kind::InlineMath: return "InlineMath";
    case Kind::Link: return "Link";
    case Kind::Image: return "Image";
    case Kind::FootnoteRef: return "FootnoteRef";
    case Kind::SoftBreak: return "SoftBreak";
    case Kind::LineBreak: return "LineBreak";
    case Kind::HtmlInline: return "HtmlInline";
    case Kind::Anchor: return "Anchor";
    case Kind::Span: return "Span";
    case Kind::CrossRef: return "CrossRef";
    case Kind::CalcNumber: return "CalcNumber";
  }
  return "?";
}

namespace {

void append_plain(const Node& n, std::string& out) {
  switch (n.kind) {
    case Kind::Text:
    case Kind::Code:
    case Kind::InlineMath: out += n.text; return;
    case Kind::SoftBreak:
    case Kind::LineBreak: out += ' '; return;
    case Kind::CrossRef:
    case Kind::CalcNumber:
      // Before resolution the node carries its source text; after, its rendering in children.
      if (n.children.empty()) out += n.text;
      break;
    case Kind::FootnoteRef:
    case Kind::HtmlInline:
    case Kind::Anchor: return;
    default: break;
  }
  for (const auto& c : n.children) append_plain(c, out);
}

// `file`: the document's own file; a node placed in another (one a book filter made: its place is the
// filter's line) names that file's name.
void dump_node(const Node& n, int depth, const std::filesystem::path& file, std::ostringstream& out) {
  out << std::string(depth * 2, ' ') << kind_name(n.kind);
  if (n.loc.line > 0)
    out << " @" << (n.loc.path != file ? n.loc.path.filename().string() + ":" : std::string()) << n.loc.line
        << ':' << n.loc.col;
  if (n.kind == Kind::Heading) out << " level=" << n.level();
  if (n.kind == Kind::OrderedList) out << " start=" << n.start();
  if ((n.kind == Kind::OrderedList || n.kind == Kind::BulletList) && !n.tight()) out << " loose";
  if (!n.id().empty()) out << " #" << n.id();
  for (const auto& c : n.classes()) out << " ." << c;
  for (const auto& [k, v] : n.attrs()) out << ' ' << k << '=' << text::json_quote(v);
  if (!n.number().empty()) out << " number=" << text::json_quote(n.number());
  if (!n.info().empty()) out << " info=" << text::json_quote(n.info());
  if (!n.url().empty()) out << " url=" << text::json_quote(n.url());
  if (!n.title().empty()) out << " title=" << text::json_quote(n.title());
  if (!n.aligns().empty()) {
    out << " aligns=";
    for (auto a : n.aligns()) out << "-lcr"[static_cast<int>(a)];
  }
  if (!n.text.empty()) out << ' ' << text::json_quote(n.text);
  out << '\n';
  if (!n.caption().empty()) {
    out << std::string(depth * 2 + 2, ' ') << "caption:\n";
    for (const auto& c : n.caption()) dump_node(c, depth + 2, file, out);
  }
  for (const auto& c : n.children) dump_node(c, depth + 1, file, out);
}

}  // namespace

std::string plain_text(const std::vector<Node>& inlines) {
  std::string out;
  for (const auto& n : inlines) append_plain(n, out);
  return out;
}

std::string plain_text(const Node& node) {
  std::string out;
  append_plain(node, out);
  return out;
}

std::string dump(const Node& node) {
  std::ostringstream out;
  dump_node(node, 0, node.loc.path, out);
  return out.str();
}

}  // namespace bb::doc
