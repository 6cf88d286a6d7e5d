// The LaTeX writer. Numbers are the book's own (Node::number, attr `label`, hand numbers), never
// LaTeX's counters: headings are starred with a manual TOC entry, captions print their label, and
// equations use \tag, so that print says "4.2.3" and "图 4-1" exactly where the site does.
// The macros used here (\bbchapter, \bbcaption, bbcallout, bbcode, ...) are defined in
// templates/latex/preamble.tex.
#include "writers/latex.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "writers/escape.hpp"

namespace bb::writers {

using doc::Kind;
using doc::Node;

std::string latex_key(std::string_view chapter, std::string_view id) {
  if (id.empty()) return latex_label(chapter);
  return latex_label(std::string(chapter) + ":" + sanitize_id(id));
}

namespace {

// Decodes the UTF-8 sequence at s[i] (advancing i past it); invalid bytes decode as themselves.
char32_t next_codepoint(std::string_view s, std::size_t& i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  std::size_t len = c < 0x80             ? 1
                    : (c & 0xE0) == 0xC0 ? 2
                    : (c & 0xF0) == 0xE0 ? 3
                    : (c & 0xF8) == 0xF0 ? 4
                                         : 1;
  if (i + len > s.size()) len = 1;
  char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += len;
  return cp;
}

bool is_cjk(char32_t cp) {
  return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
         (cp >= 0xFF00 && cp <= 0xFFEF) || (cp >= 0x20000 && cp <= 0x3FFFF);
}

}  // namespace

std::string latex_math(std::string_view tex) {
  std::string out;
  // Per open brace: whether its group is text (the argument of \text, \mbox, \textbf, ...), where
  // CJK is set by the text fonts. Outside text, a run of CJK is wrapped in \text{} because math
  // fonts have no CJK (MathJax renders such characters as text too).
  std::vector<bool> text_group;
  bool after_text_command = false;
  std::size_t i = 0;
  bool line_has_content = false;
  std::size_t line_start = 0;
  while (i < tex.size()) {
    char c = tex[i];
    if (c == '\n') {
      // A blank line inside math is a paragraph end: a TeX error.
      if (line_has_content)
        out += '\n';
      else
        out.resize(line_start);
      line_start = out.size();
      line_has_content = false;
      ++i;
      continue;
    }
    if (c != ' ' && c != '\t' && c != '\r') line_has_content = true;
    if (c == '\\' && i + 1 < tex.size()) {
      std::size_t j = i + 1;
      while (j < tex.size() && std::isalpha(static_cast<unsigned char>(tex[j]))) ++j;
      if (j == i + 1) j = i + 2;  // a control symbol: \$, \%, \{, \\ ...
      std::string_view name = tex.substr(i + 1, j - i - 1);
      out.append(tex.substr(i, j - i));
      after_text_command = name.starts_with("text") || name == "mbox" || name == "hbox";
      i = j;
      continue;
    }
    bool in_text = !text_group.empty() && text_group.back();
    if (c == '{') {
      text_group.push_back(in_text || after_text_command);
      after_text_command = false;
      out += c;
      ++i;
      continue;
    }
    if (c != ' ') after_text_command = false;
    if (c == '}') {
      if (!text_group.empty()) text_group.pop_back();
      out += c;
      ++i;
      continue;
    }
    if (c == '%' || c == '$') {
      // `%` would start a TeX comment and swallow the closing delimiter; a bare `$` would end the
      // math early. Neither can be meant as TeX inside a formula.
      out += '\\';
      out += c;
      ++i;
      continue;
    }
    std::size_t k = i;
    char32_t cp = next_codepoint(tex, k);
    if (!in_text && is_cjk(cp)) {
      std::size_t end = k;
      while (end < tex.size()) {
        std::size_t probe = end;
        if (!is_cjk(next_codepoint(tex, probe))) break;
        end = probe;
      }
      out += "\\text{";
      out.append(tex.substr(i, end - i));
      out += "}";
      i = end;
      continue;
    }
    out.append(tex.substr(i, k - i));
    i = k;
  }
  if (!line_has_content) out.resize(line_start);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

SourceLoc map_line(const std::vector<SourceMark>& marks, int line) {
  auto it = std::upper_bound(marks.begin(), marks.end(), line,
                             [](int l, const SourceMark& m) { return l < m.line; });
  if (it == marks.begin()) return {};
  return std::prev(it)->loc;
}

namespace {

// Display width of a cell's text in "Latin character" units (CJK and full-width count double),
// used to choose table column widths.
double display_width(std::string_view s) {
  double w = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      w += 1;
    } else if ((c & 0xE0) == 0xC0) {
      w += 1;
      i += 1;
    } else if ((c & 0xF0) == 0xE0) {
      w += 2;
      i += 2;
    } else {
      w += 2;
      i += 3;
    }
  }
  return w;
}

// The widest unbreakable run of a cell: a Latin word; CJK text breaks between any two characters.
double longest_word(std::string_view s) {
  double best = 0, run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == ' ') {
      run = 0;
    } else if (c < 0x80) {
      run += 1;
    } else {
      std::size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
      if (len == 2) {
        run += 1;  // Latin-1, Greek, Cyrillic: part of a word
      } else {
        run = 0;
        best = std::max(best, 2.0);
      }
      i += len - 1;
    }
    best = std::max(best, run);
  }
  return best;
}

