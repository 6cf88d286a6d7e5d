// The document tree: the one representation between the Markdown front end and every writer.
// Readers only build it, filters only transform it, writers only render it (see docs/pipeline.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
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
  Callout,      // a quote with a bold lead, a GitHub alert or a fenced div: attr "kind" (docs/manuscripts.md)
  BulletList,   // children ListItem; tight
  OrderedList,  // start, tight; children ListItem
  ListItem,     // children blocks
  // A definition list (Pandoc's: a term line, then `:   definition`): children alternate one
  // DefinitionTerm (children inline) and one or more DefinitionDetails (children blocks); tight.
  DefinitionList,
  DefinitionTerm,
  DefinitionDetails,
  CodeBlock,  // text = code, info = language
  HtmlBlock,  // text = raw HTML (only safe anchors are kept by writers)
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
  Subscript,    // Pandoc's `H~2~O`; children inline
  Superscript,  // Pandoc's `x^2^`; children inline
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

// A node keeps inline only what nearly every node has (kind, place, text, children): most nodes are
// Text. The rest lives out of line, in two parts allocated the first time one of their fields is
// written, so that a large book's tree stays small:
// - `Extra`: the attributes (`classes`, `attrs`), which the many computed numbers, cross-references
//   and spans of a book carry and little else;
// - `Rare`, reached through `Extra`: what headings, lists, figures, tables, code and links need
//   (`id`, `number`, `level`, `start`, `tight`, `info`, `url`, `title`, `aligns`, `caption`).
// Read a field with its accessor (`n.url()`, `n.caption()`: an absent part reads as the defaults
// below); write through `n.extra()` or `n.rare()`, which create the part (`n.rare().url = ...`).
// `n.extra_if()` and `n.rare_if()` give a part only if it exists, for edits in place that must not
// create it.
struct Node {
  struct Extra;
  struct Rare;

  Kind kind = Kind::Text;
  SourceLoc loc;  // where the node starts in the manuscript

  std::string text;  // literal content (Text, Code, CodeBlock, math, raw HTML, footnote keys, labels)
  std::vector<Node> children;

  Node() = default;
  explicit Node(Kind k, SourceLoc l = {}) : kind(k), loc(std::move(l)) {}
  // Trees are copied (an edition's chapters, a caption's text), so the parts are copied with the node.
  Node(const Node& o);
  Node& operator=(const Node& o);
  Node(Node&&) noexcept = default;
  Node& operator=(Node&&) noexcept = default;
  ~Node();

  [[nodiscard]] const std::string& info() const;
  [[nodiscard]] const std::string& url() const;
  [[nodiscard]] const std::string& title() const;
  [[nodiscard]] const std::string& id() const;
  [[nodiscard]] const std::vector<std::string>& classes() const;
  [[nodiscard]] const std::vector<std::pair<std::string, std::string>>& attrs() const;
  [[nodiscard]] int level() const;
  [[nodiscard]] int start() const;
  [[nodiscard]] bool tight() const;
  [[nodiscard]] const std::vector<Align>& aligns() const;
  [[nodiscard]] const std::string& number() const;
  [[nodiscard]] const std::vector<Node>& caption() const;

  // The attributes part, created (empty) if the node has none yet.
  Extra& extra();
  [[nodiscard]] Extra* extra_if() { return extra_.get(); }
  [[nodiscard]] const Extra* extra_if() const { return extra_.get(); }
  // The rare part, created (with its defaults, and the attributes part with it) if absent.
  Rare& rare();
  [[nodiscard]] Rare* rare_if();
  [[nodiscard]] const Rare* rare_if() const;

  [[nodiscard]] bool is_block() const { return kind <= Kind::FootnoteDef; }
  [[nodiscard]] bool has_class(std::string_view c) const;
  [[nodiscard]] const std::string* attr(std::string_view key) const;
  void set_attr(std::string key, std::string value);

 private:
  [[nodiscard]] const Rare& rare_part() const;  // the rare part, or one with the defaults

  std::unique_ptr<Extra> extra_;
};

