// The Markdown front end: cmark-gfm (GFM tables, footnotes, strikethrough, autolinks, plus the TeX
// math extension) parses a manuscript; the converter below turns cmark's tree into the document tree
// and recognises the Pandoc-style extras the book uses: attributes, figures and captions, table
// captions, callouts, spans, anchors, cross-reference citations and calc placeholders.
#include "markdown/frontend.hpp"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <memory>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif
#include <optional>
#include <set>
#include <sstream>

#include "markdown/attributes.hpp"
#include "markdown/math_syntax.hpp"

namespace bb::markdown {

namespace fs = std::filesystem;
using doc::Kind;
using doc::Node;

namespace {

// Owning handles for cmark's C objects.
struct ParserDeleter {
  void operator()(cmark_parser* p) const { cmark_parser_free(p); }
};
struct NodeDeleter {
  void operator()(cmark_node* n) const { cmark_node_free(n); }
};
using ParserPtr = std::unique_ptr<cmark_parser, ParserDeleter>;
using NodePtr = std::unique_ptr<cmark_node, NodeDeleter>;

std::string type_string(cmark_node* n) {
  const char* s = cmark_node_get_type_string(n);
  return s ? s : "";
}

bool is_blank(std::string_view s) {
  return s.find_first_not_of(" \t\n\r") == std::string_view::npos;
}

std::string_view trim(std::string_view s) {
  auto b = s.find_first_not_of(" \t\n\r");
  if (b == std::string_view::npos) return {};
  auto e = s.find_last_not_of(" \t\n\r");
  return s.substr(b, e - b + 1);
}

// Replaces invalid UTF-8 with U+FFFD, reporting each place.
std::string checked_utf8(std::string_view in, const fs::path& path, Diagnostics& diags) {
  std::string out;
  out.reserve(in.size());
  int line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  if (in.starts_with("\xEF\xBB\xBF")) i = 3;  // byte order mark
  while (i < in.size()) {
    unsigned char c = static_cast<unsigned char>(in[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n > 0 && i + n <= in.size();
    for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(in[i + k]) & 0xC0) == 0x80;
    if (ok && n == 2) ok = c >= 0xC2;
    if (ok && n == 3) {
      unsigned char c1 = static_cast<unsigned char>(in[i + 1]);
      ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0);
    }
    if (ok && n == 4) {
      unsigned char c1 = static_cast<unsigned char>(in[i + 1]);
      ok = c <= 0xF4 && !(c == 0xF0 && c1 < 0x90) && !(c == 0xF4 && c1 >= 0x90);
    }
    if (!ok) {
      diags.error({path, line, static_cast<int>(i - line_start + 1)}, "invalid UTF-8 byte sequence");
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    }
    out.append(in.substr(i, n));
    i += n;
  }
  return out;
}

// The callout kinds, by the word that opens their bold lead.
const char* callout_kind(std::string_view lead, const Vocabulary& w) {
  auto starts = [&](const std::vector<std::string>& words) {
    for (const auto& x : words)
      if (lead.starts_with(x)) return true;
    return false;
  };
  if (starts(w.experiment)) return "experiment";
  if (starts(w.example)) return "example";
  if (starts(w.think)) return "think";
  return "note";
}

class Converter {
 public:
  Converter(fs::path path, Diagnostics& diags, const Options& options)
      : path_(std::move(path)), diags_(diags), opt_(options) {}

  Node document(cmark_node* root) {
    Node doc(Kind::Document, {path_, 1, 1});
    blocks(root, doc.children);
    return doc;
  }

 private:
  SourceLoc loc(cmark_node* n) const {
    return {path_, cmark_node_get_start_line(n), cmark_node_get_start_column(n)};
  }

  // ---- blocks ---------------------------------------------------------------------------------

  void blocks(cmark_node* parent, std::vector<Node>& out) {
    for (cmark_node* c = cmark_node_first_child(parent); c; c = cmark_node_next(c)) {
      Node b = block(c);
      if (b.kind == Kind::Document) continue;  // dropped
      out.push_back(std::move(b));
    }
    group(out);
  }