// The text width in "Latin characters" (CJK characters count two): the 138 mm text block of
// templates/latex/preamble.tex holds about 64 such units at the body sizes of every language.
constexpr double kLineWidthChars = 64;

std::string fill_pattern(const std::string& pattern, const std::string& number) {
  std::string out = pattern;
  if (auto p = out.find("{}"); p != std::string::npos) out.replace(p, 2, number);
  return out;
}

// The amsmath environment a display formula is written as ("align", "gather*", ...), or "" when it
// is plain math for \[ \]. `aligned` and friends are not among them: they live inside math.
std::string display_environment(std::string_view tex) {
  auto p = tex.find_first_not_of(" \t\n");
  if (p == std::string_view::npos || !tex.substr(p).starts_with("\\begin{")) return "";
  std::string_view rest = tex.substr(p + 7);
  std::string_view name = rest.substr(0, rest.find('}'));
  std::string_view base = name.ends_with("*") ? name.substr(0, name.size() - 1) : name;
  for (const char* env : {"align", "gather", "multline", "flalign", "alignat", "equation"})
    if (base == env) return std::string(name);
  return "";
}

// A numbered environment typed in the manuscript is made unnumbered: LaTeX's equation counter is
// not the book's numbering.
std::string unnumbered(std::string tex, const std::string& env) {
  if (env.ends_with("*")) return tex;
  for (const std::string& cmd : {std::string("\\begin{"), std::string("\\end{")}) {
    std::string from = cmd + env + "}", to = cmd + env + "*}";
    for (auto at = tex.find(from); at != std::string::npos; at = tex.find(from, at + to.size()))
      tex.replace(at, from.size(), to);
  }
  return tex;
}

class LatexWriter {
 public:
  explicit LatexWriter(const LatexOptions& o) : opt_(o) {}

  LatexChapter run(const Node& root) {
    doc::walk(root, [&](const Node& n) {
      if (n.kind == Kind::FootnoteDef) defs_[n.text] = &n;
      if (n.kind == Kind::FootnoteRef && !numbers_.count(n.text))
        numbers_[n.text] = static_cast<int>(numbers_.size()) + 1;
    });
    blocks(root.children);
    mark_line();  // so that the scan below counts every line
    return {std::move(out_), std::move(marks_)};
  }

 private:
  // --- output and source map ---------------------------------------------------------------

  void mark(const SourceLoc& loc) {
    if (loc.line <= 0) return;
    int line = mark_line();
    if (!marks_.empty() && marks_.back().line == line) {
      marks_.back().loc = loc;  // the later node is the one whose text is on this line
      return;
    }
    marks_.push_back({line, loc});
  }

