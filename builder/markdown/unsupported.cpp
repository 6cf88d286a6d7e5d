// Warnings for syntax bookbuild does not read (unsupported.hpp).
#include "markdown/unsupported.hpp"

#include <cctype>
#include <string>
#include <vector>

namespace bb::markdown {

using doc::Kind;
using doc::Node;

namespace {

class Finder {
 public:
  Finder(std::string_view source, Diagnostics& diags) : source_(source), diags_(diags) {}

  void blocks(const std::vector<Node>& v, bool quoted) {
    for (const auto& b : v) {
      if (b.kind == Kind::CodeBlock || b.kind == Kind::HtmlBlock || b.kind == Kind::DisplayMath) continue;
      if (b.kind == Kind::Paragraph) paragraph(b, quoted && &b == &v.front());
      if (const auto* x = b.rare_if()) inlines(x->caption);
      if (b.kind == Kind::TableCell || b.kind == Kind::Heading) inlines(b.children);
      if (b.is_block() && b.kind != Kind::Paragraph && b.kind != Kind::TableCell && b.kind != Kind::Heading)
        blocks(b.children, b.kind == Kind::BlockQuote || b.kind == Kind::Callout);
    }
  }

 private:
  void warn(const SourceLoc& at, const std::string& message) { diags_.warning(at, message); }

  static const Node* first_text(const Node& p) {
    return !p.children.empty() && p.children.front().kind == Kind::Text ? &p.children.front() : nullptr;
  }

  void paragraph(const Node& p, bool opens_quote) {
    const Node* first = first_text(p);
    if (first && opens_quote) {
      for (std::string_view alert : {"[!NOTE]", "[!TIP]", "[!IMPORTANT]", "[!WARNING]", "[!CAUTION]"})
        if (first->text.starts_with(alert))
          warn(first->loc, "GitHub alert `" + std::string(alert) +
                               "` is not supported and prints as text: write a callout, a quote that opens "
                               "with bold text (`> **Note:** …`)");
    }
    if (first && first->text.starts_with(":::"))
      warn(first->loc, "fenced div `" + first->text.substr(0, first->text.find('\n')) +
                           "` is not supported and prints as text: write a callout (`> **Warning:** …`)");
    // A definition list: a line that opens with `: ` right after a line of text (Pandoc, PHP Markdown).
    for (std::size_t i = 0; i < p.children.size(); ++i) {
      const Node& c = p.children[i];
      const bool line_start = i == 0 || p.children[i - 1].kind == Kind::SoftBreak;
      if (c.kind == Kind::Text && line_start && i > 0 &&
          (c.text.starts_with(": ") || c.text.starts_with(":\t")))
        warn(c.loc,
             "definition lists (a term, then `: definition` on the next line) are not supported and "
             "print as text: write a list (`- **term**: definition`)");
    }
    inlines(p.children);
  }

  void inlines(const std::vector<Node>& v) {
    for (const auto& n : v) {
      if (n.kind == Kind::Code || n.kind == Kind::InlineMath || n.kind == Kind::HtmlInline) continue;
      if (n.kind == Kind::Text) text(n);
      if (n.kind == Kind::Strike) strike(n);
      inlines(n.children);
    }
  }

  static SourceLoc shifted(SourceLoc at, std::size_t bytes) {
    at.col += static_cast<int>(bytes);
    return at;
  }

  void text(const Node& n) {
    const std::string& t = n.text;
    for (std::size_t at = t.find("[@"); at != std::string::npos; at = t.find("[@", at + 2)) {
      const std::size_t end = t.find(']', at);
      const std::string key = t.substr(at + 2, end == std::string::npos ? 0 : end - at - 2);
      if (end == std::string::npos || key.empty() || key.find(':') != std::string::npos) continue;
      warn(shifted(n.loc, at),
           "citation `" + t.substr(at, end - at + 1) +
               "` is not supported (bookbuild has no bibliography yet) and prints as text: "
               "write the reference out, or as a footnote");
    }
    for (std::size_t at = t.find("^["); at != std::string::npos; at = t.find("^[", at + 2))
      warn(shifted(n.loc, at),
           "inline note `^[…]` is not supported and prints as text: write a footnote (`[^name]` and "
           "`[^name]: …`)");
  }

  // `~x~`, one tilde: GitHub's strikethrough, which Pandoc reads as a subscript (`H~2~O`).
  void strike(const Node& n) {
    const std::size_t at = offset(n.loc);
    if (at >= source_.size() || source_[at] != '~' || (at + 1 < source_.size() && source_[at + 1] == '~'))
      return;
    warn(n.loc, "`~" + doc::plain_text(n.children) +
                    "~` with single tildes is strikethrough here, not a subscript: write `~~…~~` for "
                    "strikethrough, or a subscript as a character (H₂O) or in math ($\\mathrm{H_2O}$)");
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

void warn_unsupported_syntax(const doc::Node& root, std::string_view source, Diagnostics& diags) {
  Finder(source, diags).blocks(root.children, false);
}

}  // namespace bb::markdown
