// Figures and captions: an image alone in its paragraph is a figure; hand-numbered caption lines,
// italic or bold, above or below (`*图 4-1　…*`, `**表 2-1　…**`), alt-text captions and Pandoc
// `: caption` lines attach to figures and tables.
#include <cctype>
#include <optional>

#include "markdown/converter.hpp"

namespace bb::markdown {

using doc::Kind;
using doc::Node;

// An image alone in its paragraph (optionally followed by `{#fig:x}`) is a figure.
void Converter::make_figure(Node& p) {
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

// `*图 4-1　caption*`, `**表 2-1　caption**`, `***…***`: one italic or bold line opening with a
// figure/table word and a number. Authors use either; the reader sees a caption in both.
bool Converter::take_caption(Node& target, Node& para, const std::vector<std::string>& words) {
  if (para.kind != Kind::Paragraph) return false;
  const Node* emph = nullptr;
  for (const auto& c : para.children) {
    if (c.kind == Kind::Text && is_blank(c.text)) continue;
    if ((c.kind == Kind::Emph || c.kind == Kind::Strong) && !emph) {
      emph = &c;
      continue;
    }
    return false;
  }
  while (emph && emph->children.size() == 1 &&
         (emph->children.front().kind == Kind::Emph || emph->children.front().kind == Kind::Strong))
    emph = &emph->children.front();
  if (!emph || emph->children.empty() || emph->children.front().kind != Kind::Text) return false;
  std::string_view rest;
  std::string number = split_hand_number(emph->children.front().text, words, rest);
  if (number.empty()) return false;
  std::vector<Node> caption = emph->children;
  caption.front().text = std::string(rest);
  if (caption.front().text.empty()) caption.erase(caption.begin());
  target.rare().caption = std::move(caption);
  target.set_attr("hand-number", number);
  target.set_attr("caption-line", std::to_string(para.loc.line));
  return true;
}

// The English edition puts the caption in the alt text: `![Figure 4-1 …](…)`.
void Converter::caption_from_alt(Node& fig) {
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
  fig.rare().caption = std::move(caption);
}

// Pandoc's `: caption {#tbl:x}` / `Table: caption` paragraph next to a table, or a hand-numbered
// italic `*表 4-1 …*` line.
bool Converter::table_caption(Node& table, Node& para) {
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
  table.rare().caption = std::move(holder.children);
  return true;
}

namespace {

// Between a table title and its first table: at most this many paragraphs (notes, or sub-heading
// lines wholly in bold or italic), each at most this many characters. Further away, a bold line
// naming a table is prose, not a title.
constexpr std::size_t kTitleNotesMax = 3;
constexpr std::size_t kTitleNoteChars = 1000;

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// A title is one phrase: a full stop, question or exclamation mark before its end ("表 2-3 顯示總量。
// 其餘見下。", "Table 2-3 shows the totals. See below.") makes it sentences of prose.
bool several_sentences(std::string_view t) {
  while (!t.empty() && (t.back() == ' ' || t.back() == '.' || t.back() == '!' || t.back() == '?'))
    t.remove_suffix(1);
  for (std::string_view end : {"\u3002", "\uFF01", "\uFF1F", "\uFF0E"})
    while (t.ends_with(end)) t.remove_suffix(end.size());
  for (std::string_view stop : {"\u3002", "\uFF01", "\uFF1F", ". ", "! ", "? "})
    if (t.find(stop) != std::string_view::npos) return true;
  return false;
}

}  // namespace

// A table title standing apart from its table: `**表 2-1　…**`, then a short note and/or a
// sub-heading line, then one or more tables. A reader takes the bold line for the table's caption.
// Returns the title's index in `v`, or `v.size()` when the table at `table` has none.
std::size_t Converter::table_title(std::vector<Node>& v, std::size_t table) {
  for (std::size_t back = 1; back <= kTitleNotesMax + 1 && back <= table; ++back) {
    Node& p = v[table - back];
    if (p.kind != Kind::Paragraph || p.attr("kind") || p.has_class("anchors")) break;
    Node scratch(Kind::Table);
    if (take_caption(scratch, p, opt_.words.table))
      return back == 1 || several_sentences(doc::plain_text(scratch.caption())) ? v.size() : table - back;
    if (back > kTitleNotesMax || take_caption(scratch, p, opt_.words.figure)) break;
    if (code_points(doc::plain_text(p.children)) > kTitleNoteChars) break;
  }
  return v.size();
}

bool Converter::is_table_caption(Node& para) {
  Node scratch(Kind::Table);
  return take_caption(scratch, para, opt_.words.table);
}

// Whether the caption line at `line` (right below a table) titles the next table instead: that
// table follows it directly or over its notes, and the chapter puts captions above (or, before any
// caption was placed, that table has no caption line below it).
bool Converter::titles_next_table(std::vector<Node>& v, std::size_t line, std::optional<bool> above) {
  if (!is_table_caption(v[line]) || above == false) return false;
  std::size_t next = line + 1;
  while (next < v.size() && next <= line + 1 + kTitleNotesMax && v[next].kind == Kind::Paragraph) ++next;
  if (next >= v.size() || v[next].kind != Kind::Table) return false;
  if (next > line + 1 && table_title(v, next) != line) return false;
  return above == true || !(next + 1 < v.size() && is_table_caption(v[next + 1]));
}

// The title stays where the author put it (above the notes) and is marked as the table's number
// (kind "table"); numbering turns that into the table id on an anchor at the title, as for a
// bold-led example paragraph, so that every output has the same id and link.
void Converter::mark_table_title(Node& p) {
  Node scratch(Kind::Table);
  if (!take_caption(scratch, p, opt_.words.table)) return;
  p.set_attr("kind", "table");
  p.set_attr("hand-number", *scratch.attr("hand-number"));
  p.set_attr("title", doc::plain_text(scratch.caption()));
}

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
    // "2-A": a lettered item (a table set apart from the numbered ones), one capital letter.
    if (std::size_t sep = s.substr(i).starts_with("\u2013")              ? 3
                          : i < s.size() && (s[i] == '-' || s[i] == '.') ? 1
                                                                         : 0;
        sep && i + sep < s.size() && s[i + sep] >= 'A' && s[i + sep] <= 'Z' &&
        (i + sep + 1 >= s.size() || !std::isalnum(static_cast<unsigned char>(s[i + sep + 1])))) {
      i += sep + 1;
    }
    // "4-1", "9.1" or "9–1" (en dash): numbering makes them all "N-k".
    while (!std::isalpha(static_cast<unsigned char>(s[i - 1]))) {
      std::size_t sep = i < s.size() && (s[i] == '-' || s[i] == '.') ? 1
                        : s.substr(i).starts_with("\u2013")          ? 3
                                                                     : 0;
      if (!sep || i + sep >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i + sep]))) break;
      i += sep;
      digits();
    }
    std::string number(s.substr(0, i));
    if (number.find_first_not_of("0123456789") == std::string::npos) continue;  // "图 4" is no figure number
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

}  // namespace bb::markdown