  // The 1-based number of the output line being written.
  int mark_line() {
    for (; scanned_ < out_.size(); ++scanned_)
      if (out_[scanned_] == '\n') ++line_;
    return line_;
  }

  void text(std::string_view s) { append_escaped_latex(out_, s); }

  void newline_if_needed() {
    if (!out_.empty() && out_.back() != '\n') out_ += '\n';
  }

  void label(const Node& n) {
    if (n.id.empty()) return;
    std::string key = latex_key(opt_.chapter, n.id);
    if (!labels_.insert(key).second) return;
    out_ += "\\label{" + key + "}";
  }

  // --- blocks ------------------------------------------------------------------------------

  void blocks(const std::vector<Node>& v) {
    for (const auto& b : v) block(b);
  }

  void block(const Node& n) {
    mark(n.loc);
    switch (n.kind) {
      case Kind::Heading: heading(n); break;
      case Kind::Paragraph:
        if (n.children.size() == 1 && n.children[0].kind == Kind::Image) {
          out_ += "\\begin{bbfigure}\n";
          graphic(n.children[0]);
          out_ += "\\end{bbfigure}\n\n";
          break;
        }
        inlines(n.children);
        out_ += "\n\n";
        break;
      case Kind::BlockQuote:
        out_ += "\\begin{quote}\n";
        blocks(n.children);
        newline_if_needed();
        out_ += "\\end{quote}\n\n";
        break;
      case Kind::Callout: callout(n); break;
      case Kind::BulletList:
      case Kind::OrderedList: list(n); break;
      case Kind::CodeBlock: code_block(n); break;
      case Kind::ThematicBreak: out_ += "\\bbrule\n\n"; break;
      case Kind::Table: table(n); break;
      case Kind::Figure: figure(n); break;
      case Kind::DisplayMath: display_math(n); break;
      case Kind::FootnoteDef:
      case Kind::HtmlBlock: break;  // footnotes are typeset where referenced; raw HTML is not rendered
      default: inline_node(n); out_ += "\n\n";
    }
  }

  // The number to print before a heading's text ("4.2", "第 4 章"), or "" when there is none or the
  // manuscript already typed it by hand ("## 4.1 …").
  std::string heading_prefix(const Node& n) {
    if (n.number.empty()) return "";
    std::string plain = doc::plain_text(n.children);
    std::string prefix = n.number;
    if (n.level == 1 && opt_.labels && !opt_.labels->chapter.empty())
      prefix = fill_pattern(opt_.labels->chapter, n.number);
    if (plain.starts_with(n.number) || plain.starts_with(prefix)) return "";
    return prefix + " ";
  }

  void heading(const Node& n) {
    static const char* commands[] = {"chapter",       "section",   "subsection",
                                     "subsubsection", "paragraph", "subparagraph"};
    int level = std::clamp(n.level, 1, 6);
    std::string prefix = escape_latex(heading_prefix(n));
    // The TOC entry and bookmark: no footnotes or anchors; the bookmark is plain text.
    std::string toc = prefix + render_inlines(n.children, true);
    std::string bookmark = prefix + escape_latex(doc::plain_text(n.children));
    begin_deferral();
    std::string shown = prefix + render_inlines(n.children, false);
    out_ += "\\bb" + std::string(commands[level - 1]) + "{\\texorpdfstring{" + toc + "}{" + bookmark + "}}{" +
            shown + "}";
    if (level == 1 && labels_.insert(latex_label(opt_.chapter)).second)
      out_ += "\\label{" + latex_label(opt_.chapter) + "}";
    label(n);
    out_ += "\n";
    end_deferral();
    out_ += "\n";
  }

  void callout(const Node& n) {
    const std::string* kind = n.attr("kind");
    out_ += "\\begin{bbcallout}{" + (kind ? *kind : std::string("note")) + "}";
    if (!n.id.empty()) out_ += "\\phantomsection";
    label(n);
    out_ += "\n";
    begin_deferral();
    blocks(n.children);
    newline_if_needed();
    out_ += "\\end{bbcallout}\n";
    end_deferral();
    out_ += "\n";
  }

