// The HTML writer. Footnotes are numbered in order of first reference and listed at the end with
// back-links to every reference, as readers of mdBook and Pandoc output expect.
#include "writers/html.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <vector>

#include "highlight/highlight.hpp"
#include "writers/escape.hpp"

namespace bb::writers {

using doc::Kind;
using doc::Node;

namespace {

class HtmlWriter {
 public:
  explicit HtmlWriter(const HtmlOptions& o) : opt_(o) {}

  std::string run(const Node& root) {
    collect_footnotes(root);
    for (std::size_t i = 0; i < root.children.size(); ++i) {
      if (opt_.before_block) out_ += opt_.before_block(i);
      marked([&] { block(root.children[i]); });
    }
    marked([&] { footnotes(); });
    return std::move(out_);
  }

 private:
  void collect_footnotes(const Node& root) {
    doc::walk(root, [&](const Node& n) {
      if (n.kind == Kind::FootnoteDef) defs_[n.text] = &n;
      if (n.kind == Kind::FootnoteRef && !numbers_.count(n.text)) {
        numbers_[n.text] = static_cast<int>(order_.size()) + 1;
        order_.push_back(n.text);
      }
    });
  }

  // With block markers (the dev server), each top-level block is wrapped so that a page can replace
  // just the blocks whose content changed: `<div class="bb-block" data-h="HASH">…</div><!--bb-->`.
  template <typename F>
  void marked(F&& render) {
    if (!opt_.block_markers) {
      render();
      return;
    }
    std::size_t start = out_.size();
    render();
    if (out_.size() == start) return;
    std::string body = out_.substr(start);
    char hash[32];
    std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>{}(body));
    out_.resize(start);
    out_ += "<div class=\"bb-block\" data-h=\"";
    out_ += hash;
    out_ += "\">" + body + "</div><!--bb-->\n";
  }

  void text(std::string_view s) { append_escaped_xml(out_, s); }

  std::string void_tag(std::string_view name) const {
    return "<" + std::string(name) + (opt_.xhtml ? " />" : ">");
  }

  void id_attr(const Node& n) {
    if (n.id().empty()) return;
    out_ += " id=\"";
    text(sanitize_id(n.id()));
    out_ += '"';
  }

  void block(const Node& n) {
    switch (n.kind) {
      case Kind::Heading: {
        std::string tag = "h" + std::to_string(n.level());
        out_ += "<" + tag;
        id_attr(n);
        out_ += ">";
        if (const std::string* alias = n.attr("mkdocs-id"); opt_.alias_ids && alias && *alias != n.id()) {
          out_ += "<span class=\"alias\" id=\"";
          text(*alias);
          out_ += "\"></span>";
        }
        // Chapters show their localized label ("第 4 章"), sections their number ("4.2.3").
        const std::string* label = n.attr("label");
        if (label || !n.number().empty()) {
          out_ += "<span class=\"number\">";
          text(label ? *label : n.number());
          out_ += "</span> ";
        }
        inlines(n.children);
        out_ += "</" + tag + ">\n";
        break;
      }
      case Kind::Paragraph:
        if (n.has_class("anchors")) {
          inlines(n.children);
          out_ += "\n";
          break;
        }
        out_ += "<p";
        id_attr(n);
        out_ += ">";
        inlines(n.children);
        out_ += "</p>\n";
        break;
      case Kind::BlockQuote:
        out_ += "<blockquote>\n";
        for (const auto& c : n.children) block(c);
        out_ += "</blockquote>\n";
        break;
      case Kind::Callout: {
        const std::string* kind = n.attr("kind");
        // role="note": a callout belongs to the text around it; as the default complementary landmark,
        // a chapter's many callouts would be landmarks without distinct names (axe landmark-unique).
        out_ += "<aside class=\"callout callout-" + (kind ? *kind : std::string("note")) + "\" role=\"note\"";
        id_attr(n);
        out_ += ">\n";
        for (const auto& c : n.children) block(c);
        out_ += "</aside>\n";
        break;
      }
      case Kind::BulletList:
      case Kind::OrderedList: {
        bool ol = n.kind == Kind::OrderedList;
        out_ += ol ? "<ol" : "<ul";
        if (ol && n.start() != 1) out_ += " start=\"" + std::to_string(n.start()) + "\"";
        out_ += ">\n";
        for (const auto& item : n.children) {
          out_ += "<li>";
          task_box(item);
          for (const auto& c : item.children) {
            if (n.tight() && c.kind == Kind::Paragraph)
              inlines(c.children);
            else
              block(c);
          }
          out_ += "</li>\n";
        }
        out_ += ol ? "</ol>\n" : "</ul>\n";
        break;
      }
      case Kind::DefinitionList: definition_list(n); break;
      case Kind::CodeBlock:
        out_ += "<pre><code";
        if (!n.info().empty()) {
          out_ += " class=\"language-";
          text(n.info());
          out_ += '"';
        }
        out_ += ">";
        code(n);
        out_ += "</code></pre>\n";
        break;
      case Kind::ThematicBreak: out_ += void_tag("hr") + "\n"; break;
      case Kind::Table: table(n); break;
      case Kind::Figure: figure(n); break;
      case Kind::DisplayMath:
        out_ += "<div class=\"math display\"";
        id_attr(n);
        out_ += ">";
        math(n);
        if (!n.number().empty()) {
          out_ += "<span class=\"eqno\">(";
          text(n.number());
          out_ += ")</span>";
        }
        out_ += "</div>\n";
        break;
      case Kind::FootnoteDef:
      case Kind::HtmlBlock: break;  // footnotes are listed at the end; raw HTML is not rendered
      default: inlines({n});
    }
  }

