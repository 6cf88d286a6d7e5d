// A cmark-gfm inline syntax extension for TeX math: `$…$` inline and `$$…$$` display, kept verbatim
// so that Markdown never eats `_`, `*` or `\` inside a formula.
#pragma once

#include <string>
#include <string_view>

struct cmark_syntax_extension;
struct cmark_node;

namespace bb::markdown {

// The extension (created once per process) and the node types it adds.
cmark_syntax_extension* math_extension();
// Forgets what the extension learnt about the last document's paragraphs; call before each parse.
void reset_math_scan();
bool is_inline_math(cmark_node* node);
bool is_display_math(cmark_node* node);

// The TeX and its source position, as stored on a math node by the extension.
struct MathPayload {
  int line = 0;
  int col = 0;
  std::string tex;
};
MathPayload math_payload(cmark_node* node);

// Block-level display math: rewrites `$$` lines that open and close a display block at the start of
// a line into a fenced block with the info string `bookbuild-math`, so that lines inside a formula
// that look like Markdown (`- x`, `+ y`, `1. z`) stay math. Line numbers are unchanged. A closing
// line may carry attributes: `$$ {#eq:x}`. Fenced code blocks are left alone.
struct FencedSource {
  std::string text;
  int unclosed_line = 0;  // line of a `$$` that is never closed, or 0
};
FencedSource fence_display_math(std::string_view source);
inline constexpr std::string_view kMathFenceInfo = "bookbuild-math";

}  // namespace bb::markdown