  void list(const Node& n) {
    bool ol = n.kind == Kind::OrderedList;
    out_ += ol ? "\\begin{enumerate}" : "\\begin{itemize}";
    if (n.tight) out_ += "\\bbtight";
    if (ol && n.start != 1) {
      ++enum_depth_;
      static const char* counters[] = {"enumi", "enumii", "enumiii", "enumiv"};
      out_ += "\\setcounter{" + std::string(counters[std::clamp(enum_depth_, 1, 4) - 1]) + "}{" +
              std::to_string(n.start - 1) + "}";
      --enum_depth_;
    }
    out_ += "\n";
    if (ol) ++enum_depth_;
    for (const auto& item : n.children) {
      mark(item.loc);
      out_ += "\\item ";
      for (std::size_t i = 0; i < item.children.size(); ++i) {
        const Node& c = item.children[i];
        if (c.kind == Kind::Paragraph) {
          mark(c.loc);
          inlines(c.children);
          out_ += i + 1 < item.children.size() ? "\n\n" : "\n";
        } else {
          newline_if_needed();
          block(c);
        }
      }
      newline_if_needed();
    }
    if (ol) --enum_depth_;
    out_ += ol ? "\\end{enumerate}\n\n" : "\\end{itemize}\n\n";
  }

  void code_block(const Node& n) {
    std::string code = n.text;
    if (!code.empty() && code.back() == '\n') code.pop_back();
    if (argument_depth_ > 0) {
      // Verbatim cannot be used inside a command's argument (a footnote): typewriter lines instead.
      out_ += "\\par{\\ttfamily\\small ";
      std::size_t start = 0;
      while (start <= code.size()) {
        std::size_t end = code.find('\n', start);
        std::string line = code.substr(start, end == std::string::npos ? std::string::npos : end - start);
        out_ += "\\mbox{}";
        for (char c : line) {
          if (c == ' ')
            out_ += "\\ ";
          else
            append_escaped_latex(out_, std::string_view(&c, 1));
        }
        if (end == std::string::npos) break;
        out_ += "\\\\\n";
        start = end + 1;
      }
      out_ += "\\par}\n";
      return;
    }
    out_ += "\\begin{bbcode}\n";
    int line = n.loc.line + 1;  // the fence is on n.loc.line
    std::size_t start = 0;
    while (start < code.size() || start == 0) {
      std::size_t end = code.find('\n', start);
      std::string_view l =
          std::string_view(code).substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (n.loc.line > 0) mark({n.loc.path, line, 1});
      int column = 0;
      for (char c : l) {
        switch (c) {
          case '\\': out_ += "\\textbackslash{}"; break;
          case '{': out_ += "\\{"; break;
          case '}': out_ += "\\}"; break;
          case '\t': do { out_ += ' ';
            } while (++column % 4 != 0);
            continue;
          default: out_ += c;
        }
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++column;
      }
      out_ += '\n';
      ++line;
      if (end == std::string::npos) break;
      start = end + 1;
    }
    out_ += "\\end{bbcode}\n\n";
  }

  void display_math(const Node& n) {
    std::string tex = latex_math(n.text);
    if (std::string env = display_environment(tex); !env.empty()) {
      if (!n.id.empty()) out_ += "\\phantomsection";
      label(n);
      out_ += unnumbered(tex, env) + "\n\n";
      return;
    }
    if (n.number.empty()) {
      if (!n.id.empty()) out_ += "\\phantomsection";
      label(n);
      out_ += "\\[\n" + tex + "\n\\]\n\n";
      return;
    }
    out_ += "\\[\n" + tex + "\\tag{" + escape_latex(n.number) + "}";
    label(n);
    out_ += "\n\\]\n\n";
  }

  // The printed label of a numbered figure or table: attr `label` from the numbering filter, or the
  // hand number in the edition's words.
  std::string caption_label(const Node& n, const std::string* pattern) {
    if (const std::string* l = n.attr("label")) return *l;
    const std::string* hand = n.attr("hand-number");
    if (!n.number.empty() && pattern) return fill_pattern(*pattern, n.number);
    if (hand && pattern) return fill_pattern(*pattern, *hand);
    return "";
  }

