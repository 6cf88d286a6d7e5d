// Citations and reference lists (citations.hpp).
#include "filters/citations.hpp"

#include <algorithm>
#include <functional>

#include "bib/citation.hpp"
#include "bib/style.hpp"
#include "lang/language.hpp"
#include "text/suggest.hpp"

namespace bb::filters {

using doc::Kind;
using doc::Node;

namespace {

bool skipped(const Node& n) {
  // Code, math and raw HTML are not prose; a citation inside a link would be a link inside a link.
  return n.kind == Kind::Code || n.kind == Kind::InlineMath || n.kind == Kind::HtmlInline ||
         n.kind == Kind::Link || n.kind == Kind::Image || n.kind == Kind::CodeBlock ||
         n.kind == Kind::HtmlBlock || n.kind == Kind::DisplayMath ||
         (n.kind == Kind::Span && n.has_class("citation"));
}

// Calls `f` on every vector of inlines of the tree that may hold prose, in document order.
void each_inline_run(Node& n, const std::function<void(std::vector<Node>&)>& f) {
  if (skipped(n)) return;
  if (auto* r = n.rare_if(); r && !r->caption.empty()) {
    f(r->caption);
    for (auto& c : r->caption) each_inline_run(c, f);
  }
  if (!n.is_block() || n.kind == Kind::Paragraph || n.kind == Kind::Heading || n.kind == Kind::TableCell ||
      n.kind == Kind::DefinitionTerm)
    f(n.children);
  for (auto& c : n.children) each_inline_run(c, f);
}

// The keys a chapter cites, in order (a key of the bibliography only; in-text `@x` counts only then).
std::vector<std::string> cited_keys(Node& root, const bib::Bibliography& bib) {
  std::vector<std::string> keys;
  each_inline_run(root, [&](std::vector<Node>& run) {
    for (const auto& n : run)
      if (n.kind == Kind::Text)
        for (const auto& found : bib::find_citations(n.text)) {
          const bool known = std::all_of(found.citation.items.begin(), found.citation.items.end(),
                                         [&](const bib::CiteItem& i) { return bib.find(i.key) != nullptr; });
          if (known)
            for (const auto& item : found.citation.items) keys.push_back(item.key);
        }
  });
  return keys;
}

// An id from a key: letters, digits, `-` and `_`; anything else `-`.
std::string id_of(const std::string& key) {
  std::string id = "ref-";
  for (char c : key) id += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ? c : '-';
  return id;
}

std::string unique(std::string id, std::set<std::string>& taken) {
  std::string out = id;
  for (int n = 2; taken.count(out); ++n) out = id + "-" + std::to_string(n);
  taken.insert(out);
  return out;
}

bib::Words words_of(const book::Edition& edition) {
  const lang::Language& l = lang::language(edition.lang);
  bib::Words w;
  w.and_ = l.word("cite.and");
  w.et_al = l.word("cite.et-al");
  w.page = l.word("cite.page");
  w.pages = l.word("cite.pages");
  w.no_date = l.word("cite.no-date");
  return w;
}

Node text_node(std::string s, const SourceLoc& at) {
  Node t(Kind::Text, at);
  t.text = std::move(s);
  return t;
}

}  // namespace

CitationPlan plan_citations(const book::Config& config, const book::EditionBook& eb, ChapterIds& ids,
                            std::set<std::string>& warned, Diagnostics& diags) {
  CitationPlan plan;
  const auto* bib = config.citations.bibliography.get();
  if (!bib) return plan;
  std::vector<std::string> order;  // every key, by first citation in the edition
  for (const auto& ch : eb.chapters) {
    std::vector<std::string> keys = cited_keys(const_cast<Node&>(ch.root), *bib);
    std::vector<std::string> own;
    if (!keys.empty()) plan.citing.insert(ch.key);
    for (const auto& k : keys) {
      if (!plan.numbers.count(k)) {
        plan.numbers[k] = static_cast<int>(plan.numbers.size()) + 1;
        order.push_back(k);
      }
      if (std::find(own.begin(), own.end(), k) == own.end()) own.push_back(k);
    }
    if (!config.citations.at_end && !own.empty()) {
      plan.lists[ch.key] = std::move(own);
      plan.list_of[ch.key] = ch.key;
    }
  }
  if (config.citations.at_end && !order.empty() && !eb.chapters.empty()) {
    const std::string& last = eb.chapters.back().key;
    plan.lists[last] = order;
    for (const auto& ch : eb.chapters) plan.list_of[ch.key] = last;
  }
  for (auto& [chapter, keys] : plan.lists) {
    if (config.citations.style == bib::Style::Numeric) {
      std::sort(keys.begin(), keys.end(),
                [&](const auto& a, const auto& b) { return plan.numbers[a] < plan.numbers[b]; });
    } else {
      std::stable_sort(keys.begin(), keys.end(), [&](const auto& a, const auto& b) {
        return bib::sort_key(*bib->find(a)) < bib::sort_key(*bib->find(b));
      });
    }
    std::set<std::string>& taken = ids[chapter];
    plan.heading_ids[chapter] = unique("references", taken);
    for (const auto& k : keys) plan.anchors[chapter][k] = unique(id_of(k), taken);
  }
  for (const auto& k : order) {
    const bib::Entry& e = *bib->find(k);
    if (e.field("title").empty() && warned.insert(k).second)
      diags.warning(e.loc, "entry `" + k + "` has no title: the reference list shows its key in its place");
  }
  return plan;
}

void resolve_citations(book::Chapter& ch, const book::Config& config, const book::Edition& edition,
                       const CitationPlan& plan, Diagnostics& diags) {
  const auto* bib = config.citations.bibliography.get();
  if (!bib) return;
  bib::Formatter format;
  format.style = config.citations.style;
  format.words = words_of(edition);
  format.bibliography = bib;
  format.number = [&](const std::string& key) {
    auto it = plan.numbers.find(key);
    return it == plan.numbers.end() ? 0 : it->second;
  };
  const auto list_at = plan.list_of.find(ch.key);
  format.link = [&](const std::string& key, std::vector<Node> shown) {
    Node link(Kind::Link, shown.empty() ? SourceLoc{} : shown.front().loc);
    link.children = std::move(shown);
    if (list_at != plan.list_of.end()) {
      const auto& anchors = plan.anchors.at(list_at->second);
      if (auto a = anchors.find(key); a != anchors.end()) {
        link.set_attr("dest", "chapter");
        link.set_attr("chapter", list_at->second);
        link.set_attr("target", a->second);
      }
    }
    return link;
  };
  const std::vector<std::string> keys = bib->keys();
  each_inline_run(ch.root, [&](std::vector<Node>& run) {
    std::vector<Node> out;
    out.reserve(run.size());
    for (auto& n : run) {
      if (n.kind != Kind::Text) {
        out.push_back(std::move(n));
        continue;
      }
      std::size_t done = 0;
      for (const auto& found : bib::find_citations(n.text)) {
        SourceLoc at = n.loc;
        at.col += static_cast<int>(found.offset);
        bool known = true;
        for (const auto& item : found.citation.items)
          if (!bib->find(item.key)) {
            known = false;
            // `@name` in a sentence may be anything (a handle, a decorator): only a bracketed key is meant.
            if (!found.citation.in_text)
              diags.error(at, "citation key `" + item.key + "` is not in the bibliography" +
                                  text::did_you_mean(item.key, keys) + "; it prints as typed");
          }
        if (!known) continue;
        if (found.offset > done) out.push_back(text_node(n.text.substr(done, found.offset - done), at));
        Node span(Kind::Span, at);
        span.extra().classes.emplace_back("citation");
        span.set_attr("cite", n.text.substr(found.offset, found.length));
        span.children = format.citation(found.citation, at);
        out.push_back(std::move(span));
        done = found.offset + found.length;
      }
      if (done == 0) {
        out.push_back(std::move(n));
      } else if (done < n.text.size()) {
        SourceLoc at = n.loc;
        at.col += static_cast<int>(done);
        out.push_back(text_node(n.text.substr(done), at));
      }
    }
    // Every node was moved into `out`, changed or not.
    run = std::move(out);
  });
  const auto list = plan.lists.find(ch.key);
  if (list == plan.lists.end()) return;
  const SourceLoc at{ch.root.loc.path, 0, 0};
  Node heading(Kind::Heading, at);
  heading.rare().level = 2;
  heading.rare().id = plan.heading_ids.at(ch.key);
  heading.extra().classes.emplace_back("references");
  heading.children.push_back(text_node(lang::language(edition.lang).word("cite.references"), at));
  ch.root.children.push_back(std::move(heading));
  const auto& anchors = plan.anchors.at(ch.key);
  for (const auto& key : list->second) {
    Node p(Kind::Paragraph, at);
    Node anchor(Kind::Anchor, at);
    anchor.rare().id = anchors.at(key);
    p.children.push_back(std::move(anchor));
    for (auto& x : format.entry(*bib->find(key), format.number(key), at)) p.children.push_back(std::move(x));
    ch.root.children.push_back(std::move(p));
  }
}

bool has_citations(const book::Chapter& ch, const book::Config& config) {
  const auto* bib = config.citations.bibliography.get();
  return bib && !cited_keys(const_cast<Node&>(ch.root), *bib).empty();
}

}  // namespace bb::filters
