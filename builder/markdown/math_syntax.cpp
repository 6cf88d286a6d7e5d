// TeX math in Markdown: the cmark-gfm inline extension and the display-block pre-pass.
// Delimiter rules follow Pandoc's tex_math_dollars: an opening `$` is followed by a non-space, a
// closing `$` is preceded by a non-space and not followed by a digit; `$$…$$` is display math.
#include "markdown/math_syntax.hpp"

#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <cctype>
#include <cstdint>
#include <cstring>

#include "markdown/parse_memory.hpp"

namespace bb::markdown {

namespace {

bool is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// A math node is a code span whose literal starts with a marker no Markdown code span can produce
// (a NUL-free control character), then "d" or "i", "line:col:" and the TeX. Extension-defined node
// types would be cleaner, but cmark-gfm 0.29 leaks such nodes when they occur in table cells (seen
// with LeakSanitizer); a core node type is freed like any other. Inline nodes made by extensions
// get no source position from cmark-gfm, hence the position in the payload.
constexpr char kMarker = '\x02';

cmark_node* make_math(cmark_parser* parser, bool display, int line, int col, const std::string& tex) {
  (void)parser;
  std::string payload = std::string(1, kMarker) + (display ? "d" : "i") + std::to_string(line) + ":" +
                        std::to_string(col) + ":" + tex;
  // The parse's own allocator, so that the node is counted and freed with the rest of the tree; no
  // jump out of it while this frame and the caller's hold strings.
  ParseMemory::NoJump no_jump;
  cmark_node* node = cmark_node_new_with_mem(CMARK_NODE_CODE, ParseMemory::current_mem());
  cmark_node_set_literal(node, payload.c_str());
  return node;
}

// cmark_chunk is opaque in the installed headers; read the paragraph text through the public API
// (peek_char is bounds-checked at the current offset).
class Cursor {
 public:
  explicit Cursor(cmark_inline_parser* p) : p_(p), start_(cmark_inline_parser_get_offset(p)) {}
  ~Cursor() {
    if (!moved_) cmark_inline_parser_set_offset(p_, start_);
  }
  unsigned char at(int i) {
    cmark_inline_parser_set_offset(p_, i);
    return cmark_inline_parser_is_eof(p_) ? 0 : cmark_inline_parser_peek_char(p_);
  }
  std::string slice(int from, int to) {
    std::string s;
    for (int i = from; i < to; ++i) s += static_cast<char>(at(i));
    return s;
  }
  void finish_at(int i) {
    cmark_inline_parser_set_offset(p_, i);
    moved_ = true;
  }
  int start() const { return start_; }

