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
  Finder(Diagnostics& diags, bool citations) : diags_(diags), citations_(citations) {}

  void blocks(const std::vector<Node>& v) {
    for (const auto& b : v) {
      if (b.kind == Kind::CodeBlock || b.kind == Kind::HtmlBlock || b.kind == Kind::DisplayMath) continue;
      if (b.kind == Kind::Paragraph) paragraph(b);
      if (const auto* x = b.rare_if()) inlines(x->caption);
      const bool inline_content =
          b.kind == Kind::TableCell || b.kind == Kind::Heading || b.kind == Kind::DefinitionTerm;
      if (inline_content) inlines(b.children);
      if (b.is_block() && b.kind != Kind::Paragraph && !inline_content) blocks(b.children);
    }
  }

 private:
  void warn(const SourceLoc& at, const std::string& message) { diags_.warning(at, message); }

  void paragraph(const Node& p) {
    // A definition list: a line that opens with `: ` right after a line of text (Pandoc, PHP Markdown).
    for (std::size_t i = 0; i < p.children.size(); ++i) {
      const Node& c = p.children[i];
      const bool line_start = i == 0 || p.children[i - 1].kind == Kind::SoftBreak;
      if (c.kind == Kind::Text && line_start && i > 0 &&
          (c.text.starts_with(": ") || c.text.starts_with(":\t")))
        warn(c.loc,
             "a definition list's term is one line (then `: definition` on the next): this paragraph of "
             "several lines prints as text; put the term on one line");
    }
    inlines(p.children);
  }

  void inlines(const std::vector<Node>& v) {
    for (const auto& n : v) {
      if (n.kind == Kind::Code || n.kind == Kind::InlineMath || n.kind == Kind::HtmlInline) continue;
      if (n.kind == Kind::Text) text(n);
      inlines(n.children);
    }
  }

  static SourceLoc shifted(SourceLoc at, std::size_t bytes) {
    at.col += static_cast<int>(bytes);
    return at;
  }

  void text(const Node& n) {
    if (citations_) return;
    const std::string& t = n.text;
    for (std::size_t at = t.find("[@"); at != std::string::npos; at = t.find("[@", at + 2)) {
      const std::size_t end = t.find(']', at);
      const std::string key = t.substr(at + 2, end == std::string::npos ? 0 : end - at - 2);
      if (end == std::string::npos || key.empty() || key.find(':') != std::string::npos) continue;
      warn(shifted(n.loc, at),
           "citation `" + t.substr(at, end - at + 1) +
               "` prints as text: the book has no bibliography (`[book] bibliography` in book.toml); "
               "give one, or write the reference out, or as a footnote");
    }
  }

  Diagnostics& diags_;
  bool citations_;
};

}  // namespace

void warn_unsupported_syntax(const doc::Node& root, Diagnostics& diags, bool citations) {
  Finder(diags, citations).blocks(root.children);
}

}  // namespace bb::markdown