  // `<dl>`: a tight list's definitions hold their text, a loose list's their paragraphs.
  void definition_list(const Node& n) {
    out_ += "<dl>\n";
    for (const auto& c : n.children) {
      const bool term = c.kind == Kind::DefinitionTerm;
      out_ += term ? "<dt>" : "<dd>";
      for (const auto& b : c.children) {
        if (term || (n.tight() && b.kind == Kind::Paragraph))
          term ? inline_node(b) : inlines(b.children);
        else
          block(b);
      }
      out_ += term ? "</dt>\n" : "</dd>\n";
    }
    out_ += "</dl>\n";
  }

  void table(const Node& n) {
    // In the EPUB the wrapper scrolls a wide table sideways: focusable, so that a keyboard can scroll it.
    out_ +=
        opt_.xhtml ? "<div class=\"table-wrap\" tabindex=\"0\"><table" : "<div class=\"table-wrap\"><table";
    id_attr(n);
    out_ += ">\n";
    if (!n.caption().empty()) {
      out_ += "<caption>";
      caption_label(n);
      inlines(n.caption());
      out_ += "</caption>\n";
    }
    bool in_head = false, in_body = false;
    for (const auto& row : n.children) {
      bool header = row.has_class("header");
      if (header && !in_head) {
        out_ += "<thead>\n";
        in_head = true;
      }
      if (!header && !in_body) {
        if (in_head) out_ += "</thead>\n";
        out_ += "<tbody>\n";
        in_body = true;
      }
      out_ += "<tr>";
      for (std::size_t i = 0; i < row.children.size(); ++i) {
        // An empty header cell (the corner of a two-way table) heads nothing: a `td`, so that no
        // reader announces an empty header (axe/Ace: empty-table-header).
        const char* tag = header && !blank_cell(row.children[i]) ? "th" : "td";
        out_ += "<";
        out_ += tag;
        doc::Align a = i < n.aligns().size() ? n.aligns()[i] : doc::Align::None;
        if (a == doc::Align::Left) out_ += " style=\"text-align: left\"";
        if (a == doc::Align::Center) out_ += " style=\"text-align: center\"";
        if (a == doc::Align::Right) out_ += " style=\"text-align: right\"";
        out_ += ">";
        in_header_cell_ = std::string_view(tag) == "th";
        inlines(row.children[i].children);
        in_header_cell_ = false;
        out_ += "</";
        out_ += tag;
        out_ += ">";
      }
      out_ += "</tr>\n";
    }
    if (in_body)
      out_ += "</tbody>\n";
    else if (in_head)
      out_ += "</thead>\n";
    out_ += "</table></div>\n";
  }

  static bool blank_cell(const Node& cell) {
    bool blank = true;
    doc::walk(cell, [&](const Node& x) {
      if (x.kind == Kind::Image || x.kind == Kind::InlineMath || x.kind == Kind::CalcNumber) blank = false;
    });
    if (!blank) return false;
    const std::string t = doc::plain_text(cell.children);
    return t.find_first_not_of(" \t\n\xC2\xA0") == std::string::npos;
  }

  // The label and number of a caption, e.g. "图 4-1" (set by the numbering filter as attr "label").
  void caption_label(const Node& n) {
    if (const std::string* label = n.attr("label")) {
      out_ += "<span class=\"caption-label\">";
      text(*label);
      out_ += "</span> ";
    }
  }