 private:
  cmark_inline_parser* p_;
  int start_;
  bool moved_ = false;
};

// Whether a `$` closes depends only on its neighbours, so once a scan from one `$` of a paragraph has
// reached the paragraph's end without a closer, no later `$` of that paragraph can find one: it is
// refused without a scan. Without this, a paragraph of `$a ` repeated costs a scan per `$` to its end
// (quadratic: 144 KB took half a minute). Reset for every document (reset_math_scan).
struct NoCloserAfter {
  const void* paragraph = nullptr;
  int from = 0;  // offset of the `$` whose scan found nothing
  bool covers(const void* p, int start) const {
    return paragraph != nullptr && p == paragraph && start > from;
  }
};
thread_local NoCloserAfter no_inline_closer, no_display_closer;

cmark_node* match(cmark_syntax_extension*, cmark_parser* parser, cmark_node* paragraph,
                  unsigned char character, cmark_inline_parser* inline_parser) {
  if (character != '$') return nullptr;
  const int line = cmark_inline_parser_get_line(inline_parser);
  const int col = cmark_inline_parser_get_column(inline_parser);
  Cursor cur(inline_parser);
  const int start = cur.start();

  if (cur.at(start + 1) == '$') {
    // Display: up to the next unescaped `$$`.
    if (no_display_closer.covers(paragraph, start)) return nullptr;
    for (int i = start + 2;; ++i) {
      unsigned char c = cur.at(i);
      if (c == 0) {
        no_display_closer = {paragraph, start};
        return nullptr;
      }
      if (c == '\\') {
        ++i;
        continue;
      }
      if (c == '$' && cur.at(i + 1) == '$') {
        if (i == start + 2) return nullptr;  // `$$$$` is not a formula
        std::string tex = cur.slice(start + 2, i);
        cur.finish_at(i + 2);
        return make_math(parser, true, line, col, tex);
      }
    }
  }
  unsigned char first = cur.at(start + 1);
  if (first == 0 || is_space(first)) return nullptr;
  if (no_inline_closer.covers(paragraph, start)) return nullptr;
  for (int i = start + 1;; ++i) {
    unsigned char c = cur.at(i);
    if (c == 0) {
      no_inline_closer = {paragraph, start};
      return nullptr;
    }
    if (c == '\\') {
      ++i;
      continue;
    }
    if (c == '\n' && cur.at(i + 1) == '\n') return nullptr;
    if (c != '$') continue;
    if (is_space(cur.at(i - 1))) continue;
    if (std::isdigit(cur.at(i + 1))) continue;
    std::string tex = cur.slice(start + 1, i);
    cur.finish_at(i + 1);
    return make_math(parser, false, line, col, tex);
  }
}

cmark_syntax_extension* create() {
  cmark_syntax_extension* ext = cmark_syntax_extension_new("bookbuild-math");
  cmark_syntax_extension_set_match_inline_func(ext, match);
  cmark_mem* mem = cmark_get_default_mem_allocator();
  cmark_llist* chars = nullptr;
  chars = cmark_llist_append(mem, chars, reinterpret_cast<void*>(static_cast<std::uintptr_t>('$')));
  cmark_syntax_extension_set_special_inline_chars(ext, chars);
  return ext;
}

}  // namespace

void reset_math_scan() {
  no_inline_closer = {};
  no_display_closer = {};
}

cmark_syntax_extension* math_extension() {
  static cmark_syntax_extension* ext = create();
  return ext;
}

namespace {
const char* math_literal(cmark_node* node) {
  if (cmark_node_get_type(node) != CMARK_NODE_CODE) return nullptr;
  const char* lit = cmark_node_get_literal(node);
  return lit && lit[0] == kMarker ? lit : nullptr;
}
}  // namespace

bool is_inline_math(cmark_node* node) {
  const char* lit = math_literal(node);
  return lit && lit[1] == 'i';
}

bool is_display_math(cmark_node* node) {
  const char* lit = math_literal(node);
  return lit && lit[1] == 'd';
}

MathPayload math_payload(cmark_node* node) {
  MathPayload out;
  const char* s = math_literal(node);
  if (!s) return out;
  std::string_view v(s + 2);
  auto c1 = v.find(':');
  auto c2 = v.find(':', c1 + 1);
  if (c1 == std::string_view::npos || c2 == std::string_view::npos) return out;
  out.line = std::atoi(std::string(v.substr(0, c1)).c_str());
  out.col = std::atoi(std::string(v.substr(c1 + 1, c2 - c1 - 1)).c_str());
  out.tex = std::string(v.substr(c2 + 1));
  return out;
}

FencedSource fence_display_math(std::string_view source) {
  FencedSource result;
  std::string& out = result.text;
  out.reserve(source.size() + 256);
  bool in_math = false;
  std::size_t open_info_end = 0;  // where the opening fence's info string ends in `out`
  std::string code_fence;         // the fence that opened the current code block, if any
  std::size_t pos = 0;
  int line_no = 0;
  while (pos < source.size()) {
    ++line_no;
    std::size_t eol = source.find('\n', pos);
    std::size_t next = eol == std::string_view::npos ? source.size() : eol + 1;
    std::string_view line = source.substr(pos, (eol == std::string_view::npos ? source.size() : eol) - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string_view nl = source.substr(pos + line.size(), next - pos - line.size());

    auto indent = line.find_first_not_of(' ');
    std::string_view body = indent == std::string_view::npos ? std::string_view{} : line.substr(indent);
    bool handled = false;
    if (!in_math) {
      // Track fenced code so that `$$` inside code is left alone.
      if (indent != std::string_view::npos && indent <= 3 &&
          (body.starts_with("```") || body.starts_with("~~~"))) {
        char fc = body[0];
        std::size_t n = body.find_first_not_of(fc);
        if (n == std::string_view::npos) n = body.size();
        if (code_fence.empty()) {
          code_fence.assign(n, fc);
        } else if (code_fence[0] == fc && n >= code_fence.size() &&
                   body.substr(n).find_first_not_of(" \t") == std::string_view::npos) {
          code_fence.clear();
        }
      } else if (code_fence.empty() && indent == 0 && line == "$$") {
        out += "~~~~~~~~ ";
        out += kMathFenceInfo;
        open_info_end = out.size();
        in_math = true;
        result.unclosed_line = line_no;
        handled = true;
      }
    } else if (indent == 0 && body.starts_with("$$")) {
      std::string_view rest = body.substr(2);
      auto r = rest.find_first_not_of(" \t");
      if (r == std::string_view::npos || rest[r] == '{') {
        // Closing line. Its attributes (`$$ {#eq:x}`) move to the opening fence's info string, which
        // keeps every line where it was.
        if (r != std::string_view::npos) out.insert(open_info_end, " " + std::string(rest.substr(r)));
        out += "~~~~~~~~";
        in_math = false;
        result.unclosed_line = 0;
        handled = true;
      }
    }
    if (!handled) out += line;
    out += nl;
    pos = next;
  }
  if (in_math) out += "\n~~~~~~~~\n";
  return result;
}

}  // namespace bb::markdown