  void caption(const Node& n, const std::string* pattern, const char* command = "\\bbcaption") {
    out_ += std::string(command) + "{" + escape_latex(caption_label(n, pattern)) + "}{";
    ++argument_depth_;
    inlines(n.caption);
    --argument_depth_;
    out_ += "}";
  }

  void figure(const Node& n) {
    begin_deferral();
    out_ += "\\begin{bbfigure}";
    if (!n.id.empty()) out_ += "\\phantomsection";
    label(n);
    out_ += "\n";
    for (const auto& c : n.children)
      if (c.kind == Kind::Image) graphic(c);
    if (!n.caption.empty() || !caption_label(n, nullptr).empty() || n.attr("hand-number")) {
      mark(n.caption.empty() ? n.loc : n.caption.front().loc);
      caption(n, opt_.labels ? &opt_.labels->figure : nullptr);
      out_ += "\n";
    }
    out_ += "\\end{bbfigure}\n";
    end_deferral();
    out_ += "\n";
  }

  void graphic(const Node& img) {
    std::string path = opt_.image ? opt_.image(img) : img.url;
    if (path.empty()) {
      out_ += "\\bbmissinggraphic{";
      text(img.url);
      out_ += "}\n";
      return;
    }
    out_ += "\\bbgraphic{" + path + "}\n";
  }

  void table(const Node& n) {
    std::size_t cols = 0;
    for (const auto& row : n.children) cols = std::max(cols, row.children.size());
    if (cols == 0) return;
    // Column widths: natural columns when the widest row fits the line; else paragraph columns, each
    // at least as wide as its longest unbreakable word, the rest of the line shared in proportion to
    // how much more each column would like.
    std::vector<double> natural(cols, 1), word(cols, 1);
    for (const auto& row : n.children)
      for (std::size_t i = 0; i < row.children.size(); ++i) {
        std::string t = doc::plain_text(row.children[i].children);
        natural[i] = std::max(natural[i], display_width(t));
        word[i] = std::max(word[i], longest_word(t));
      }
    const double line = kLineWidthChars;
    double total = 0, min_total = 0, extra_total = 0;
    for (std::size_t i = 0; i < cols; ++i) {
      total += natural[i] + 2;
      min_total += word[i] + 2;
      extra_total += natural[i] - word[i];
    }
    bool wrap = total > line;
    std::string spec = "@{}";
    for (std::size_t i = 0; i < cols; ++i) {
      doc::Align a = i < n.aligns.size() ? n.aligns[i] : doc::Align::None;
      if (!wrap) {
        spec += a == doc::Align::Right ? 'r' : a == doc::Align::Center ? 'c' : 'l';
        continue;
      }
      double width = word[i] + 2;
      if (min_total < line && extra_total > 0)
        width += (line - min_total) * (natural[i] - word[i]) / extra_total;
      double share = min_total < line ? width / line : (word[i] + 2) / min_total;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.3f", share);
      const char* align = a == doc::Align::Right    ? "\\raggedleft"
                          : a == doc::Align::Center ? "\\centering"
                                                    : "\\raggedright";
      spec += ">{" + std::string(align) + "\\arraybackslash}p{\\dimexpr" + buf +
              "\\linewidth-2\\tabcolsep\\relax}";
    }
    spec += "@{}";
    in_table_cell_ = wrap ? 2 : 1;

    if (!n.id.empty()) out_ += "\\phantomsection";
    label(n);
    out_ += "\\begin{longtable}[c]{" + spec + "}\n";
    if (!n.caption.empty() || n.attr("hand-number") || n.attr("label")) {
      mark(n.caption.empty() ? n.loc : n.caption.front().loc);
      begin_deferral();
      caption(n, opt_.labels ? &opt_.labels->table : nullptr, "\\bbtablecaption");
      out_ += "\\\\\n";
      end_deferral();
    }
    std::vector<const Node*> head, body;
    for (const auto& row : n.children)
      (row.has_class("header") && body.empty() ? head : body).push_back(&row);
    auto rows = [&](const std::vector<const Node*>& rs, bool header) {
      for (const Node* row : rs) {
        mark(row->loc);
        for (std::size_t i = 0; i < cols; ++i) {
          if (i) out_ += " & ";
          if (i < row->children.size()) {
            if (header) out_ += "\\bbth{";
            inlines(row->children[i].children);
            if (header) out_ += "}";
          }
        }
        out_ += " \\\\\n";
      }
    };
    out_ += "\\toprule\n";
    if (!head.empty()) {
      rows(head, true);
      out_ += "\\midrule\n\\endfirsthead\n\\toprule\n";
      rows(head, true);
      out_ += "\\midrule\n\\endhead\n";
    }
    out_ += "\\bottomrule\n\\endlastfoot\n";
    rows(body, false);
    out_ += "\\end{longtable}\n\n";
    in_table_cell_ = 0;
  }

