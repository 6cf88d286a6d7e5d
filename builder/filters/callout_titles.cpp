// Titles of untitled callouts, in the edition's language (callout_titles.hpp).
#include "filters/callout_titles.hpp"

#include "lang/language.hpp"

namespace bb::filters {

using doc::Kind;
using doc::Node;

void title_callouts(book::Chapter& ch, const book::Edition& edition) {
  const lang::Language& words = lang::language(edition.lang);
  doc::walk(ch.root, [&](Node& n) {
    if (n.kind != Kind::Callout || !n.attr("auto-title")) return;
    const std::string* kind = n.attr("kind");
    Node text(Kind::Text, n.loc);
    text.text = words.word("callout." + (kind ? *kind : std::string("note")));
    Node strong(Kind::Strong, n.loc);
    strong.children.push_back(std::move(text));
    Node lead(Kind::Paragraph, n.loc);
    lead.children.push_back(std::move(strong));
    // Inserting a child is safe here: walk() visits the children after the callout itself.
    n.children.insert(n.children.begin(), std::move(lead));
    std::erase_if(n.extra().attrs, [](const auto& kv) { return kv.first == "auto-title"; });
  });
}

}  // namespace bb::filters
