// Pandoc's fenced divs (`::: warning` … `:::`, `::: {.note #id title="…"}`) become callouts of the
// kinds the book knows; a div of another kind is a note with a warning at its fence, never text.
#include <optional>

#include "markdown/converter.hpp"

namespace bb::markdown {

using doc::Kind;
using doc::Node;

namespace {

// One fence line: `:::` alone closes, `::: name` or `::: {attrs}` (optionally followed by more
// colons, as Pandoc allows) opens.
struct Fence {
  bool opens = false;
  Attributes attrs;
  std::string written;  // the line as typed, for messages
  SourceLoc loc;
};

std::optional<Fence> fence_of(const Node& text) {
  std::string_view line = trim(text.text);
  if (!line.starts_with(":::")) return std::nullopt;
  const std::size_t colons = line.find_first_not_of(':');
  std::string_view rest = colons == std::string_view::npos ? std::string_view() : trim(line.substr(colons));
  while (!rest.empty() && rest.back() == ':') rest.remove_suffix(1);
  rest = trim(rest);
  Fence f{false, {}, std::string(line), text.loc};
  if (rest.empty()) return f;
  f.opens = true;
  if (rest.front() == '{' && rest.back() == '}') {
    auto attrs = parse_attributes(rest.substr(1, rest.size() - 2));
    if (!attrs) return std::nullopt;
    f.attrs = std::move(*attrs);
  } else if (rest.find_first_of(" \t{}") == std::string_view::npos) {
    f.attrs.classes.emplace_back(rest);  // `::: warning`: one word is the class
  } else {
    return std::nullopt;
  }
  return f;
}

bool line_break(const Node& n) {
  return n.kind == Kind::SoftBreak || n.kind == Kind::LineBreak;
}

// The paragraph split at its fence lines: the pieces in order, each a paragraph or a fence.
struct Piece {
  Node block;
  std::optional<Fence> fence;
};

void split_paragraph(Node& p, std::vector<Piece>& out) {
  Node cur(Kind::Paragraph, p.loc);
  auto flush = [&] {
    while (!cur.children.empty() && line_break(cur.children.back())) cur.children.pop_back();
    if (!cur.children.empty()) out.push_back({std::move(cur), std::nullopt});
    cur = Node(Kind::Paragraph);
  };
  auto& in = p.children;
  for (std::size_t i = 0; i < in.size();) {
    std::size_t end = i;
    while (end < in.size() && !line_break(in[end])) ++end;
    std::optional<Fence> fence;
    if (end == i + 1 && in[i].kind == Kind::Text) fence = fence_of(in[i]);
    if (fence) {
      flush();
      out.push_back({Node(Kind::Paragraph, in[i].loc), std::move(fence)});
    } else {
      if (cur.children.empty()) cur.loc = in[i].loc;
      for (std::size_t k = i; k < end && k < in.size(); ++k) cur.children.push_back(std::move(in[k]));
      if (end < in.size()) cur.children.push_back(std::move(in[end]));
    }
    i = end + 1;
  }
  flush();
}

bool has_fence_line(const Node& p) {
  for (std::size_t i = 0; i < p.children.size(); ++i) {
    bool line_start = i == 0 || line_break(p.children[i - 1]);
    bool line_end = i + 1 == p.children.size() || line_break(p.children[i + 1]);
    if (line_start && line_end && p.children[i].kind == Kind::Text && fence_of(p.children[i])) return true;
  }
  return false;
}

}  // namespace

// Fenced divs of one run of blocks, nested as their fences nest; then each div's content is grouped
// like any run of blocks (figures, captions, quotes as callouts).
void Converter::fenced_divs(std::vector<Node>& v) {
  bool any = false;
  for (const auto& b : v) any = any || (b.kind == Kind::Paragraph && has_fence_line(b));
  if (!any) return;
  std::vector<Piece> pieces;
  for (auto& b : v) {
    if (b.kind == Kind::Paragraph && has_fence_line(b))
      split_paragraph(b, pieces);
    else
      pieces.push_back({std::move(b), std::nullopt});
  }
  std::vector<Node> out;
  std::vector<std::pair<std::size_t, Fence>> open;  // where each open div's content starts
  auto close = [&] {
    auto [start, fence] = std::move(open.back());
    open.pop_back();
    Node div(Kind::Callout, fence.loc);
    div.children.assign(std::make_move_iterator(out.begin() + static_cast<long>(start)),
                        std::make_move_iterator(out.end()));
    out.erase(out.begin() + static_cast<long>(start), out.end());
    group(div.children);
    make_div_callout(div, fence.attrs, fence.written);
    out.push_back(std::move(div));
  };
  for (auto& piece : pieces) {
    if (!piece.fence) {
      out.push_back(std::move(piece.block));
    } else if (piece.fence->opens) {
      open.emplace_back(out.size(), std::move(*piece.fence));
    } else if (!open.empty()) {
      close();
    } else {
      diags_.warning(
          piece.fence->loc,
          "`" + piece.fence->written + "` closes no fenced div (no `::: kind` before it) and prints as text");
      Node p(Kind::Paragraph, piece.fence->loc);
      p.children.push_back(text_node(piece.fence->written, piece.fence->loc, 0));
      out.push_back(std::move(p));
    }
  }
  while (!open.empty()) {
    diags_.warning(open.back().second.loc, "fenced div `" + open.back().second.written +
                                               "` is never closed with `:::`: it ends where its "
                                               "enclosing block ends");
    close();
  }
  v = std::move(out);
}

}  // namespace bb::markdown
