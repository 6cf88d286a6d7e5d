// Block conversion: cmark's paragraphs, headings, quotes, lists, code, raw HTML and tables become
// document-tree blocks; a run of blocks is then grouped (display math, figures, captions, callouts).
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <optional>

#include "highlight/highlight.hpp"
#include "markdown/converter.hpp"
#include "markdown/math_syntax.hpp"

namespace bb::markdown {

using doc::Kind;
using doc::Node;

Node Converter::document(cmark_node* root) {
  Node doc(Kind::Document, {path_, 1, 1});
  blocks(root, doc.children);
  return doc;
}

SourceLoc Converter::loc(cmark_node* n) const {
  return {path_, cmark_node_get_start_line(n), cmark_node_get_start_column(n)};
}

void Converter::blocks(cmark_node* parent, std::vector<Node>& out) {
  for (cmark_node* c = cmark_node_first_child(parent); c; c = cmark_node_next(c)) {
    Node b = block(c);
    if (b.kind == Kind::Document) continue;  // dropped
    out.push_back(std::move(b));
  }
  group(out);
}

Node Converter::container(Kind kind, cmark_node* n) {
  Node c(kind, loc(n));
  blocks(n, c.children);
  return c;
}

Node Converter::block(cmark_node* n) {
  switch (cmark_node_get_type(n)) {
    case CMARK_NODE_PARAGRAPH: {
      Node p(Kind::Paragraph, loc(n));
      inlines(n, p.children);
      bool only_anchors = !p.children.empty();
      for (const auto& c : p.children)
        if (!(c.kind == Kind::Anchor || c.kind == Kind::SoftBreak ||
              (c.kind == Kind::Text && is_blank(c.text))))
          only_anchors = false;
      if (only_anchors) p.extra().classes.emplace_back("anchors");
      return p;
    }
    case CMARK_NODE_HEADING: {
      Node h(Kind::Heading, loc(n));
      h.rare().level = cmark_node_get_heading_level(n);
      inlines(n, h.children);
      apply_trailing_attributes(h, h.children);
      return h;
    }
    case CMARK_NODE_BLOCK_QUOTE: return container(Kind::BlockQuote, n);
    case CMARK_NODE_LIST: {
      bool ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
      Node l(ordered ? Kind::OrderedList : Kind::BulletList, loc(n));
      l.rare().start = ordered ? cmark_node_get_list_start(n) : 1;
      l.rare().tight = cmark_node_get_list_tight(n) != 0;
      blocks(n, l.children);
      return l;
    }
    case CMARK_NODE_ITEM: {
      Node item = container(Kind::ListItem, n);
      // GFM task list items (`- [ ] to do`, `- [x] done`): the box is kept as the item's "task".
      if (type_string(n) == "tasklist")
        item.set_attr("task", cmark_gfm_extensions_get_tasklist_item_checked(n) ? "done" : "open");
      return item;
    }
    case CMARK_NODE_CODE_BLOCK: return code_block(n);
    case CMARK_NODE_HTML_BLOCK: return html_block(n);
    case CMARK_NODE_THEMATIC_BREAK: return Node(Kind::ThematicBreak, loc(n));
    case CMARK_NODE_FOOTNOTE_DEFINITION: {
      Node f(Kind::FootnoteDef, loc(n));
      const char* lit = cmark_node_get_literal(n);
      f.text = lit ? lit : "";  // the key is filled in by name_footnotes()
      blocks(n, f.children);
      return f;
    }
    default: break;
  }
  std::string t = type_string(n);
  if (t == "table") return table(n);
  diags_.warning(loc(n), "unsupported Markdown block `" + t + "` ignored");
  return Node(Kind::Document);
}

Node Converter::code_block(cmark_node* n) {
  std::string info = cmark_node_get_fence_info(n) ? cmark_node_get_fence_info(n) : "";
  std::string code = cmark_node_get_literal(n) ? cmark_node_get_literal(n) : "";
  if (info.starts_with(kMathFenceInfo)) {
    // Display math from a `$$` block; the TeX starts on the line after the opening `$$`.
    Node m(Kind::DisplayMath, {path_, cmark_node_get_start_line(n) + 1, 1});
    if (!code.empty() && code.back() == '\n') code.pop_back();
    m.text = std::move(code);
    std::string_view rest = trim(std::string_view(info).substr(kMathFenceInfo.size()));
    if (!rest.empty()) {
      auto attrs = rest.size() >= 2 && rest.front() == '{' && rest.back() == '}'
                       ? parse_attributes(rest.substr(1, rest.size() - 2))
                       : std::nullopt;
      if (attrs)
        apply(m, *attrs);
      else
        diags_.error(loc(n), "malformed attributes after `$$`: `" + std::string(rest) + "`");
    }
    if (is_blank(m.text)) diags_.error(loc(n), "empty display math block");
    return m;
  }
  Node c(Kind::CodeBlock, loc(n));
  c.text = std::move(code);
  std::string_view lang = trim(info);
  // `{.python #lst:x}` style info strings carry attributes; otherwise the first word is the language.
  if (lang.size() >= 2 && lang.front() == '{' && lang.back() == '}') {
    if (auto attrs = parse_attributes(lang.substr(1, lang.size() - 2))) {
      apply(c, *attrs);
      if (!c.classes().empty()) c.rare().info = c.classes().front();
    }
  } else {
    c.rare().info = std::string(lang.substr(0, lang.find_first_of(" \t")));
  }
  if (!highlight::known_language(c.info()))
    diags_.warning(loc(n),
                   "code in `" + c.info() +
                       "` is not highlighted: Source-highlight knows no such language (its lang.map); "
                       "name a language it knows (`cpp`, `python`, `sh`, …) or `text`");
  return c;
}

// Raw HTML is not passed to outputs (it would break EPUB's XHTML and LaTeX alike); anchors
// `<a id="x"></a>` are understood and kept.
Node Converter::html_block(cmark_node* n) {
  std::string html = cmark_node_get_literal(n) ? cmark_node_get_literal(n) : "";
  Node p(Kind::Paragraph, loc(n));
  p.extra().classes.emplace_back("anchors");
  std::string_view rest = trim(html);
  while (!rest.empty()) {
    std::string id;
    std::size_t used = parse_anchor(rest, id);
    if (used == 0) break;
    Node a(Kind::Anchor, loc(n));
    a.rare().id = std::move(id);
    p.children.push_back(std::move(a));
    rest = trim(rest.substr(used));
  }
  if (!rest.empty()) {
    if (rest.starts_with("<!--")) return Node(Kind::Document);  // comments are dropped silently
    diags_.warning(loc(n), "raw HTML is not rendered (only `<a id=\"…\"></a>` anchors are); use Markdown");
    return Node(Kind::Document);
  }
  return p;
}

// Recognises `<a id="x"></a>` (or name=), returning the bytes consumed, or 0.
std::size_t Converter::parse_anchor(std::string_view s, std::string& id) {
  if (!s.starts_with("<a ")) return 0;
  std::size_t close = s.find('>');
  if (close == std::string_view::npos) return 0;
  std::string_view attrs = s.substr(3, close - 3);
  for (std::string_view key : {"id=", "name="}) {
    auto k = attrs.find(key);
    if (k == std::string_view::npos) continue;
    std::string_view v = attrs.substr(k + key.size());
    if (v.empty() || (v[0] != '"' && v[0] != '\'')) return 0;
    auto end = v.find(v[0], 1);
    if (end == std::string_view::npos) return 0;
    id = std::string(v.substr(1, end - 1));
    break;
  }
  if (id.empty()) return 0;
  std::string_view after = s.substr(close + 1);
  auto ws = after.find_first_not_of(" \t");
  if (ws == std::string_view::npos || !after.substr(ws).starts_with("</a>")) return 0;
  return close + 1 + ws + 4;
}

Node Converter::table(cmark_node* n) {
  Node t(Kind::Table, loc(n));
  int columns = cmark_gfm_extensions_get_table_columns(n);
  const uint8_t* aligns = cmark_gfm_extensions_get_table_alignments(n);
  for (int i = 0; i < columns; ++i) {
    uint8_t a = aligns ? aligns[i] : 0;
    t.rare().aligns.push_back(a == 'l'   ? doc::Align::Left
                              : a == 'c' ? doc::Align::Center
                              : a == 'r' ? doc::Align::Right
                                         : doc::Align::None);
  }
  for (cmark_node* row = cmark_node_first_child(n); row; row = cmark_node_next(row)) {
    Node r(Kind::TableRow, loc(row));
    if (cmark_gfm_extensions_get_table_row_is_header(row)) r.extra().classes.emplace_back("header");
    for (cmark_node* cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell)) {
      Node c(Kind::TableCell, loc(cell));
      inlines(cell, c.children);
      r.children.push_back(std::move(c));
    }
    t.children.push_back(std::move(r));
  }
  return t;
}