  Node block(cmark_node* n) {
    switch (cmark_node_get_type(n)) {
      case CMARK_NODE_PARAGRAPH: {
        Node p(Kind::Paragraph, loc(n));
        inlines(n, p.children);
        bool only_anchors = !p.children.empty();
        for (const auto& c : p.children)
          if (!(c.kind == Kind::Anchor || c.kind == Kind::SoftBreak ||
                (c.kind == Kind::Text && is_blank(c.text))))
            only_anchors = false;
        if (only_anchors) p.classes.emplace_back("anchors");
        return p;
      }
      case CMARK_NODE_HEADING: {
        Node h(Kind::Heading, loc(n));
        h.level = cmark_node_get_heading_level(n);
        inlines(n, h.children);
        apply_trailing_attributes(h, h.children);
        return h;
      }
      case CMARK_NODE_BLOCK_QUOTE: {
        Node q(Kind::BlockQuote, loc(n));
        blocks(n, q.children);
        return q;
      }
      case CMARK_NODE_LIST: {
        bool ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
        Node l(ordered ? Kind::OrderedList : Kind::BulletList, loc(n));
        l.start = ordered ? cmark_node_get_list_start(n) : 1;
        l.tight = cmark_node_get_list_tight(n) != 0;
        blocks(n, l.children);
        return l;
      }
      case CMARK_NODE_ITEM: {
        Node i(Kind::ListItem, loc(n));
        blocks(n, i.children);
        return i;
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

  Node code_block(cmark_node* n) {
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
        if (!c.classes.empty()) c.info = c.classes.front();
      }
    } else {
      c.info = std::string(lang.substr(0, lang.find_first_of(" \t")));
    }
    return c;
  }

  // Raw HTML is not passed to outputs (it would break EPUB's XHTML and LaTeX alike); anchors
  // `<a id="x"></a>` are understood and kept.
  Node html_block(cmark_node* n) {
    std::string html = cmark_node_get_literal(n) ? cmark_node_get_literal(n) : "";
    Node p(Kind::Paragraph, loc(n));
    p.classes.emplace_back("anchors");
    std::string_view rest = trim(html);
    while (!rest.empty()) {
      std::string id;
      std::size_t used = parse_anchor(rest, id);
      if (used == 0) break;
      Node a(Kind::Anchor, loc(n));
      a.id = std::move(id);
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
  static std::size_t parse_anchor(std::string_view s, std::string& id) {
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

  Node table(cmark_node* n) {
    Node t(Kind::Table, loc(n));
    int columns = cmark_gfm_extensions_get_table_columns(n);
    const uint8_t* aligns = cmark_gfm_extensions_get_table_alignments(n);
    for (int i = 0; i < columns; ++i) {
      uint8_t a = aligns ? aligns[i] : 0;
      t.aligns.push_back(a == 'l'   ? doc::Align::Left
                         : a == 'c' ? doc::Align::Center
                         : a == 'r' ? doc::Align::Right
                                    : doc::Align::None);
    }
    for (cmark_node* row = cmark_node_first_child(n); row; row = cmark_node_next(row)) {
      Node r(Kind::TableRow, loc(row));
      if (cmark_gfm_extensions_get_table_row_is_header(row)) r.classes.emplace_back("header");
      for (cmark_node* cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell)) {
        Node c(Kind::TableCell, loc(cell));
        inlines(cell, c.children);
        r.children.push_back(std::move(c));
      }
      t.children.push_back(std::move(r));
    }
    return t;
  }

  // ---- block grouping: display math, figures, captions, callouts --------------------------------

  void group(std::vector<Node>& v) {
    split_display_math(v);
    for (std::size_t i = 0; i < v.size(); ++i) {
      Node& b = v[i];
      if (b.kind == Kind::Paragraph) make_figure(b);
      if (b.kind == Kind::Figure && i + 1 < v.size() && take_caption(b, v[i + 1], opt_.words.figure)) {
        v.erase(v.begin() + static_cast<long>(i) + 1);
      }
      if (b.kind == Kind::Figure && b.caption.empty()) caption_from_alt(b);
      if (b.kind == Kind::Table) {
        if (i + 1 < v.size() && table_caption(b, v[i + 1]))
          v.erase(v.begin() + static_cast<long>(i) + 1);
        else if (i > 0 && b.caption.empty() && table_caption(b, v[i - 1])) {
          v.erase(v.begin() + static_cast<long>(i) - 1);
          --i;
        }
      }
      if (v[i].kind == Kind::BlockQuote) make_callout(v[i]);
      if (v[i].kind == Kind::Paragraph) mark_lead_paragraph(v[i]);
    }
  }

  // A display formula written inside a paragraph (`$$…$$` between lines of text) becomes a block of
  // its own between the two halves of the paragraph, as LaTeX sets it.
  void split_display_math(std::vector<Node>& v) {
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

  // An image alone in its paragraph (optionally followed by `{#fig:x}`) is a figure.
  void make_figure(Node& p) {
    Node* image = nullptr;
    std::optional<Attributes> attrs;
    for (auto& c : p.children) {
      if (c.kind == Kind::SoftBreak || (c.kind == Kind::Text && is_blank(c.text))) continue;
      if (c.kind == Kind::Image && !image) {
        image = &c;
        continue;
      }
      if (c.kind == Kind::Text && image && !attrs) {
        std::string_view t = trim(c.text);
        if (t.size() >= 2 && t.front() == '{' && t.back() == '}') {
          attrs = parse_attributes(t.substr(1, t.size() - 2));
          if (attrs) continue;
        }
      }
      return;
    }
    if (!image) return;
    Node fig(Kind::Figure, p.loc);
    Node img = std::move(*image);
    if (attrs) apply(fig, *attrs);
    fig.children.push_back(std::move(img));
    p = std::move(fig);
  }

  // `*图 4-1　caption*` (one emphasised line opening with a figure/table word and a number).
  bool take_caption(Node& target, Node& para, const std::vector<std::string>& words) {
    if (para.kind != Kind::Paragraph) return false;
    const Node* emph = nullptr;
    for (const auto& c : para.children) {
      if (c.kind == Kind::Text && is_blank(c.text)) continue;
      if (c.kind == Kind::Emph && !emph) {
        emph = &c;
        continue;
      }
      return false;
    }
    if (!emph || emph->children.empty() || emph->children.front().kind != Kind::Text) return false;
    std::string_view rest;
    std::string number = split_hand_number(emph->children.front().text, words, rest);
    if (number.empty()) return false;
    std::vector<Node> caption = emph->children;
    caption.front().text = std::string(rest);
    if (caption.front().text.empty()) caption.erase(caption.begin());
    target.caption = std::move(caption);
    target.set_attr("hand-number", number);
    target.set_attr("caption-line", std::to_string(para.loc.line));
    return true;
  }

  // The English edition puts the caption in the alt text: `![Figure 4-1 …](…)`.
  void caption_from_alt(Node& fig) {
    Node& img = fig.children.front();
    if (img.children.empty()) return;
    std::vector<Node> caption = img.children;
    if (caption.front().kind == Kind::Text) {
      std::string_view rest;
      std::string number = split_hand_number(caption.front().text, opt_.words.figure, rest);
      if (!number.empty()) {
        fig.set_attr("hand-number", number);
        caption.front().text = std::string(trim(rest));
        if (caption.front().text.empty()) caption.erase(caption.begin());
      }
    }
    fig.caption = std::move(caption);
  }

  // Pandoc's `: caption {#tbl:x}` / `Table: caption` paragraph next to a table, or a hand-numbered
  // italic `*表 4-1 …*` line.
  bool table_caption(Node& table, Node& para) {
    if (para.kind != Kind::Paragraph || para.children.empty()) return false;
    if (take_caption(table, para, opt_.words.table)) return true;
    if (para.children.front().kind != Kind::Text) return false;
    std::string& first = para.children.front().text;
    std::size_t skip = 0;
    if (first.starts_with(": "))
      skip = 2;
    else if (first.starts_with("Table: "))
      skip = 7;
    else
      return false;
    first.erase(0, skip);
    if (first.empty()) para.children.erase(para.children.begin());
    std::vector<Node> caption = std::move(para.children);
    Node holder(Kind::Paragraph);
    holder.children = std::move(caption);
    apply_trailing_attributes(table, holder.children);
    table.caption = std::move(holder.children);
    return true;
  }

  // A blockquote whose first paragraph opens with bold text is a callout: `> **例 4-1：…**`.
  void make_callout(Node& q) {
    if (q.children.empty() || q.children.front().kind != Kind::Paragraph) return;
    const auto& first = q.children.front().children;
    if (first.empty() || first.front().kind != Kind::Strong) return;
    std::string lead = doc::plain_text(first.front().children);
    q.kind = Kind::Callout;
    q.set_attr("kind", callout_kind(lead, opt_.words));
    apply_trailing_attributes(q, q.children.front().children);  // `> **例 4-1：…** {#ex:x}`
    // The lead paragraph was marked as an example on its own; the callout is the example now.
    auto& lead_attrs = q.children.front().attrs;
    std::erase_if(lead_attrs, [](const auto& kv) { return kv.first == "kind" || kv.first == "hand-number"; });
    const auto& words =
        q.attr("kind") && *q.attr("kind") == "experiment" ? opt_.words.experiment : opt_.words.example;
    std::string_view rest;
    std::string number = split_hand_number(lead, words, rest);
    if (!number.empty()) q.set_attr("hand-number", number);
  }

  // A paragraph that opens with a bold, numbered example or experiment lead (`**例 5-1：…** text`)
  // defines that example just as a callout does.
  void mark_lead_paragraph(Node& p) {
    if (p.children.empty() || p.children.front().kind != Kind::Strong) return;
    std::string lead = doc::plain_text(p.children.front().children);
    std::string kind = callout_kind(lead, opt_.words);
    if (kind != "example" && kind != "experiment") return;
    std::string_view rest;
    std::string number =
        split_hand_number(lead, kind == "example" ? opt_.words.example : opt_.words.experiment, rest);
    if (number.empty()) return;
    p.set_attr("kind", kind);
    p.set_attr("hand-number", number);
  }

  // ---- inlines ----------------------------------------------------------------------------------

  void inlines(cmark_node* parent, std::vector<Node>& out) {
    for (cmark_node* c = cmark_node_first_child(parent); c; c = cmark_node_next(c))
      out.push_back(inline_node(c));
    finish(out);
  }

  Node inline_node(cmark_node* n) {
    auto literal = [&] { return std::string(cmark_node_get_literal(n) ? cmark_node_get_literal(n) : ""); };
    if (is_inline_math(n) || is_display_math(n)) {
      MathPayload m = math_payload(n);
      bool display = is_display_math(n);
      Node node(display ? Kind::DisplayMath : Kind::InlineMath, {path_, m.line, m.col + (display ? 2 : 1)});
      node.text = std::move(m.tex);
      return node;
    }
    switch (cmark_node_get_type(n)) {
      case CMARK_NODE_TEXT: {
        Node t(Kind::Text, loc(n));
        t.text = literal();
        return t;
      }
      case CMARK_NODE_SOFTBREAK: return Node(Kind::SoftBreak, loc(n));
      case CMARK_NODE_LINEBREAK: return Node(Kind::LineBreak, loc(n));
      case CMARK_NODE_CODE: {
        Node c(Kind::Code, loc(n));
        c.text = literal();
        return c;
      }
      case CMARK_NODE_HTML_INLINE: {
        std::string html = literal();
        std::string id;
        if (parse_anchor(html, id) == html.size()) {
          Node a(Kind::Anchor, loc(n));
          a.id = id;
          return a;
        }
        Node h(Kind::HtmlInline, loc(n));
        h.text = html;
        if (!html.starts_with("<!--") && html != "</a>" && !html.starts_with("<a "))
          diags_.warning(loc(n), "raw HTML `" + html + "` is not rendered; use Markdown");
        return h;
      }
      case CMARK_NODE_EMPH:
      case CMARK_NODE_STRONG: {
        Node e(cmark_node_get_type(n) == CMARK_NODE_EMPH ? Kind::Emph : Kind::Strong, loc(n));
        inlines(n, e.children);
        return e;
      }
      case CMARK_NODE_LINK:
      case CMARK_NODE_IMAGE: {
        Node l(cmark_node_get_type(n) == CMARK_NODE_LINK ? Kind::Link : Kind::Image, loc(n));
        l.url = cmark_node_get_url(n) ? cmark_node_get_url(n) : "";
        l.title = cmark_node_get_title(n) ? cmark_node_get_title(n) : "";
        inlines(n, l.children);
        return l;
      }
      case CMARK_NODE_FOOTNOTE_REFERENCE: {
        Node f(Kind::FootnoteRef, loc(n));
        f.text = literal();
        return f;
      }
      default: break;
    }
    std::string t = type_string(n);
    if (t == "strikethrough") {
      Node s(Kind::Strike, loc(n));
      inlines(n, s.children);
      return s;
    }
    Node text(Kind::Text, loc(n));
    text.text = literal();
    return text;
  }

  // Post-processing of a run of inlines: merge text, then find spans, placeholders and citations.
  void finish(std::vector<Node>& v) {
    merge_text(v);
    bracketed_spans(v);
    split_text(v);
  }

  static void merge_text(std::vector<Node>& v) {
    std::vector<Node> out;
    out.reserve(v.size());
    for (auto& n : v) {
      // `<a id="x">` directly followed by `</a>` is an anchor.
      if (n.kind == Kind::HtmlInline && n.text == "</a>" && !out.empty() &&
          out.back().kind == Kind::HtmlInline) {
        std::string id;
        std::string both = out.back().text + n.text;
        if (parse_anchor(both, id) == both.size()) {
          out.back().kind = Kind::Anchor;
          out.back().id = id;
          out.back().text.clear();
          continue;
        }
      }
      if (n.kind == Kind::Text && !out.empty() && out.back().kind == Kind::Text) {
        out.back().text += n.text;
        continue;
      }
      if (n.kind == Kind::Text && n.text.empty()) continue;
      out.push_back(std::move(n));
    }
    v = std::move(out);
  }

  // `[content]{attrs}` → Span; `[]{#id}` → Anchor. Brackets that cmark left as text are matched
  // within this run of inlines.
  void bracketed_spans(std::vector<Node>& v) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i].kind != Kind::Text) continue;
      std::size_t close = 0;
      while ((close = v[i].text.find("]{", close)) != std::string::npos) {
        std::size_t end = v[i].text.find('}', close + 2);
        if (end == std::string::npos) break;
        auto attrs = parse_attributes(std::string_view(v[i].text).substr(close + 2, end - close - 2));
        if (!attrs) {
          close += 2;
          continue;
        }
        // Find the matching `[` going back through this text and the previous ones.
        std::size_t oi = i, op = std::string::npos;
        int depth = 0;
        for (std::size_t k = i + 1; k-- > 0 && op == std::string::npos;) {
          if (v[k].kind != Kind::Text) continue;
          const std::string& t = v[k].text;
          std::size_t from = k == i ? close : t.size();
          for (std::size_t p = from; p-- > 0;) {
            if (t[p] == ']')
              ++depth;
            else if (t[p] == '[') {
              if (depth == 0) {
                oi = k;
                op = p;
                break;
              }
              --depth;
            }
          }
        }
        if (op == std::string::npos) {
          close += 2;
          continue;
        }
        SourceLoc tail_loc = v[i].loc;
        tail_loc.col += static_cast<int>(end + 1);
        Node span(Kind::Span, v[oi].loc);
        span.loc.col += static_cast<int>(op);
        apply(span, *attrs);
        std::string tail = v[i].text.substr(end + 1);
        if (oi == i) {
          std::string inner = v[i].text.substr(op + 1, close - op - 1);
          if (!inner.empty()) span.children.push_back(text_node(inner, v[i].loc, static_cast<int>(op + 1)));
          v[i].text.resize(op);
        } else {
          std::string first = v[oi].text.substr(op + 1);
          std::string last = v[i].text.substr(0, close);
          if (!first.empty()) span.children.push_back(text_node(first, v[oi].loc, static_cast<int>(op + 1)));
          for (std::size_t k = oi + 1; k < i; ++k) span.children.push_back(std::move(v[k]));
          if (!last.empty()) span.children.push_back(text_node(last, v[i].loc, 0));
          v[oi].text.resize(op);
          v.erase(v.begin() + static_cast<long>(oi) + 1, v.begin() + static_cast<long>(i) + 1);
        }
        if (span.children.empty() && attrs->classes.empty() && attrs->pairs.empty() && !attrs->id.empty()) {
          span.kind = Kind::Anchor;
        }
        finish(span.children);
        std::size_t at = oi + 1;
        v.insert(v.begin() + static_cast<long>(at), std::move(span));
        v.insert(v.begin() + static_cast<long>(at) + 1, text_node(tail, tail_loc, 0));
        merge_text(v);
        i = oi;  // rescan from the text before the span
        close = 0;
        if (i >= v.size() || v[i].kind != Kind::Text) break;
      }
    }
  }

