// Nesting limits on cmark's tree and on the document tree, checked without recursion.
#include "markdown/nesting.hpp"

#include <cmark-gfm.h>

#include <string>
#include <vector>

#include "markdown/converter.hpp"

namespace bb::markdown {

using doc::Kind;
using doc::Node;

namespace {

const std::string kBlockMessage = "block quotes and list items nested deeper than " +
                                  std::to_string(kMaxBlockNesting) + " levels; the deeper content is dropped";
const std::string kInlineMessage = "emphasis, links, images and spans nested deeper than " +
                                   std::to_string(kMaxInlineNesting) +
                                   " levels; the deeper content is dropped";

bool block_level(cmark_node* n) {
  switch (cmark_node_get_type(n)) {
    case CMARK_NODE_BLOCK_QUOTE:
    case CMARK_NODE_ITEM:
    case CMARK_NODE_FOOTNOTE_DEFINITION: return true;
    default: return false;
  }
}

bool inline_level(cmark_node* n) {
  switch (cmark_node_get_type(n)) {
    case CMARK_NODE_EMPH:
    case CMARK_NODE_STRONG:
    case CMARK_NODE_LINK:
    case CMARK_NODE_IMAGE: return true;
    default: return type_string(n) == "strikethrough";
  }
}

bool block_level(Kind k) {
  return k == Kind::BlockQuote || k == Kind::Callout || k == Kind::ListItem || k == Kind::FootnoteDef;
}

bool inline_level(Kind k) {
  return k == Kind::Emph || k == Kind::Strong || k == Kind::Strike || k == Kind::Link || k == Kind::Image ||
         k == Kind::Span;
}

}  // namespace

void bound_nesting(cmark_node* root, const std::filesystem::path& path, Diagnostics& diags) {
  std::vector<cmark_node*> too_deep;
  int blocks = 0;
  int inlines = 0;
  bool block_reported = false;
  bool inline_reported = false;
  cmark_iter* it = cmark_iter_new(root);
  for (cmark_event_type ev; (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE;) {
    cmark_node* n = cmark_iter_get_node(it);
    int step = ev == CMARK_EVENT_ENTER ? 1 : ev == CMARK_EVENT_EXIT ? -1 : 0;
    bool b = block_level(n);
    bool i = !b && inline_level(n);
    // Leaves are entered and never exited; only containers count, and they are exited.
    if (b) blocks += step;
    if (i) inlines += step;
    if (ev != CMARK_EVENT_ENTER) continue;
    bool deep_block = b && blocks == kMaxBlockNesting + 1;
    bool deep_inline = i && inlines == kMaxInlineNesting + 1;
    if (!deep_block && !deep_inline) continue;
    too_deep.push_back(n);
    // Skip the subtree (it goes as a whole); its exit event is skipped too.
    cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
    if (b) --blocks;
    if (i) --inlines;
    bool& reported = deep_block ? block_reported : inline_reported;
    if (!reported) {
      diags.error({path, cmark_node_get_start_line(n), cmark_node_get_start_column(n)},
                  deep_block ? kBlockMessage : kInlineMessage);
      reported = true;
    }
  }
  cmark_iter_free(it);
  // cmark frees a subtree without recursion.
  for (cmark_node* n : too_deep) cmark_node_free(n);
}

void bound_nesting(Node& root, Diagnostics& diags) {
  struct Frame {
    Node* node;
    int blocks;
    int inlines;
  };
  bool block_reported = false;
  bool inline_reported = false;
  std::vector<Frame> stack{{&root, 0, 0}};
  while (!stack.empty()) {
    Frame f = stack.back();
    stack.pop_back();
    int blocks = f.blocks + (block_level(f.node->kind) ? 1 : 0);
    int inlines = f.inlines + (inline_level(f.node->kind) ? 1 : 0);
    if (blocks > kMaxBlockNesting || inlines > kMaxInlineNesting) {
      bool& reported = blocks > kMaxBlockNesting ? block_reported : inline_reported;
      if (!reported) diags.error(f.node->loc, blocks > kMaxBlockNesting ? kBlockMessage : kInlineMessage);
      reported = true;
      // Released level by level: destroying a deep subtree at once would recurse.
      SourceLoc at = f.node->loc;
      std::vector<Node> doomed;
      doomed.push_back(std::move(*f.node));
      *f.node = Node(Kind::Text, std::move(at));
      while (!doomed.empty()) {
        Node last = std::move(doomed.back());
        doomed.pop_back();
        for (auto& c : last.children) doomed.push_back(std::move(c));
        if (auto* x = last.rare_if())
          for (auto& c : x->caption) doomed.push_back(std::move(c));
      }
      continue;
    }
    for (auto& c : f.node->children) stack.push_back({&c, blocks, inlines});
    if (auto* x = f.node->rare_if())
      for (auto& c : x->caption) stack.push_back({&c, blocks, inlines});
  }
}

}  // namespace bb::markdown