  // A GFM task list item's box, written as cmark-gfm writes it (a disabled checkbox).
  void task_box(const Node& item) {
    const std::string* task = item.attr("task");
    if (!task) return;
    out_ += *task == "done" ? "<input type=\"checkbox\" checked=\"\" disabled=\"\" /> "
                            : "<input type=\"checkbox\" disabled=\"\" /> ";
  }

  // A link's or an image's title (`[a](b "title")`, `![a](b.png "title")`) as a tooltip.
  void title_attr(const Node& n) {
    if (n.title().empty()) return;
    out_ += " title=\"";
    text(n.title());
    out_ += "\"";
  }

  void figure(const Node& n) {
    out_ += "<figure";
    id_attr(n);
    out_ += ">\n";
    const Node& img = n.children.front();
    out_ += "<img src=\"";
    text(image_src(img));
    out_ += "\" alt=\"";
    text(doc::plain_text(img.children));
    out_ += "\"";
    title_attr(img);
    out_ += " loading=\"lazy\"";
    out_ += opt_.xhtml ? " />" : ">";
    out_ += "\n";
    if (!n.caption().empty()) {
      out_ += "<figcaption>";
      caption_label(n);
      inlines(n.caption());
      out_ += "</figcaption>\n";
    }
    out_ += "</figure>\n";
  }

  // Where a Link or CrossRef leads: a resolved (chapter, target) or the URL as written.
  std::string href(const Node& n) const {
    const std::string* chapter = n.attr("chapter");
    const std::string* target = n.attr("target");
    if (chapter && target && opt_.xref) return opt_.xref(*chapter, *target);
    if (!n.url().empty() || !target) return n.url();
    return "#" + *target;
  }

  std::string image_src(const Node& img) const {
    const std::string* asset = img.attr("asset");
    return asset && opt_.asset ? opt_.asset(*asset) : img.url();
  }

  void math(const Node& n) {
    if (opt_.math) {
      out_ += opt_.math(n);
      return;
    }
    bool display = n.kind == Kind::DisplayMath;
    out_ += display ? "\\[" : "\\(";
    text(n.text);
    out_ += display ? "\\]" : "\\)";
  }

  void inlines(const std::vector<Node>& v) {
    for (const auto& n : v) inline_node(n);
  }

  void inline_node(const Node& n) {
    switch (n.kind) {
      case Kind::Text: text(n.text); break;
      case Kind::SoftBreak: out_ += "\n"; break;
      case Kind::LineBreak: out_ += void_tag("br") + "\n"; break;
      case Kind::Emph:
        out_ += "<em>";
        inlines(n.children);
        out_ += "</em>";
        break;
      case Kind::Strong:
        out_ += "<strong>";
        inlines(n.children);
        out_ += "</strong>";
        break;
      case Kind::Strike:
        out_ += "<del>";
        inlines(n.children);
        out_ += "</del>";
        break;
      case Kind::Subscript:
      case Kind::Superscript: {
        const char* tag = n.kind == Kind::Subscript ? "sub" : "sup";
        out_ += std::string("<") + tag + ">";
        inlines(n.children);
        out_ += std::string("</") + tag + ">";
        break;
      }
      case Kind::Code:
        out_ += "<code>";
        text(n.text);
        out_ += "</code>";
        break;
      case Kind::InlineMath:
        // A header cell names its column or row: a reader announces that name as flat text, and
        // browsers compute no name from MathML. So in a header the formula carries its source as its
        // name (role="math" with a label, as ARIA asks of math that is not read as MathML); axe and
        // Ace otherwise report a header cell holding only a formula as empty (empty-table-header).
        if (in_header_cell_) {
          out_ += "<span class=\"math inline\" role=\"math\" aria-label=\"";
          text(n.text);
          out_ += "\">";
          math(n);
          out_ += "</span>";
          break;
        }
        out_ += "<span class=\"math inline\">";
        math(n);
        out_ += "</span>";
        break;
      case Kind::DisplayMath:
        out_ += "<span class=\"math display\">";
        math(n);
        out_ += "</span>";
        break;
      case Kind::Link:
        out_ += "<a href=\"";
        text(href(n));
        out_ += "\"";
        title_attr(n);
        out_ += ">";
        inlines(n.children);
        out_ += "</a>";
        break;
      case Kind::Image:
        out_ += "<img src=\"";
        text(image_src(n));
        out_ += "\" alt=\"";
        text(doc::plain_text(n.children));
        out_ += "\"";
        title_attr(n);
        out_ += opt_.xhtml ? " />" : ">";
        break;
      case Kind::FootnoteRef: {
        auto it = numbers_.find(n.text);
        int num = it == numbers_.end() ? 0 : it->second;
        int occurrence = ++ref_count_[n.text];
        std::string key = sanitize_id(n.text);
        out_ += "<sup class=\"footnote-ref\"><a href=\"#fn-" + escape_xml(key) + "\" id=\"fnref-" +
                escape_xml(key) + (occurrence > 1 ? "-" + std::to_string(occurrence) : "") + "\"";
        if (opt_.xhtml) out_ += " epub:type=\"noteref\"";
        out_ += " role=\"doc-noteref\">" + std::to_string(num) + "</a></sup>";
        break;
      }
      case Kind::Anchor:
        out_ += "<a";
        id_attr(n);
        out_ += "></a>";
        break;
      case Kind::Span:
        out_ += "<span";
        id_attr(n);
        if (!n.classes().empty()) {
          out_ += " class=\"";
          for (std::size_t i = 0; i < n.classes().size(); ++i) {
            if (i) out_ += ' ';
            text(n.classes()[i]);
          }
          out_ += "\"";
        }
        out_ += ">";
        inlines(n.children);
        out_ += "</span>";
        break;
      case Kind::CrossRef:
      case Kind::CalcNumber:
        if (n.kind == Kind::CrossRef && n.attr("target") && !n.children.empty()) {
          out_ += "<a class=\"xref\" href=\"";
          text(href(n));
          out_ += "\">";
          inlines(n.children);
          out_ += "</a>";
        } else if (!n.children.empty()) {
          inlines(n.children);
        } else {
          // Unresolved (the filters replace these); show the source so that nothing silently vanishes.
          out_ += "<span class=\"unresolved\">";
          text(n.kind == Kind::CrossRef ? "@" + n.text : "{{" + n.text + "}}");
          out_ += "</span>";
        }
        break;
      case Kind::HtmlInline: break;  // raw HTML is not rendered (see docs/manuscripts.md)
      default: block(n);
    }
  }