void Converter::group(std::vector<Node>& v) {
  fenced_divs(v);
  definition_lists(v);
  split_display_math(v);
  // Where this run of blocks puts table captions, once one is seen: above (true) or below (false).
  std::optional<bool> tables_above;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].kind == Kind::Paragraph) make_figure(v[i]);
    if (v[i].kind == Kind::Figure) {
      // A caption line between two figures belongs to the second when that one has none below it:
      // `**圖 1-1**` ![a] `*圖 1-2*` ![b] is captioned above, ![a] `*图 1-1*` ![b] `*图 1-2*` below.
      auto caption_at = [&](std::size_t k) {
        Node scratch(Kind::Figure);
        return k < v.size() && take_caption(scratch, v[k], opt_.words.figure);
      };
      bool next_is_for_next_figure =
          i + 2 < v.size() && v[i + 2].kind == Kind::Paragraph && caption_at(i + 1) && !caption_at(i + 3);
      if (i + 2 < v.size()) {
        Node probe = v[i + 2];
        make_figure(probe);
        if (probe.kind == Kind::Figure) caption_from_alt(probe);  // a numbered alt text is its own caption
        next_is_for_next_figure =
            next_is_for_next_figure && probe.kind == Kind::Figure && !probe.attr("hand-number");
      }
      if (!next_is_for_next_figure && i + 1 < v.size() && take_caption(v[i], v[i + 1], opt_.words.figure)) {
        v.erase(v.begin() + static_cast<long>(i) + 1);
      } else if (i > 0 && take_caption(v[i], v[i - 1], opt_.words.figure)) {
        v.erase(v.begin() + static_cast<long>(i) - 1);  // the caption above the image
        --i;
      }
      if (v[i].caption().empty()) caption_from_alt(v[i]);
    }
    if (v[i].kind == Kind::Table) {
      // A caption line right below a table is its own, unless the table is titled above, or the line
      // titles the next table (directly or over its notes) and this chapter titles tables above.
      std::size_t title = v.size();
      bool above = i > 0 && is_table_caption(v[i - 1]);
      if (!above) title = table_title(v, i);
      bool below =
          !above && title == v.size() && i + 1 < v.size() && !titles_next_table(v, i + 1, tables_above);
      if (below && table_caption(v[i], v[i + 1])) {
        v.erase(v.begin() + static_cast<long>(i) + 1);
        tables_above = false;
      } else if (i > 0 && v[i].caption().empty() && table_caption(v[i], v[i - 1])) {
        v.erase(v.begin() + static_cast<long>(i) - 1);  // the caption above the table
        --i;
        tables_above = true;
      } else if (title < v.size()) {
        mark_table_title(v[title]);
        tables_above = true;
      }
    }
    if (v[i].kind == Kind::BlockQuote) make_callout(v[i]);
    if (v[i].kind == Kind::Paragraph) mark_lead_paragraph(v[i]);
  }
}

