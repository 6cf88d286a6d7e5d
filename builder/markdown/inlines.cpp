// Inline conversion: cmark's text, code, emphasis, links, images, math and footnote references become
// document-tree inlines; text runs are then merged and split at placeholders and citations.
#include <cmark-gfm.h>

#include <cctype>
#include <set>

#include "markdown/converter.hpp"
#include "markdown/math_syntax.hpp"

namespace bb::markdown {

using doc::Kind;
using doc::Node;

void Converter::inlines(cmark_node* parent, std::vector<Node>& out) {
  for (cmark_node* c = cmark_node_first_child(parent); c; c = cmark_node_next(c))
    out.push_back(inline_node(c));
  finish(out);
}

Node Converter::inline_node(cmark_node* n) {
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
        a.rare().id = id;
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
      l.rare().url = cmark_node_get_url(n) ? cmark_node_get_url(n) : "";
      l.rare().title = cmark_node_get_title(n) ? cmark_node_get_title(n) : "";
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
void Converter::finish(std::vector<Node>& v) {
  merge_text(v);
  bracketed_spans(v);
  split_text(v);
}

void Converter::merge_text(std::vector<Node>& v) {
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
        out.back().rare().id = id;
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
  warn_unrendered_links(out);
  v = std::move(out);
}

// `<a …>` and `</a>` are let through inline_node unwarned, as they may form an anchor together; those
// left over are not rendered (the link's text stays, without its link), and the author is told once
// per opening tag, or per closing tag that no opening tag explains.
void Converter::warn_unrendered_links(const std::vector<Node>& v) {
  bool open_warned = false;
  for (const auto& n : v) {
    if (n.kind != Kind::HtmlInline) continue;
    if (n.text.starts_with("<a ") || n.text.starts_with("<a>") || n.text.starts_with("<a\t") ||
        n.text.starts_with("<a\n")) {
      diags_.warning(n.loc,
                     "raw HTML `" + n.text +
                         "` is not rendered (its text stays, unlinked); use a Markdown link `[text](url)`");
      open_warned = true;
    } else if (n.text == "</a>") {
      if (!open_warned) diags_.warning(n.loc, "raw HTML `</a>` is not rendered; use Markdown");
      open_warned = false;
    }
  }
}

Node Converter::text_node(std::string text, SourceLoc at, int offset) {
  Node t(Kind::Text, std::move(at));
  t.loc.col += offset;
  t.text = std::move(text);
  return t;
}

// Splits text nodes at `{{…}}` placeholders, `@fig:x` / `[@fig:x]` citations and undefined
// footnote markers `[^x]`.
void Converter::split_text(std::vector<Node>& v) {
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
    std::size_t key_end = std::string::npos;
    bool key_known = false;
    auto emit_text = [&](std::size_t upto) {
      if (upto > done) out.push_back(text_node(t.substr(done, upto - done), n.loc, static_cast<int>(done)));
    };
    while (i < t.size()) {
      // Only `{{`, `@`, `[@` and `[^` start something: skip the rest without comparing.
      while (i < t.size() && t[i] != '{' && t[i] != '@' && t[i] != '[') ++i;
      if (i == t.size()) break;
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
        bool word_before = i > 0 && (std::isalnum(static_cast<unsigned char>(t[i - 1])) || t[i - 1] == '_' ||
                                     t[i - 1] == '.' || t[i - 1] == '@' || t[i - 1] == '-');
        // The prefixes are at most three letters: looking further would make a long line quadratic.
        std::size_t near = std::string_view(t).substr(s, 4).find(':');
        std::size_t colon = near == std::string_view::npos ? std::string::npos : s + near;
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
            if (bracket) r.extra().classes.emplace_back("bracketed");
            out.push_back(std::move(r));
            i = done = e + (bracket ? 1 : 0);
            continue;
          }
        }
      }
      if (t.compare(i, 2, "[^") == 0) {
        // The key ends at the first `]`, space or tab; remembered, so that a run of `[^` stays linear.
        if (!key_known || (key_end != std::string::npos && key_end < i + 2)) {
          key_end = t.find_first_of("] \t", i + 2);
          key_known = true;
        }
        std::size_t end = key_end != std::string::npos && t[key_end] == ']' ? key_end : std::string::npos;
        if (end != std::string::npos && end > i + 2 && (end + 1 >= t.size() || t[end + 1] != ':')) {
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

SourceLoc Converter::at(const Node& n, std::size_t offset) const {
  SourceLoc l = n.loc;
  l.col += static_cast<int>(offset);
  return l;
}

}  // namespace bb::markdown