  static Node text_node(std::string text, SourceLoc at, int offset) {
    Node t(Kind::Text, std::move(at));
    t.loc.col += offset;
    t.text = std::move(text);
    return t;
  }

  // Splits text nodes at `{{…}}` placeholders, `@fig:x` / `[@fig:x]` citations and undefined
  // footnote markers `[^x]`.
  void split_text(std::vector<Node>& v) {
    std::vector<Node> out;
    out.reserve(v.size());
    for (auto& n : v) {
      if (n.kind != Kind::Text) {
        out.push_back(std::move(n));
        continue;
      }
      const std::string& t = n.text;
      std::size_t done = 0;
      std::size_t i = 0;
      auto emit_text = [&](std::size_t upto) {
        if (upto > done) out.push_back(text_node(t.substr(done, upto - done), n.loc, static_cast<int>(done)));
      };
      while (i < t.size()) {
        if (t.compare(i, 2, "{{") == 0) {
          std::size_t end = t.find("}}", i + 2);
          if (end == std::string::npos) {
            diags_.error(at(n, i),
                         "unclosed `{{`: a computed number is written `{{calc scenario.field | format}}`");
            break;
          }
          emit_text(i);
          Node c(Kind::CalcNumber, at(n, i));
          c.text = std::string(trim(std::string_view(t).substr(i + 2, end - i - 2)));
          out.push_back(std::move(c));
          i = done = end + 2;
          continue;
        }
        if (t[i] == '@' || (t[i] == '[' && i + 1 < t.size() && t[i + 1] == '@')) {
          bool bracket = t[i] == '[';
          std::size_t s = i + (bracket ? 2 : 1);
          bool word_before =
              i > 0 && (std::isalnum(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '_' ||
                        t[i - 1] == '.' || t[i - 1] == '@' || t[i - 1] == '-');
          std::size_t colon = t.find(':', s);
          std::string prefix = colon == std::string::npos ? "" : t.substr(s, colon - s);
          static const std::set<std::string> prefixes{"fig", "sec", "tbl", "eq", "ch", "ex", "exp"};
          if (!word_before && prefixes.count(prefix)) {
            std::size_t e = colon + 1;
            while (e < t.size() &&
                   (std::isalnum(static_cast<unsigned char>(t[e])) || t[e] == '_' || t[e] == '-' ||
                    t[e] == '.' || t[e] == ':' || static_cast<unsigned char>(t[e]) >= 0x80))
              ++e;
            while (e > colon + 1 && (t[e - 1] == '.' || t[e - 1] == ':' || t[e - 1] == '-')) --e;
            // Stop before CJK punctuation glued to the label (U+3000–U+303F, U+FF00–U+FFEF).
            for (std::size_t p = colon + 1; p < e; ++p) {
              unsigned char c0 = static_cast<unsigned char>(t[p]);
              if (c0 == 0xE3 && p + 1 < e && static_cast<unsigned char>(t[p + 1]) == 0x80)
                e = p;
              else if (c0 == 0xEF && p + 1 < e && (static_cast<unsigned char>(t[p + 1]) & 0xFC) == 0xBC)
                e = p;
            }
            bool ok = e > colon + 1 && (!bracket || (e < t.size() && t[e] == ']'));
            if (ok) {
              emit_text(i);
              Node r(Kind::CrossRef, at(n, i));
              r.text = t.substr(s, e - s);
              if (bracket) r.classes.emplace_back("bracketed");
              out.push_back(std::move(r));
              i = done = e + (bracket ? 1 : 0);
              continue;
            }
          }
        }
        if (t.compare(i, 2, "[^") == 0) {
          std::size_t end = t.find(']', i + 2);
          if (end != std::string::npos && end > i + 2 && t.find_first_of(" \t", i + 2) > end &&
              (end + 1 >= t.size() || t[end + 1] != ':')) {
            diags_.error(at(n, i),
                         "footnote `" + t.substr(i, end - i + 1) + "` is referenced but never defined");
          }
        }
        ++i;
      }
      emit_text(t.size());
    }
    v = std::move(out);
  }

  SourceLoc at(const Node& n, std::size_t offset) const {
    SourceLoc l = n.loc;
    l.col += static_cast<int>(offset);
    return l;
  }

  // ---- attributes -------------------------------------------------------------------------------

  static void apply(Node& n, const Attributes& a) {
    if (!a.id.empty()) n.id = a.id;
    for (const auto& c : a.classes) n.classes.push_back(c);
    for (const auto& [k, v] : a.pairs) n.set_attr(k, v);
  }

  // `## Title {#sec:x .unnumbered}`: strips the block from the last text and applies it.
  static void apply_trailing_attributes(Node& target, std::vector<Node>& inl) {
    if (inl.empty() || inl.back().kind != Kind::Text) return;
    auto t = trailing_attributes(inl.back().text);
    if (!t) return;
    apply(target, t->attrs);
    inl.back().text.resize(t->keep);
    if (inl.back().text.empty()) inl.pop_back();
  }

  fs::path path_;
  Diagnostics& diags_;
  const Options& opt_;
};

std::vector<std::pair<std::string, int>> footnote_definitions_in_source(std::string_view src) {
  // `[^key]:` at the start of a line (up to three spaces of indentation), outside code fences.
  std::vector<std::pair<std::string, int>> keys;
  std::istringstream in{std::string(src)};
  std::string line;
  bool in_code = false;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::string_view l = line;
    auto ind = l.find_first_not_of(' ');
    if (ind == std::string_view::npos) continue;
    l.remove_prefix(ind);
    if (l.starts_with("```") || l.starts_with("~~~")) in_code = !in_code;
    if (in_code || ind > 3 || !l.starts_with("[^")) continue;
    auto end = l.find("]:");
    if (end != std::string_view::npos) keys.emplace_back(std::string(l.substr(2, end - 2)), line_no);
  }
  return keys;
}

// cmark-gfm numbers footnotes in order of first reference: a reference's literal is that number,
// and the definitions come last in the document in the same order, without their labels in the
// public API. The labels are read back from the definitions' source lines, so that references and
// definitions carry the author's key (stable ids across editions).
void name_footnotes(Node& doc, std::string_view source) {
  std::vector<std::string_view> lines;
  for (std::size_t pos = 0; pos <= source.size();) {
    std::size_t eol = source.find('\n', pos);
    if (eol == std::string_view::npos) eol = source.size();
    lines.push_back(source.substr(pos, eol - pos));
    pos = eol + 1;
  }
  std::map<std::string, std::string> key_of_number;
  int number = 0;
  for (auto& b : doc.children) {
    if (b.kind != Kind::FootnoteDef) continue;
    ++number;
    std::string key = std::to_string(number);
    if (b.loc.line >= 1 && static_cast<std::size_t>(b.loc.line) <= lines.size()) {
      std::string_view l = lines[b.loc.line - 1];
      auto open = l.find("[^");
      auto close = l.find("]:", open == std::string_view::npos ? 0 : open);
      if (open != std::string_view::npos && close != std::string_view::npos) {
        key = std::string(l.substr(open + 2, close - open - 2));
        b.loc.col = static_cast<int>(open) + 1;
      }
    }
    b.text = key;
    key_of_number[std::to_string(number)] = key;
  }
  doc::walk(doc, [&](Node& n) {
    if (n.kind != Kind::FootnoteRef) return;
    if (auto it = key_of_number.find(n.text); it != key_of_number.end()) n.text = it->second;
  });
}

}  // namespace

std::string split_hand_number(std::string_view text, const std::vector<std::string>& words,
                              std::string_view& rest) {
  for (const auto& w : words) {
    if (!text.starts_with(w)) continue;
    std::string_view s = text.substr(w.size());
    // Spaces between word and number: ASCII, no-break (U+00A0) and narrow no-break (U+202F).
    for (;;) {
      if (s.starts_with(" "))
        s.remove_prefix(1);
      else if (s.starts_with("\u00A0"))
        s.remove_prefix(2);
      else if (s.starts_with("\u202F"))
        s.remove_prefix(3);
      else
        break;
    }
    std::size_t i = 0;
    auto digits = [&] {
      std::size_t b = i;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
      return i > b;
    };
    if (!digits()) continue;
    while (i + 1 < s.size() && (s[i] == '-' || s[i] == '.') &&
           std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      ++i;
      digits();
    }
    std::string number(s.substr(0, i));
    if (number.find_first_of("-.") == std::string::npos) continue;  // "图 4" is not a figure number
    s.remove_prefix(i);
    for (std::string_view sep : {"\u3000", "：", ":", ".", " ", "\u00A0"}) {
      if (s.starts_with(sep)) {
        s.remove_prefix(sep.size());
        break;
      }
    }
    while (s.starts_with(" ")) s.remove_prefix(1);
    rest = s;
    return number;
  }
  rest = text;
  return {};
}

namespace {

// The extensions every parser attaches, set up once for the process. cmark-gfm keeps the special
// inline characters of extensions ('~', '$', ...) in one process-wide table, which each parser fills
// from its extensions' lists when it starts parsing inlines and clears when it finishes: two parsers
// at once would clear each other's characters mid-parse. Every parser here attaches the same
// extensions, so the table is filled once, here, and the extensions' lists are emptied so that
// parsers leave it alone; chapters then parse in parallel without a lock. (The emptied lists are
// dropped on purpose: cmark-gfm has no getter to free them, so the leak checker skips them.)
const std::vector<cmark_syntax_extension*>& cmark_extensions() {
  static const std::vector<cmark_syntax_extension*> extensions = [] {
#if defined(__SANITIZE_ADDRESS__)
    __lsan::ScopedDisabler dropped_lists;
#endif
    cmark_gfm_core_extensions_ensure_registered();
    std::vector<cmark_syntax_extension*> v;
    for (const char* name : {"table", "strikethrough", "autolink"})
      if (cmark_syntax_extension* ext = cmark_find_syntax_extension(name)) v.push_back(ext);
    v.push_back(math_extension());
    ParserPtr parser(cmark_parser_new(CMARK_OPT_DEFAULT));
    for (cmark_syntax_extension* ext : v) cmark_parser_attach_syntax_extension(parser.get(), ext);
    cmark_manage_extensions_special_characters(parser.get(), 1);
    for (cmark_syntax_extension* ext : v) cmark_syntax_extension_set_special_inline_chars(ext, nullptr);
    return v;
  }();
  return extensions;
}

}  // namespace

doc::Node parse(std::string_view source_in, const fs::path& path, Diagnostics& diags,
                const Options& options) {
  std::string source = checked_utf8(source_in, path, diags);
  FencedSource fenced = fence_display_math(source);
  if (fenced.unclosed_line > 0)
    diags.error({path, fenced.unclosed_line, 1}, "display math opened with `$$` is never closed");

  NodePtr root;
  {
    ParserPtr parser(cmark_parser_new(CMARK_OPT_FOOTNOTES));
    for (cmark_syntax_extension* ext : cmark_extensions())
      cmark_parser_attach_syntax_extension(parser.get(), ext);
    cmark_parser_feed(parser.get(), fenced.text.data(), fenced.text.size());
    root.reset(cmark_parser_finish(parser.get()));
  }

  Converter conv(path, diags, options);
  Node doc = conv.document(root.get());
  name_footnotes(doc, fenced.text);

  // cmark-gfm drops footnote definitions nobody references; say so, since it is usually a typo.
  std::set<std::string> kept;
  for (const auto& b : doc.children)
    if (b.kind == Kind::FootnoteDef) kept.insert(b.text);
  std::set<std::string> seen;
  for (const auto& [key, line] : footnote_definitions_in_source(source)) {
    if (!seen.insert(key).second) {
      diags.error({path, line, 1}, "footnote `[^" + key + "]` is defined twice");
    } else if (!kept.count(key)) {
      diags.warning({path, line, 1}, "footnote `[^" + key + "]` is defined but never referenced");
    }
  }
  return doc;
}

doc::Node parse_file(const fs::path& path, Diagnostics& diags, const Options& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error({path, 0, 0}, "cannot read file");
    return Node(Kind::Document, {path, 0, 0});
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), path, diags, options);
}

}  // namespace bb::markdown