  // --- footnotes -----------------------------------------------------------------------------
  // A footnote is typeset at its first reference with the number the HTML shows (its order of first
  // reference in the chapter); later references print that number. Inside boxes, captions and
  // headings, \footnote does not work, so the mark is printed there and the text after the block.

  void begin_deferral() { ++defer_depth_; }

  void end_deferral() {
    if (--defer_depth_ > 0) return;
    auto pending = std::move(deferred_);
    deferred_.clear();
    for (const auto& [number, def] : pending) {
      out_ += "\\footnotetext[" + std::to_string(number) + "]{";
      footnote_body(def);
      out_ += "}\n";
    }
  }

  void footnote_body(const Node* def) {
    if (!def) return;
    ++argument_depth_;
    for (std::size_t i = 0; i < def->children.size(); ++i) {
      const Node& b = def->children[i];
      if (b.kind == Kind::Paragraph) {
        mark(b.loc);
        inlines(b.children);
        if (i + 1 < def->children.size()) out_ += "\\par\n";
      } else {
        block(b);
      }
    }
    --argument_depth_;
  }

  void footnote_ref(const Node& n) {
    int number = numbers_.count(n.text) ? numbers_[n.text] : 0;
    std::string num = std::to_string(number);
    auto def = defs_.find(n.text);
    if (def == defs_.end() || typeset_.count(n.text) || (argument_depth_ > 0 && defer_depth_ == 0)) {
      out_ += "\\bbfootref{" + num + "}";
      return;
    }
    typeset_.insert(n.text);
    if (defer_depth_ > 0) {
      out_ += "\\footnotemark[" + num + "]";
      deferred_.emplace_back(number, def->second);
      return;
    }
    out_ += "\\footnote[" + num + "]{";
    footnote_body(def->second);
    out_ += "}";
  }

  // --- inlines -------------------------------------------------------------------------------

  std::string render_inlines(const std::vector<Node>& v, bool plain_only) {
    std::string saved = std::move(out_);
    std::size_t saved_scanned = scanned_;
    int saved_line = line_;
    auto saved_marks = marks_.size();
    out_.clear();
    scanned_ = 0;
    bool saved_plain = plain_only_;
    plain_only_ = plain_only;
    inlines(v);
    plain_only_ = saved_plain;
    std::string r = std::move(out_);
    out_ = std::move(saved);
    scanned_ = saved_scanned;
    line_ = saved_line;
    marks_.resize(saved_marks);
    // Titles are one line: soft breaks become spaces.
    std::replace(r.begin(), r.end(), '\n', ' ');
    return r;
  }

  void inlines(const std::vector<Node>& v) {
    for (const auto& n : v) inline_node(n);
  }

  void wrap(const char* command, const Node& n) {
    out_ += command;
    out_ += '{';
    inlines(n.children);
    out_ += '}';
  }