// A display formula written inside a paragraph (`$$…$$` between lines of text) becomes a block of
// its own between the two halves of the paragraph, as LaTeX sets it.
void Converter::split_display_math(std::vector<Node>& v) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].kind != Kind::Paragraph) continue;
    auto& in = v[i].children;
    bool has = false;
    for (const auto& c : in) has = has || c.kind == Kind::DisplayMath;
    if (!has) continue;
    std::vector<Node> out;
    Node cur(Kind::Paragraph, v[i].loc);
    auto flush = [&] {
      bool empty = true;
      for (const auto& c : cur.children)
        if (!(c.kind == Kind::SoftBreak || c.kind == Kind::LineBreak ||
              (c.kind == Kind::Text && is_blank(c.text))))
          empty = false;
      if (!empty) out.push_back(std::move(cur));
      cur = Node(Kind::Paragraph);
    };
    for (std::size_t k = 0; k < in.size(); ++k) {
      if (in[k].kind != Kind::DisplayMath) {
        if (cur.children.empty()) cur.loc = in[k].loc;
        cur.children.push_back(std::move(in[k]));
        continue;
      }
      flush();
      Node m = std::move(in[k]);
      // `$$…$$ {#eq:x}`: attributes right after the formula belong to it.
      if (k + 1 < in.size() && in[k + 1].kind == Kind::Text) {
        std::string_view t = in[k + 1].text;
        auto lead = t.find_first_not_of(' ');
        if (lead != std::string_view::npos && t[lead] == '{') {
          auto close = t.find('}', lead);
          if (close != std::string_view::npos) {
            if (auto attrs = parse_attributes(t.substr(lead + 1, close - lead - 1))) {
              apply(m, *attrs);
              in[k + 1].text.erase(0, close + 1);
            }
          }
        }
      }
      out.push_back(std::move(m));
    }
    flush();
    v.erase(v.begin() + static_cast<long>(i));
    v.insert(v.begin() + static_cast<long>(i), std::make_move_iterator(out.begin()),
             std::make_move_iterator(out.end()));
    i += out.empty() ? 0 : out.size() - 1;
  }
}

}  // namespace bb::markdown
