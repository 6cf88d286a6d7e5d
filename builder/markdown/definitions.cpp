// Pandoc's definition lists: a term on one line, then one or more definitions, each a line that opens
// with `:` or `~` and a space (`:   A definition`), directly below (tight) or after a blank line
// (loose). cmark-gfm reads them as paragraphs; this turns such runs into DefinitionList blocks.
#include "markdown/converter.hpp"

namespace bb::markdown {

using doc::Kind;
using doc::Node;

namespace {

bool line_break(const Node& n) {
  return n.kind == Kind::SoftBreak || n.kind == Kind::LineBreak;
}

// The length of a definition marker at the start of `t` (`:` or `~`, then spaces or a tab), or 0.
std::size_t marker(std::string_view t) {
  if (t.size() < 2 || (t[0] != ':' && t[0] != '~') || (t[1] != ' ' && t[1] != '\t')) return 0;
  const std::size_t text = t.find_first_not_of(" \t", 1);
  return text == std::string_view::npos ? t.size() : text;
}

bool opens_definition(const std::vector<Node>& inl, std::size_t i) {
  return i < inl.size() && inl[i].kind == Kind::Text && (i == 0 || line_break(inl[i - 1])) &&
         marker(inl[i].text) > 0;
}

// The index where the paragraph's second line starts, or its size if it has one line.
std::size_t second_line(const std::vector<Node>& inl) {
  for (std::size_t i = 0; i < inl.size(); ++i)
    if (line_break(inl[i])) return i + 1;
  return inl.size();
}

// One definition from inl[from, to): the marker removed, the line breaks at the ends dropped.
Node details(std::vector<Node>& inl, std::size_t from, std::size_t to, bool tight) {
  Node d(Kind::DefinitionDetails, inl[from].loc);
  Node p(Kind::Paragraph, inl[from].loc);
  const std::size_t cut = marker(inl[from].text);
  inl[from].text.erase(0, cut);
  inl[from].loc.col += static_cast<int>(cut);
  p.loc = inl[from].loc;
  for (std::size_t k = from; k < to; ++k)
    if (!(inl[k].kind == Kind::Text && inl[k].text.empty())) p.children.push_back(std::move(inl[k]));
  while (!p.children.empty() && line_break(p.children.back())) p.children.pop_back();
  d.rare().tight = tight;
  d.children.push_back(std::move(p));
  return d;
}

// Each definition in a paragraph of definition lines (`: a` / `: b`, lazy lines continuing one).
void add_definitions(Node& list, std::vector<Node>& inl, std::size_t from, bool tight) {
  while (from < inl.size()) {
    std::size_t to = from + 1;
    while (to < inl.size() && !opens_definition(inl, to)) ++to;
    list.children.push_back(details(inl, from, to, tight));
    from = to;
  }
}

Node term(std::vector<Node> inl, const SourceLoc& at) {
  Node t(Kind::DefinitionTerm, at);
  while (!inl.empty() && line_break(inl.back())) inl.pop_back();
  t.children = std::move(inl);
  return t;
}

}  // namespace

void Converter::definition_lists(std::vector<Node>& v) {
  std::vector<Node> out;
  auto is_para = [&](std::size_t i) { return i < v.size() && v[i].kind == Kind::Paragraph; };
  for (std::size_t i = 0; i < v.size(); ++i) {
    Node* list = !out.empty() && out.back().kind == Kind::DefinitionList ? &out.back() : nullptr;
    const bool one_line = is_para(i) && second_line(v[i].children) == v[i].children.size();
    auto& inl = v[i].children;
    if (is_para(i) && !opens_definition(inl, 0) && opens_definition(inl, second_line(inl))) {
      // `Term` / `: definition` in one paragraph: a tight item.
      const std::size_t split = second_line(inl);
      if (!list || list->tight() == false) {
        out.emplace_back(Kind::DefinitionList, v[i].loc);
        list = &out.back();
      }
      list->children.push_back(term({std::make_move_iterator(inl.begin()),
                                     std::make_move_iterator(inl.begin() + static_cast<long>(split))},
                                    v[i].loc));
      add_definitions(*list, inl, split, true);
    } else if (one_line && !opens_definition(inl, 0) && is_para(i + 1) &&
               opens_definition(v[i + 1].children, 0)) {
      // `Term`, a blank line, `: definition` (and more): a loose item.
      if (!list || list->tight()) {
        out.emplace_back(Kind::DefinitionList, v[i].loc);
        out.back().rare().tight = false;
        list = &out.back();
      }
      list->children.push_back(term(std::move(inl), v[i].loc));
      while (is_para(i + 1) && opens_definition(v[i + 1].children, 0))
        add_definitions(*list, v[++i].children, 0, false);
    } else {
      out.push_back(std::move(v[i]));
    }
  }
  v = std::move(out);
}

}  // namespace bb::markdown
