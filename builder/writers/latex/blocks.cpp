// Blocks in LaTeX: paragraphs, headings with the book's own numbers, callouts, lists, code,
// figures and captions.
#include "writers/latex/writer.hpp"

#include <algorithm>

#include "highlight/highlight.hpp"
#include "writers/escape.hpp"

namespace bb::writers {

using doc::Kind;
using doc::Node;

void LatexWriter::block(const Node& n) {
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
      // A paragraph the filters gave an id (an example led by a bold "例 1-1：") is a reference
      // target like any other: every id the tree has becomes a label.
      if (!n.id().empty()) {
        out_ += "\\phantomsection";
        label(n);
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
    case Kind::DefinitionList: definition_list(n); break;
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

std::string LatexWriter::heading_prefix(const Node& n) {
  if (n.number().empty()) return "";
  std::string plain = doc::plain_text(n.children);
  std::string prefix = n.number();
  if (n.level() == 1 && opt_.labels && !opt_.labels->chapter.empty())
    prefix = fill_pattern(opt_.labels->chapter, n.number());
  if (plain.starts_with(n.number()) || plain.starts_with(prefix)) return "";
  return prefix;
}

void LatexWriter::heading(const Node& n) {
  static const char* commands[] = {"chapter",       "section",   "subsection",
                                   "subsubsection", "paragraph", "subparagraph"};
  int level = std::clamp(n.level(), 1, 6);
  const std::string number = escape_latex(heading_prefix(n));
  // A control space after the label, as the site's space: xeCJK drops a plain space between two CJK
  // characters, which ran "第 3 章" into a Chinese title. (The bookmark is plain text: a space.)
  const std::string prefix = number.empty() ? "" : number + "\\ ";
  // The TOC entry and bookmark: no footnotes or anchors; the bookmark is plain text.
  std::string toc = prefix + render_inlines(n.children, true);
  std::string bookmark = (number.empty() ? "" : number + " ") + escape_latex(doc::plain_text(n.children));
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

void LatexWriter::callout(const Node& n) {
  const std::string* kind = n.attr("kind");
  out_ += "\\begin{bbcallout}{" + (kind ? *kind : std::string("note")) + "}";
  if (!n.id().empty()) out_ += "\\phantomsection";
  label(n);
  out_ += "\n";
  begin_deferral();
  blocks(n.children);
  newline_if_needed();
  out_ += "\\end{bbcallout}\n";
  end_deferral();
  out_ += "\n";
}

void LatexWriter::list(const Node& n) {
  bool ol = n.kind == Kind::OrderedList;
  out_ += ol ? "\\begin{enumerate}" : "\\begin{itemize}";
  if (n.tight()) out_ += "\\bbtight";
  if (ol && n.start() != 1) {
    ++enum_depth_;
    static const char* counters[] = {"enumi", "enumii", "enumiii", "enumiv"};
    out_ += "\\setcounter{" + std::string(counters[std::clamp(enum_depth_, 1, 4) - 1]) + "}{" +
            std::to_string(n.start() - 1) + "}";
    --enum_depth_;
  }
  out_ += "\n";
  if (ol) ++enum_depth_;
  for (const auto& item : n.children) {
    mark(item.loc);
    const std::string* task = item.attr("task");
    out_ += !task ? "\\item " : *task == "done" ? "\\item[$\\boxtimes$] " : "\\item[$\\square$] ";
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

// A definition list as LaTeX's description: the term in the item's optional argument (braced, so a
// `]` in it cannot end the argument; its footnotes come after the item), each definition after it.
void LatexWriter::definition_list(const Node& n) {
  out_ += "\\begin{description}";
  if (n.tight()) out_ += "\\bbtight";
  out_ += "\n";
  for (const auto& c : n.children) {
    mark(c.loc);
    if (c.kind == Kind::DefinitionTerm) {
      begin_deferral();
      out_ += "\\item[{" + render_inlines(c.children, false) + "}] ";
      end_deferral();
      continue;
    }
    for (std::size_t i = 0; i < c.children.size(); ++i) {
      if (c.children[i].kind == Kind::Paragraph) {
        inlines(c.children[i].children);
        out_ += "\n\n";
      } else {
        newline_if_needed();
        block(c.children[i]);
      }
    }
  }
  newline_if_needed();
  out_ += "\\end{description}\n\n";
}

void LatexWriter::code_block(const Node& n) {
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
  // The palette entry of every byte (builder/highlight, as on the site), or none: a token is drawn as
  // \bbhl{entry}{text}, closed at the end of each line so that every line stands alone.
  std::vector<const char*> style(code.size(), nullptr);
  if (auto tokens = highlight::tokens(n.info(), code)) {
    std::size_t at = 0;
    for (const auto& t : *tokens) {
      const char* entry = highlight::style_of(t.kind);
      for (std::size_t i = 0; i < t.text.size() && at < style.size(); ++i) style[at++] = entry;
    }
  }
  int line = n.loc.line + 1;  // the fence is on n.loc.line
  std::size_t start = 0;
  while (start < code.size() || start == 0) {
    std::size_t end = code.find('\n', start);
    std::string_view l =
        std::string_view(code).substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (n.loc.line > 0) mark({n.loc.path, line, 1});
    int column = 0;
    const char* open = nullptr;
    for (std::size_t i = 0; i < l.size(); ++i) {
      const char c = l[i];
      const char* entry = start + i < style.size() ? style[start + i] : nullptr;
      if (entry != open) {
        if (open) out_ += '}';
        if (entry) out_ += std::string("\\bbhl{") + entry + "}{";
        open = entry;
      }
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
    if (open) out_ += '}';
    out_ += '\n';
    ++line;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  out_ += "\\end{bbcode}\n\n";
}

std::string LatexWriter::caption_label(const Node& n, const std::string* pattern) {
  if (const std::string* l = n.attr("label")) return *l;
  const std::string* hand = n.attr("hand-number");
  if (!n.number().empty() && pattern) return fill_pattern(*pattern, n.number());
  if (hand && pattern) return fill_pattern(*pattern, *hand);
  return "";
}

void LatexWriter::caption(const Node& n, const std::string* pattern, const char* command) {
  out_ += std::string(command) + "{" + escape_latex(caption_label(n, pattern)) + "}{";
  ++argument_depth_;
  inlines(n.caption());
  --argument_depth_;
  out_ += "}";
}

void LatexWriter::figure(const Node& n) {
  begin_deferral();
  out_ += "\\begin{bbfigure}";
  if (!n.id().empty()) out_ += "\\phantomsection";
  label(n);
  out_ += "\n";
  for (const auto& c : n.children)
    if (c.kind == Kind::Image) graphic(c);
  if (!n.caption().empty() || !caption_label(n, nullptr).empty() || n.attr("hand-number")) {
    mark(n.caption().empty() ? n.loc : n.caption().front().loc);
    caption(n, opt_.labels ? &opt_.labels->figure : nullptr);
    out_ += "\n";
  }
  out_ += "\\end{bbfigure}\n";
  end_deferral();
  out_ += "\n";
}

void LatexWriter::graphic(const Node& img) {
  std::string path = opt_.image ? opt_.image(img) : img.url();
  if (path.empty()) {
    out_ += "\\bbmissinggraphic{";
    text(img.url());
    out_ += "}\n";
    return;
  }
  out_ += "\\bbgraphic{" + path + "}\n";
}

}  // namespace bb::writers
