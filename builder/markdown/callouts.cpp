// Callouts: a block quote led by bold text (`> **例 4-1：…**`) and a paragraph led by a bold, numbered
// example or experiment, classified by the vocabulary's lead words.
#include "markdown/converter.hpp"

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

}  // namespace

// A blockquote whose first paragraph opens with bold text is a callout: `> **例 4-1：…**`.
void Converter::make_callout(Node& q) {
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