  // A code block highlighted at build time (builder/highlight); plain text when its language is unknown.
  void code(const Node& n) {
    auto tokens = highlight::tokens(n.info(), n.text);
    if (!tokens) return text(n.text);
    for (const auto& t : *tokens) {
      const char* style = highlight::style_of(t.kind);
      if (style) out_ += std::string("<span class=\"hl-") + style + "\">";
      text(t.text);
      if (style) out_ += "</span>";
    }
  }

  void footnotes() {
    if (order_.empty()) return;
    out_ += "<section class=\"footnotes\"";
    if (opt_.xhtml) out_ += " epub:type=\"endnotes\"";
    out_ += " role=\"doc-endnotes\">\n" + void_tag("hr") + "\n<ol>\n";
    for (const auto& key : order_) {
      std::string id = escape_xml(sanitize_id(key));
      out_ += "<li id=\"fn-" + id + "\"";
      // No role on the item: DPUB-ARIA 1.1 deprecates doc-endnote (a list item inside doc-endnotes says
      // the same), and axe/Lighthouse report it. No epub:type either: `footnote` asks for the role
      // doc-footnote, which a list item may not take (Ace: epub-type-has-matching-role).
      out_ += ">";
      auto it = defs_.find(key);
      std::string backlinks;
      int count = ref_count_[key];
      for (int i = 1; i <= std::max(count, 1); ++i) {
        backlinks += " <a href=\"#fnref-" + id + (i > 1 ? "-" + std::to_string(i) : "") +
                     "\" class=\"footnote-back\" role=\"doc-backlink\">↩" +
                     (count > 1 ? std::to_string(i) : "") + "</a>";
      }
      if (it != defs_.end()) {
        const auto& blocks = it->second->children;
        for (std::size_t i = 0; i < blocks.size(); ++i) {
          if (i + 1 == blocks.size() && blocks[i].kind == Kind::Paragraph) {
            out_ += "<p>";
            inlines(blocks[i].children);
            out_ += backlinks + "</p>\n";
          } else {
            block(blocks[i]);
          }
        }
        if (blocks.empty() || blocks.back().kind != Kind::Paragraph) out_ += "<p>" + backlinks + "</p>";
      }
      out_ += "</li>\n";
    }
    out_ += "</ol>\n</section>\n";
  }

  const HtmlOptions& opt_;
  std::string out_;
  bool in_header_cell_ = false;  // writing a `th`: inline formulas carry their source as a name
  std::map<std::string, const Node*> defs_;
  std::map<std::string, int> numbers_;
  std::map<std::string, int> ref_count_;
  std::vector<std::string> order_;
};

}  // namespace

std::string render_html(const doc::Node& root, const HtmlOptions& options) {
  return HtmlWriter(options).run(root);
}

}  // namespace bb::writers
