// Math in LaTeX: manuscript TeX made safe to pass through, and display formulas with the book's
// equation numbers.
#include "writers/latex/writer.hpp"

#include <cctype>
#include <optional>
#include <vector>

#include "math/mathml.hpp"
#include "text/unicode.hpp"
#include "writers/escape.hpp"

namespace bb::writers {

using doc::Kind;
using doc::Node;

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
    char32_t cp = text::next_code_point(tex, k);
    if (!in_text && text::is_cjk(cp)) {
      std::size_t end = k;
      while (end < tex.size()) {
        std::size_t probe = end;
        if (!text::is_cjk(text::next_code_point(tex, probe))) break;
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

namespace {

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

// The parts of a formula joined by \quad or \qquad at its top level (not inside braces, \left …
// \right or an environment), each without the space; one part when there is no such join.
std::vector<std::string> quad_parts(std::string_view tex) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (std::size_t i = 0; i < tex.size();) {
    const char c = tex[i];
    if (c == '\\' && i + 1 < tex.size()) {
      std::size_t j = i + 1;
      while (j < tex.size() && std::isalpha(static_cast<unsigned char>(tex[j]))) ++j;
      if (j == i + 1) j = i + 2;
      const std::string_view name = tex.substr(i + 1, j - i - 1);
      if (name == "left" || name == "begin") ++depth;
      if ((name == "right" || name == "end") && depth > 0) --depth;
      if (depth == 0 && (name == "quad" || name == "qquad")) {
        parts.emplace_back();
        i = j;
        continue;
      }
      parts.back().append(tex.substr(i, j - i));
      i = j;
      continue;
    }
    if (c == '{') ++depth;
    if (c == '}' && depth > 0) --depth;
    parts.back() += c;
    ++i;
  }
  std::vector<std::string> out;
  for (std::string& p : parts) {
    const auto first = p.find_first_not_of(" \t\n");
    if (first == std::string::npos) continue;
    out.push_back(p.substr(first, p.find_last_not_of(" \t\n") - first + 1));
  }
  return out;
}

// The body of a display as \bbfitmath (templates/latex/preamble.tex): as written when it fits the
// line; else its \quad-joined parts one under the other; else scaled down to the line.
std::string fitted_display(const std::string& tex) {
  std::string broken;
  const std::vector<std::string> parts = quad_parts(tex);
  if (parts.size() > 1) {
    for (std::size_t i = 0; i < parts.size(); ++i) broken += (i ? "\\\\\n" : "") + parts[i];
  }
  return "\\bbfitmath{" + tex + "}{" + broken + "}";
}

}  // namespace

void LatexWriter::display_math(const Node& n) {
  if (std::string env = display_environment(n.text); !env.empty()) {
    if (!n.id().empty()) out_ += "\\phantomsection";
    label(n);
    out_ += unnumbered(latex_math(n.text), env) + "\n\n";
    return;
  }
  // The number printed is the book's (n.number, from the filters), else the manuscript's own \tag;
  // the manuscript's \tag is removed either way, so that there is exactly one.
  const std::optional<math::EquationTag> tag = math::equation_tag(n.text);
  const std::string tex = latex_math(tag ? math::without_tag(n.text, *tag) : n.text);
  const std::string number = !n.number().empty() ? n.number() : tag ? tag->text : std::string();
  if (!n.id().empty()) out_ += "\\phantomsection";
  if (number.empty()) {
    label(n);
    out_ += "\\[\n" + fitted_display(tex) + "\n\\]\n\n";
    return;
  }
  const bool starred = tag && tag->starred && number == tag->text;
  out_ += "\\begin{equation*}\n" + fitted_display(tex) + "\n\\tag" + (starred ? "*" : "") + "{" +
          escape_latex(number) + "}";
  label(n);
  out_ += "\n\\end{equation*}\n\n";
}

}  // namespace bb::writers
