// Pandoc's inline notes `^[…]` as footnotes (pandoc_inlines.hpp).
#include <set>
#include <string>
#include <vector>

#include "markdown/pandoc_inlines.hpp"

namespace bb::markdown {

using doc::Kind;
using doc::Node;

namespace {

SourceLoc shifted(SourceLoc at, std::size_t bytes) {
  at.col += static_cast<int>(bytes);
  return at;
}

class Notes {
 public:
  Notes(Node& doc, Diagnostics& diags) : diags_(diags) {
    doc::walk(doc, [&](const Node& n) {
      if (n.kind == Kind::FootnoteDef || n.kind == Kind::FootnoteRef) taken_.insert(n.text);
    });
  }

  // The notes of every inline run below `n`.
  void in(Node& n) {
    if (n.kind == Kind::Code || n.kind == Kind::CodeBlock || n.kind == Kind::InlineMath ||
        n.kind == Kind::DisplayMath || n.kind == Kind::HtmlBlock || n.kind == Kind::HtmlInline)
      return;
    if (auto* x = n.rare_if()) run(x->caption);
    run(n.children);
  }

  std::vector<Node> definitions;

 private:
  void run(std::vector<Node>& v) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i].kind == Kind::Text) note_at(v, i);
      in(v[i]);
    }
  }

  // The first `^[` of v[i]'s text, if any, with everything up to its matching `]` (brackets counted in
  // text only: a link's brackets are cmark's already), becomes a reference; the rest stays.
  void note_at(std::vector<Node>& v, std::size_t i) {
    const std::size_t open = v[i].text.find("^[");
    if (open == std::string::npos) return;
    int depth = 1;
    std::size_t j = i, close = std::string::npos;
    for (std::size_t from = open + 2; j < v.size() && close == std::string::npos; ++j, from = 0) {
      if (v[j].kind != Kind::Text) continue;
      for (std::size_t k = from; k < v[j].text.size(); ++k) {
        depth += v[j].text[k] == '[' ? 1 : v[j].text[k] == ']' ? -1 : 0;
        if (depth == 0) {
          close = k;
          break;
        }
      }
      if (close != std::string::npos) break;
    }
    if (close == std::string::npos) {
      diags_.warning(shifted(v[i].loc, open),
                     "inline note `^[` is never closed with `]` in its paragraph and prints as text");
      return;
    }
    Node body(Kind::Paragraph, shifted(v[i].loc, open + 2));
    auto text_piece = [](const Node& t, std::size_t from, std::size_t to) {
      Node piece(Kind::Text, shifted(t.loc, from));
      piece.text = t.text.substr(from, to - from);
      return piece;
    };
    if (j == i) {
      body.children.push_back(text_piece(v[i], open + 2, close));
    } else {
      body.children.push_back(text_piece(v[i], open + 2, v[i].text.size()));
      for (std::size_t k = i + 1; k < j; ++k) body.children.push_back(std::move(v[k]));
      body.children.push_back(text_piece(v[j], 0, close));
    }
    std::erase_if(body.children, [](const Node& c) { return c.kind == Kind::Text && c.text.empty(); });
    Node after = text_piece(v[j], close + 1, v[j].text.size());
    Node ref(Kind::FootnoteRef, shifted(v[i].loc, open));
    ref.text = fresh_key();
    v[i].text.resize(open);
    // v[i] keeps the text before the note; v[i+1..j] give way to the reference and the text after.
    const std::size_t gone_end = j == i ? i + 1 : j + 1;
    v.erase(v.begin() + static_cast<long>(i) + 1, v.begin() + static_cast<long>(gone_end));
    v.insert(v.begin() + static_cast<long>(i) + 1, std::move(ref));
    if (!after.text.empty()) v.insert(v.begin() + static_cast<long>(i) + 2, std::move(after));
    Node def(Kind::FootnoteDef, body.loc);
    def.text = v[i + 1].text;
    in(body);  // a note inside the note
    def.children.push_back(std::move(body));
    definitions.push_back(std::move(def));
  }

  std::string fresh_key() {
    std::string key;
    do key = "inline-" + std::to_string(++count_);
    while (!taken_.insert(key).second);
    return key;
  }

  Diagnostics& diags_;
  std::set<std::string> taken_;
  int count_ = 0;
};

}  // namespace

void inline_notes(Node& doc, Diagnostics& diags) {
  Notes notes(doc, diags);
  notes.in(doc);
  for (auto& d : notes.definitions) doc.children.push_back(std::move(d));
}

}  // namespace bb::markdown
