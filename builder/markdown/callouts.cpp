// Callouts: a block quote led by bold text (`> **例 4-1：…**`), a GitHub alert (`> [!NOTE]`), a fenced
// div's kind (fenced_divs.cpp), and a paragraph led by a bold, numbered example or experiment.
#include <array>

#include "markdown/converter.hpp"
#include "text/unicode.hpp"

namespace bb::markdown {

using doc::Kind;
using doc::Node;

namespace {

// The callout kinds, by the word that opens their bold lead.
const char* callout_kind(std::string_view lead, const Vocabulary& w) {
  auto starts = [&](const std::vector<std::string>& words) {
    for (const auto& x : words)
      if (lead.starts_with(x)) return true;
    return false;
  };
  if (starts(w.experiment)) return "experiment";
  if (starts(w.example)) return "example";
  if (starts(w.think)) return "think";
  return "note";
}

// The kinds a callout may name (GitHub's five alerts, then the book's own), and the names other tools
// give them (Quarto's `callout-note`, reStructuredText's and MkDocs' admonitions).
constexpr std::array<std::string_view, 8> kNamedKinds = {"note",    "tip",     "important",  "warning",
                                                         "caution", "example", "experiment", "think"};
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kAliases = {{{"info", "note"},
                                                                                    {"hint", "tip"},
                                                                                    {"attention", "warning"},
                                                                                    {"danger", "caution"},
                                                                                    {"error", "caution"},
                                                                                    {"exercise", "think"}}};

// The callout kind a name gives (`NOTE`, `warning`, `callout-tip`, `hint`), or "" for none.
std::string named_kind(std::string_view name) {
  std::string n = text::lower(name);
  if (std::string_view(n).starts_with("callout-")) n.erase(0, 8);
  for (auto k : kNamedKinds)
    if (n == k) return n;
  for (auto [alias, kind] : kAliases)
    if (n == alias) return std::string(kind);
  return "";
}

std::string known_kinds() {
  std::string out;
  for (auto k : kNamedKinds) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

// The kinds that get a title in the edition's language when the author gives none (filters/
// callout_titles.cpp); the book's own kinds are led by the author's numbered lead.
bool titled_kind(std::string_view kind) {
  return kind == "note" || kind == "tip" || kind == "important" || kind == "warning" || kind == "caution";
}

Node title_paragraph(std::string title, const SourceLoc& at) {
  Node text(Kind::Text, at);
  text.text = std::move(title);
  Node strong(Kind::Strong, at);
  strong.children.push_back(std::move(text));
  Node p(Kind::Paragraph, at);
  p.children.push_back(std::move(strong));
  return p;
}

}  // namespace

// `> [!NOTE]` (GitHub; any case), optionally followed by a title on the same line (Obsidian's habit):
// the quote is a callout of that kind, the marker line is removed.
bool Converter::make_alert(Node& q) {
  if (q.children.empty() || q.children.front().kind != Kind::Paragraph) return false;
  auto& first = q.children.front().children;
  if (first.empty() || first.front().kind != Kind::Text || !first.front().text.starts_with("[!"))
    return false;
  const std::string& t = first.front().text;
  const std::size_t close = t.find(']');
  if (close == std::string::npos) return false;
  const std::string name = t.substr(2, close - 2);
  const std::string kind = named_kind(name);
  if (kind.empty()) {
    diags_.warning(first.front().loc, "`[!" + name + "]` is no alert kind bookbuild knows (" + known_kinds() +
                                          "): the quote prints as a quote, with the marker as text");
    return false;
  }
  const SourceLoc at = first.front().loc;
  std::string title(trim(std::string_view(t).substr(close + 1)));
  // The rest of the marker's line is the title; the next line starts the body.
  first.erase(first.begin());
  if (!first.empty() && (first.front().kind == Kind::SoftBreak || first.front().kind == Kind::LineBreak))
    first.erase(first.begin());
  if (first.empty()) q.children.erase(q.children.begin());
  q.kind = Kind::Callout;
  q.set_attr("kind", kind);
  if (!title.empty())
    q.children.insert(q.children.begin(), title_paragraph(std::move(title), at));
  else if (titled_kind(kind))
    q.set_attr("auto-title", "yes");
  return true;
}

// A fenced div's attributes: the first class that names a kind gives it; `title="…"` (Quarto) is its
// title; any other class and the id stay on the callout.
void Converter::make_div_callout(Node& div, const Attributes& attrs, const std::string& written) {
  std::string kind;
  Attributes rest;
  rest.id = attrs.id;
  for (const auto& c : attrs.classes) {
    if (kind.empty() && !(kind = named_kind(c)).empty()) continue;
    rest.classes.push_back(c);
  }
  std::string title;
  for (const auto& [k, v] : attrs.pairs)
    if (k == "title")
      title = v;
    else
      rest.pairs.emplace_back(k, v);
  if (kind.empty()) {
    diags_.warning(div.loc, "fenced div `" + written + "` names no callout kind bookbuild knows (" +
                                known_kinds() + "): it is shown as a note");
    kind = "note";
  }
  apply(div, rest);
  div.set_attr("kind", kind);
  if (!title.empty())
    div.children.insert(div.children.begin(), title_paragraph(std::move(title), div.loc));
  else if (titled_kind(kind))
    div.set_attr("auto-title", "yes");
  if (kind != "example" && kind != "experiment") return;
  // `::: {.example #ex:x}` led by `**例 4-1：…**` is numbered as the quoted example is.
  if (div.children.empty() || div.children.front().kind != Kind::Paragraph) return;
  const auto& lead = div.children.front().children;
  if (lead.empty() || lead.front().kind != Kind::Strong) return;
  auto& lead_attrs = div.children.front().extra().attrs;
  std::erase_if(lead_attrs, [](const auto& kv) { return kv.first == "kind" || kv.first == "hand-number"; });
  std::string_view unused;
  std::string number =
      split_hand_number(doc::plain_text(lead.front().children),
                        kind == "experiment" ? opt_.words.experiment : opt_.words.example, unused);
  if (!number.empty()) div.set_attr("hand-number", number);
}

// A blockquote whose first paragraph opens with bold text is a callout: `> **例 4-1：…**`.
void Converter::make_callout(Node& q) {
  if (make_alert(q)) return;
  if (q.children.empty() || q.children.front().kind != Kind::Paragraph) return;
  const auto& first = q.children.front().children;
  if (first.empty() || first.front().kind != Kind::Strong) return;
  std::string lead = doc::plain_text(first.front().children);
  q.kind = Kind::Callout;
  q.set_attr("kind", callout_kind(lead, opt_.words));
  apply_trailing_attributes(q, q.children.front().children);  // `> **例 4-1：…** {#ex:x}`
  // The lead paragraph was marked as an example on its own; the callout is the example now.
  auto& lead_attrs = q.children.front().extra().attrs;
  std::erase_if(lead_attrs, [](const auto& kv) { return kv.first == "kind" || kv.first == "hand-number"; });
  const auto& words =
      q.attr("kind") && *q.attr("kind") == "experiment" ? opt_.words.experiment : opt_.words.example;
  std::string_view rest;
  std::string number = split_hand_number(lead, words, rest);
  if (!number.empty()) q.set_attr("hand-number", number);
}

// A paragraph that opens with a bold, numbered example or experiment lead (`**例 5-1：…** text`)
// defines that example just as a callout does.
void Converter::mark_lead_paragraph(Node& p) {
  if (p.children.empty() || p.children.front().kind != Kind::Strong) return;
  std::string lead = doc::plain_text(p.children.front().children);
  std::string kind = callout_kind(lead, opt_.words);
  if (kind != "example" && kind != "experiment") return;
  std::string_view rest;
  std::string number =
      split_hand_number(lead, kind == "example" ? opt_.words.example : opt_.words.experiment, rest);
  if (number.empty()) return;
  p.set_attr("kind", kind);
  p.set_attr("hand-number", number);
}

}  // namespace bb::markdown
