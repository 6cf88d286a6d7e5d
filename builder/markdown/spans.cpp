// Bracketed spans: `[content]{attrs}` → Span and `[]{#id}` → Anchor, matched across a run of inlines
// from the brackets that cmark left as text.
#include "markdown/converter.hpp"

namespace bb::markdown {

using doc::Kind;
using doc::Node;

// `[content]{attrs}` → Span; `[]{#id}` → Anchor. Brackets that cmark left as text are matched
// within this run of inlines.
void Converter::bracketed_spans(std::vector<Node>& v) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].kind != Kind::Text) continue;
    std::size_t close = 0;
    while ((close = v[i].text.find("]{", close)) != std::string::npos) {
      std::size_t end = v[i].text.find('}', close + 2);
      if (end == std::string::npos) break;
      auto attrs = parse_attributes(std::string_view(v[i].text).substr(close + 2, end - close - 2));
      if (!attrs) {
        close += 2;
        continue;
      }
      // Find the matching `[` going back through this text and the previous ones.
      std::size_t oi = i, op = std::string::npos;
      int depth = 0;
      for (std::size_t k = i + 1; k-- > 0 && op == std::string::npos;) {
        if (v[k].kind != Kind::Text) continue;
        const std::string& t = v[k].text;
        std::size_t from = k == i ? close : t.size();
        for (std::size_t p = from; p-- > 0;) {
          if (t[p] == ']')
            ++depth;
          else if (t[p] == '[') {
            if (depth == 0) {
              oi = k;
              op = p;
              break;
            }
            --depth;
          }
        }
      }
      if (op == std::string::npos) {
        close += 2;
        continue;
      }
      SourceLoc tail_loc = v[i].loc;
      tail_loc.col += static_cast<int>(end + 1);
      Node span(Kind::Span, v[oi].loc);
      span.loc.col += static_cast<int>(op);
      apply(span, *attrs);
      std::string tail = v[i].text.substr(end + 1);
      if (oi == i) {
        std::string inner = v[i].text.substr(op + 1, close - op - 1);
        if (!inner.empty()) span.children.push_back(text_node(inner, v[i].loc, static_cast<int>(op + 1)));
        v[i].text.resize(op);
      } else {
        std::string first = v[oi].text.substr(op + 1);
        std::string last = v[i].text.substr(0, close);
        if (!first.empty()) span.children.push_back(text_node(first, v[oi].loc, static_cast<int>(op + 1)));
        for (std::size_t k = oi + 1; k < i; ++k) span.children.push_back(std::move(v[k]));
        if (!last.empty()) span.children.push_back(text_node(last, v[i].loc, 0));
        v[oi].text.resize(op);
        v.erase(v.begin() + static_cast<long>(oi) + 1, v.begin() + static_cast<long>(i) + 1);
      }
      if (span.children.empty() && attrs->classes.empty() && attrs->pairs.empty() && !attrs->id.empty()) {
        span.kind = Kind::Anchor;
      }
      finish(span.children);
      std::size_t at = oi + 1;
      v.insert(v.begin() + static_cast<long>(at), std::move(span));
      v.insert(v.begin() + static_cast<long>(at) + 1, text_node(tail, tail_loc, 0));
      merge_text(v);
      i = oi;  // rescan from the text before the span
      close = 0;
      if (i >= v.size() || v[i].kind != Kind::Text) break;
    }
  }
}

void Converter::apply(Node& n, const Attributes& a) {
  if (!a.id.empty()) n.rare().id = a.id;
  for (const auto& c : a.classes) n.extra().classes.push_back(c);
  for (const auto& [k, v] : a.pairs) n.set_attr(k, v);
}

// `## Title {#sec:x .unnumbered}`: strips the block from the last text and applies it.
void Converter::apply_trailing_attributes(Node& target, std::vector<Node>& inl) {
  if (inl.empty() || inl.back().kind != Kind::Text) return;
  auto t = trailing_attributes(inl.back().text);
  if (!t) return;
  apply(target, t->attrs);
  inl.back().text.resize(t->keep);
  if (inl.back().text.empty()) inl.pop_back();
}

}  // namespace bb::markdown
