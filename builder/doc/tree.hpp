// The document tree: the one representation between the Markdown front end and every writer.
// Readers only build it, filters only transform it, writers only render it (see docs/pipeline.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "diag/diagnostics.hpp"

namespace bb::doc {

enum class Kind : std::uint8_t {
  // Blocks
  Document,
  Heading,      // level, id, classes; children inline
  Paragraph,    // children inline
  BlockQuote,   // children blocks
  Callout,      // blockquote with a bold lead: attr "kind" = example|experiment|think|note; children blocks
  BulletList,   // children ListItem; tight
  OrderedList,  // start, tight; children ListItem
  ListItem,     // children blocks
  CodeBlock,    // text = code, info = language
  HtmlBlock,    // text = raw HTML (only safe anchors are kept by writers)
  ThematicBreak,
  Table,        // children: TableRow (first row is the header); aligns; caption inline children in `caption`
  TableRow,     // children TableCell
  TableCell,    // children inline
  Figure,       // children: one Image; caption inline children in `caption`
  DisplayMath,  // text = TeX source without the $$ delimiters
  FootnoteDef,  // text = key; children blocks
  // Inlines
  Text,  // text
  Emph,
  Strong,
  Strike,
  Code,         // text
  InlineMath,   // text = TeX source without the $ delimiters
  Link,         // url, title; children inline
  Image,        // url, title; children inline (alt text)
  FootnoteRef,  // text = key
  SoftBreak,
  LineBreak,
  HtmlInline,  // text = raw HTML
  Anchor,      // id: an explicit anchor (<a id="x"></a> or []{#x})
  Span,        // bracketed span [..]{attrs}: id, classes, attrs; children inline
  CrossRef,    // text = label (fig:x) or the hand-written reference text; resolved by filters
  CalcNumber,  // text = expression; attrs "format"; resolved by filters
};

enum class Align : std::uint8_t { None, Left, Center, Right };

struct Node {
  Kind kind = Kind::Text;
  SourceLoc loc;  // where the node starts in the manuscript

  std::string text;  // literal content (Text, Code, CodeBlock, math, raw HTML, footnote keys, labels)
  std::string info;  // code block language
  std::string url;   // Link, Image
  std::string title;

  // Attributes: {#id .class key=value}
  std::string id;
  std::vector<std::string> classes;
  std::vector<std::pair<std::string, std::string>> attrs;

  int level = 0;              // heading level
  int start = 1;              // ordered list start
  bool tight = true;          // lists
  std::vector<Align> aligns;  // table column alignment

  // Resolved by filters: the number shown ("4.2.3", "4-1") and the label it is known by.
  std::string number;

  std::vector<Node> children;
  std::vector<Node> caption;  // Figure, Table: inline nodes of the caption

  Node() = default;
  explicit Node(Kind k, SourceLoc l = {}) : kind(k), loc(std::move(l)) {}

  [[nodiscard]] bool is_block() const { return kind <= Kind::FootnoteDef; }
  [[nodiscard]] bool has_class(std::string_view c) const;
  [[nodiscard]] const std::string* attr(std::string_view key) const;
  void set_attr(std::string key, std::string value);
};

// Concatenated plain text of inline nodes (math kept as TeX), for ids, search and titles.
std::string plain_text(const std::vector<Node>& inlines);
std::string plain_text(const Node& node);

// A stable, readable dump of a tree, one node per line, for golden tests and `bookbuild check --dump`.
std::string dump(const Node& node);

const char* kind_name(Kind k);

// Visits every node depth-first (pre-order), including caption inlines. The callback may modify
// the node; it must not add or remove siblings of the node it visits.
template <typename F>
void walk(Node& n, F&& f) {
  f(n);
  for (auto& c : n.caption) walk(c, f);
  for (auto& c : n.children) walk(c, f);
}
template <typename F>
void walk(const Node& n, F&& f) {
  f(n);
  for (const auto& c : n.caption) walk(c, f);
  for (const auto& c : n.children) walk(c, f);
}

}  // namespace bb::doc