  void inline_node(const Node& n) {
    if (!plain_only_) mark(n.loc);
    switch (n.kind) {
      case Kind::Text: text(n.text); break;
      case Kind::SoftBreak: out_ += in_table_cell_ ? " " : "\n"; break;
      case Kind::LineBreak:
        if (in_table_cell_ == 1)
          out_ += " ";
        else if (in_table_cell_ == 2)
          out_ += "\\newline ";
        else
          out_ += "\\\\\n";
        break;
      case Kind::Emph: wrap("\\emph", n); break;
      case Kind::Strong: wrap("\\textbf", n); break;
      case Kind::Strike: wrap("\\bbstrike", n); break;
      case Kind::Code:
        out_ += "\\bbinlinecode{";
        text(n.text);
        out_ += "}";
        break;
      case Kind::InlineMath: out_ += "\\(" + latex_math(n.text) + "\\)"; break;
      case Kind::DisplayMath: out_ += "\\[" + latex_math(n.text) + "\\]"; break;
      case Kind::Link: link(n); break;
      case Kind::Image:
        if (plain_only_) break;
        out_ += "\\bbinlinegraphic{" + (opt_.image ? opt_.image(n) : n.url) + "}";
        break;
      case Kind::FootnoteRef:
        if (!plain_only_) footnote_ref(n);
        break;
      case Kind::Anchor:
        if (plain_only_ || n.id.empty()) break;
        out_ += "\\phantomsection";
        label(n);
        break;
      case Kind::Span:
        if (!plain_only_ && !n.id.empty()) {
          out_ += "\\phantomsection";
          label(n);
        }
        inlines(n.children);
        break;
      case Kind::CrossRef:
      case Kind::CalcNumber: {
        if (n.children.empty()) {
          // Unresolved (the filters replace these): show the source so that nothing silently vanishes.
          text(n.kind == Kind::CrossRef ? "@" + n.text : "{{" + n.text + "}}");
          break;
        }
        const std::string* chapter = n.attr("chapter");
        if (n.kind == Kind::CrossRef && chapter && !plain_only_) {
          const std::string* target = n.attr("target");
          out_ += "\\hyperref[" + latex_key(*chapter, target ? *target : "") + "]{";
          inlines(n.children);
          out_ += "}";
        } else {
          inlines(n.children);
        }
        break;
      }
      case Kind::HtmlInline: break;  // raw HTML is not rendered (see docs/manuscripts.md)
      default: break;
    }
  }

  void link(const Node& n) {
    if (plain_only_) {
      inlines(n.children);
      return;
    }
    LatexLink target;
    if (const std::string* chapter = n.attr("chapter")) {
      const std::string* t = n.attr("target");
      target.label = latex_key(*chapter, t ? *t : "");
    } else if (opt_.link) {
      target = opt_.link(n);
    } else {
      target.url = n.url;
    }
    if (!target.label.empty()) {
      out_ += "\\hyperref[" + target.label + "]{";
      inlines(n.children);
      out_ += "}";
    } else if (!target.url.empty()) {
      // An autolink shows the URL itself: \url lets it break across lines.
      if (doc::plain_text(n.children) == n.url) {
        out_ += "\\url{" + escape_latex_url(target.url) + "}";
        return;
      }
      out_ += "\\href{" + escape_latex_url(target.url) + "}{";
      inlines(n.children);
      out_ += "}";
    } else {
      inlines(n.children);
    }
  }

  const LatexOptions& opt_;
  std::string out_;
  std::size_t scanned_ = 0;
  int line_ = 1;
  std::vector<SourceMark> marks_;

  std::map<std::string, const Node*> defs_;
  std::map<std::string, int> numbers_;
  std::set<std::string> typeset_;
  std::vector<std::pair<int, const Node*>> deferred_;
  int defer_depth_ = 0;
  int argument_depth_ = 0;

  std::set<std::string> labels_;
  bool plain_only_ = false;
  int in_table_cell_ = 0;  // 1: natural-width columns (no line breaks), 2: paragraph columns
  int enum_depth_ = 0;
};

}  // namespace

LatexChapter render_latex(const doc::Node& root, const LatexOptions& options) {
  return LatexWriter(options).run(root);
}

}  // namespace bb::writers
