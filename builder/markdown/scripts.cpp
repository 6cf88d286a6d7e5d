// Pandoc's subscripts and superscripts, `H~2~O` and `x^2^` (pandoc_inlines.hpp). cmark-gfm reads one
// tilde each side as strikethrough (GitHub's rule); the source tells one tilde from two.
#include <string>
#include <vector>

#include "markdown/pandoc_inlines.hpp"

namespace bb::markdown {

using doc::Kind;
using doc::Node;

namespace {

bool has_space(std::string_view s) {
  return s.find_first_of(" \t\n") != std::string_view::npos;
}

class Scripts {
 public:
  Scripts(std::string_view source, Diagnostics& diags) : source_(source), diags_(diags) {}

  void in(Node& n) {
    if (n.kind == Kind::Code || n.kind == Kind::CodeBlock || n.kind == Kind::InlineMath ||
        n.kind == Kind::DisplayMath || n.kind == Kind::HtmlBlock || n.kind == Kind::HtmlInline)
      return;
    if (n.kind == Kind::Strike) strike(n);
    if (auto* x = n.rare_if()) run(x->caption);
    run(n.children);
  }

 private:
  void run(std::vector<Node>& v) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i].kind == Kind::Text) superscript(v, i);
      in(v[i]);
    }
  }

  void strike(Node& n) {
    const std::size_t at = offset(n.loc);
    if (at >= source_.size() || source_[at] != '~' || (at + 1 < source_.size() && source_[at + 1] == '~'))
      return;
    const std::string inner = doc::plain_text(n.children);
    if (!has_space(inner)) {
      n.kind = Kind::Subscript;
      return;
    }
    diags_.warning(n.loc, "`~" + inner +
                              "~` (single tildes around text with a space) is strikethrough, as GitHub reads "
                              "it; Pandoc prints it as text: write `~~…~~` for strikethrough, or a "
                              "subscript without spaces (`H~2~O`)");
  }

  // The first `^x^` of v[i]'s text (x not empty, no space, no `[`: `^[` opens an inline note) becomes a
  // superscript between the text before and after it.
  static void superscript(std::vector<Node>& v, std::size_t i) {
    const std::string& t = v[i].text;
    for (std::size_t open = t.find('^'); open != std::string::npos; open = t.find('^', open + 1)) {
      const std::size_t close = t.find('^', open + 1);
      if (close == std::string::npos) return;
      const std::string_view inner = std::string_view(t).substr(open + 1, close - open - 1);
      if (inner.empty() || has_space(inner) || inner.front() == '[') continue;
      Node sup(Kind::Superscript, shifted(v[i].loc, open));
      sup.children.push_back(piece(v[i], open + 1, close));
      Node after = piece(v[i], close + 1, t.size());
      v[i].text.resize(open);
      v.insert(v.begin() + static_cast<long>(i) + 1, std::move(sup));
      if (!after.text.empty()) v.insert(v.begin() + static_cast<long>(i) + 2, std::move(after));
      return;  // the text after is the next node run() visits
    }
  }

  static SourceLoc shifted(SourceLoc at, std::size_t bytes) {
    at.col += static_cast<int>(bytes);
    return at;
  }

  static Node piece(const Node& t, std::size_t from, std::size_t to) {
    Node p(Kind::Text, shifted(t.loc, from));
    p.text = t.text.substr(from, to - from);
    return p;
  }

  // The byte offset of a place in the source (lines and columns are 1-based, columns in bytes).
  std::size_t offset(const SourceLoc& loc) {
    if (line_starts_.empty()) {
      line_starts_.push_back(0);
      for (std::size_t i = 0; i < source_.size(); ++i)
        if (source_[i] == '\n') line_starts_.push_back(i + 1);
    }
    if (loc.line < 1 || static_cast<std::size_t>(loc.line) > line_starts_.size() || loc.col < 1)
      return std::string_view::npos;
    return line_starts_[static_cast<std::size_t>(loc.line) - 1] + static_cast<std::size_t>(loc.col) - 1;
  }

  std::string_view source_;
  Diagnostics& diags_;
  std::vector<std::size_t> line_starts_;
};

}  // namespace

void pandoc_scripts(Node& doc, std::string_view source, Diagnostics& diags) {
  Scripts(source, diags).in(doc);
}

}  // namespace bb::markdown