struct Node::Rare {
  std::string id;  // {#id}, then the stable anchor numbering gives it
  // Resolved by filters: the number shown ("4.2.3", "4-1").
  std::string number;

  std::string info;  // code block language
  std::string url;   // Link, Image
  std::string title;

  int level = 0;              // heading level
  int start = 1;              // ordered list start
  bool tight = true;          // lists
  std::vector<Align> aligns;  // table column alignment

  std::vector<Node> caption;  // Figure, Table: inline nodes of the caption
};

struct Node::Extra {
  // Attributes: {.class key=value}
  std::vector<std::string> classes;
  std::vector<std::pair<std::string, std::string>> attrs;

  std::unique_ptr<Rare> rare;

  Extra() = default;
  Extra(const Extra& o)
      : classes(o.classes), attrs(o.attrs), rare(o.rare ? std::make_unique<Rare>(*o.rare) : nullptr) {}
  Extra& operator=(const Extra&) = delete;
};

// Most nodes are Text, and a large book holds millions of them (docs/pipeline.md, section 3).
static_assert(sizeof(Node) <= 96, "keep doc::Node small: rarely used fields belong in Node::Extra");
static_assert(std::is_nothrow_move_constructible_v<Node>,
              "vectors of nodes must move, not copy, when they grow");
// The attributes part is what tens of thousands of computed numbers and references pay for.
static_assert(sizeof(Node::Extra) <= 56, "keep Node::Extra small: fields few nodes use belong in Node::Rare");

inline Node::Node(const Node& o)
    : kind(o.kind),
      loc(o.loc),
      text(o.text),
      children(o.children),
      extra_(o.extra_ ? std::make_unique<Extra>(*o.extra_) : nullptr) {}
inline Node& Node::operator=(const Node& o) {
  if (this != &o) *this = Node(o);
  return *this;
}
inline Node::~Node() = default;

inline const Node::Rare& Node::rare_part() const {
  if (extra_ && extra_->rare) return *extra_->rare;
  // What a node without its part reads as. A function's static rather than a constinit variable:
  // std::string's constant initialisation is not available in every configuration (clang 14 with
  // ASan, the fuzz build, refuses it).
  static const Rare none;
  return none;
}

inline const std::string& Node::info() const {
  return rare_part().info;
}
inline const std::string& Node::url() const {
  return rare_part().url;
}
inline const std::string& Node::title() const {
  return rare_part().title;
}
inline const std::string& Node::id() const {
  return rare_part().id;
}
inline const std::vector<std::string>& Node::classes() const {
  static const std::vector<std::string> none;
  return extra_ ? extra_->classes : none;
}
inline const std::vector<std::pair<std::string, std::string>>& Node::attrs() const {
  static const std::vector<std::pair<std::string, std::string>> none;
  return extra_ ? extra_->attrs : none;
}
inline int Node::level() const {
  return rare_part().level;
}
inline int Node::start() const {
  return rare_part().start;
}
inline bool Node::tight() const {
  return rare_part().tight;
}
inline const std::vector<Align>& Node::aligns() const {
  return rare_part().aligns;
}
inline const std::string& Node::number() const {
  return rare_part().number;
}
inline const std::vector<Node>& Node::caption() const {
  return rare_part().caption;
}
inline Node::Extra& Node::extra() {
  if (!extra_) extra_ = std::make_unique<Extra>();
  return *extra_;
}
inline Node::Rare& Node::rare() {
  Extra& x = extra();
  if (!x.rare) x.rare = std::make_unique<Rare>();
  return *x.rare;
}
inline Node::Rare* Node::rare_if() {
  return extra_ ? extra_->rare.get() : nullptr;
}
inline const Node::Rare* Node::rare_if() const {
  return extra_ ? extra_->rare.get() : nullptr;
}

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
  if (auto* x = n.rare_if())
    for (auto& c : x->caption) walk(c, f);
  for (auto& c : n.children) walk(c, f);
}
template <typename F>
void walk(const Node& n, F&& f) {
  f(n);
  for (const auto& c : n.caption()) walk(c, f);
  for (const auto& c : n.children) walk(c, f);
}

}  // namespace bb::doc
