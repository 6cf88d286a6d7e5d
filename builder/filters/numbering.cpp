// Numbering and stable ids. See docs/pipeline.md for the contract writers rely on.
#include "filters/numbering.hpp"

#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "doc/ids.hpp"
#include "filters/mkdocs_ids.hpp"

namespace bb::filters {

using doc::Kind;
using doc::Node;

std::string fill_label(const std::string& pattern, const std::string& number) {
  std::string out = pattern;
  auto at = out.find("{}");
  if (at == std::string::npos) return out + " " + number;
  out.replace(at, 2, number);
  return out;
}

std::string leading_section_number(std::string_view text, std::size_t& strip) {
  std::size_t i = 0;
  auto digits = [&] {
    std::size_t b = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i > b;
  };
  if (!digits()) return {};
  bool dotted = false;
  while (i + 1 < text.size() && text[i] == '.' && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
    ++i;
    digits();
    dotted = true;
  }
  if (!dotted || i >= text.size() || text[i] != ' ') return {};
  std::string number(text.substr(0, i));
  while (i < text.size() && text[i] == ' ') ++i;
  strip = i;
  return number;
}

namespace {

std::vector<int> parts(const std::string& number, char sep) {
  std::vector<int> out;
  std::size_t pos = 0;
  while (pos <= number.size()) {
    std::size_t next = number.find(sep, pos);
    if (next == std::string::npos) next = number.size();
    out.push_back(std::atoi(number.substr(pos, next - pos).c_str()));
    pos = next + 1;
  }
  return out;
}

std::string join(const std::vector<int>& p, char sep) {
  std::string out;
  for (std::size_t i = 0; i < p.size(); ++i) out += (i ? std::string(1, sep) : "") + std::to_string(p[i]);
  return out;
}

}  // namespace

std::string canonical_item_number(std::string_view written) {
  std::string out;
  for (std::size_t i = 0; i < written.size(); ++i) {
    if (written[i] == '.') {
      out += '-';
    } else if (written.compare(i, 3, "\u2013") == 0) {
      out += '-';
      i += 2;
    } else {
      out += written[i];
    }
  }
  return out;
}

namespace {

std::string id_from_number(const std::string& prefix, const std::string& number) {
  std::string id = prefix + "-";
  for (char c : number) id += (c == '.' || c == '-') ? '-' : c;
  return id;
}

// Reports a style rule's finding at the severity book.toml `[policy]` gives it.
void report(Diagnostics& diags, book::Policy policy, const SourceLoc& at, const std::string& message) {
  if (policy == book::Policy::Error)
    diags.error(at, message);
  else if (policy == book::Policy::Warning)
    diags.warning(at, message);
}

// A numbered sequence in one chapter (figures, tables, …): automatic numbers `N-k`, or hand numbers.
// Whatever punctuation the author used ("9.1", "9–1"), the number is "9-1" in every output, so ids,
// labels and references agree; only a repeated number is an error (two targets, one id).
class Sequence {
 public:
  Sequence(const char* what, int chapter, const NumberingPolicy& policy)
      : what_(what), chapter_(chapter), policy_(policy) {}

  std::string next(const std::string* written, const SourceLoc& loc, Diagnostics& diags) {
    ++count_;
    if (!written) return std::to_string(chapter_) + "-" + std::to_string(count_);
    std::string hand = canonical_item_number(*written);
    if (!hand.empty() && std::isupper(static_cast<unsigned char>(hand.back())))
      return lettered(hand, *written, loc, diags);
    auto p = parts(hand, '-');
    if (hand != *written || p.size() != 2)
      report(diags, policy_.punctuation, loc,
             std::string(what_) + " number `" + *written + "` is written unlike the book's `" +
                 std::to_string(chapter_) + "-" + std::to_string(count_) + "` (policy number-punctuation)");
    if (!seen_.insert({hand, loc.line}).second) {
      diags.error(loc, "duplicate " + std::string(what_) + " number " + hand + " (also at line " +
                           std::to_string(seen_[hand]) + "): both would get the id of one target");
    } else if (p.size() == 2 && p[0] != chapter_) {
      report(diags, policy_.order, loc,
             std::string(what_) + " " + *written + " is in chapter " + std::to_string(chapter_) +
                 "; its number should start with " + std::to_string(chapter_) + " (policy number-order)");
    } else if (p.size() == 2 && p[1] != last_ + 1) {
      report(diags, policy_.order, loc,
             std::string(what_) + " " + *written + " is out of order: expected " + std::to_string(chapter_) +
                 "-" + std::to_string(last_ + 1) + " (policy number-order)");
    }
    if (!p.empty()) last_ = p.back();
    return hand;
  }

 private:
  // "2-A", "2-B": items the author set apart from the numbered ones (a table of a side topic); they
  // follow each other by letter and leave the numbered sequence alone.
  std::string lettered(const std::string& hand, const std::string& written, const SourceLoc& loc,
                       Diagnostics& diags) {
    const char letter = hand.back();
    const std::string expected =
        std::to_string(chapter_) + "-" + std::string(1, static_cast<char>(last_letter_ + 1));
    if (hand != written)
      report(diags, policy_.punctuation, loc,
             std::string(what_) + " number `" + written + "` is written unlike the book's `" + expected +
                 "` (policy number-punctuation)");
    if (!seen_.insert({hand, loc.line}).second)
      diags.error(loc, "duplicate " + std::string(what_) + " number " + hand + " (also at line " +
                           std::to_string(seen_[hand]) + "): both would get the id of one target");
    else if (std::atoi(hand.c_str()) != chapter_)
      report(diags, policy_.order, loc,
             std::string(what_) + " " + written + " is in chapter " + std::to_string(chapter_) +
                 "; its number should start with " + std::to_string(chapter_) + " (policy number-order)");
    else if (hand != expected)
      report(diags, policy_.order, loc,
             std::string(what_) + " " + written + " is out of order: expected " + expected +
                 " (policy number-order)");
    last_letter_ = letter;
    return hand;
  }

  const char* what_;
  int chapter_;
  const NumberingPolicy& policy_;
  int count_ = 0;
  int last_ = 0;
  char last_letter_ = 'A' - 1;
  std::map<std::string, int> seen_;
};

// The number of a display formula's `\tag{6-1}` and the byte range of the whole command, so the
// formula can be set without it and numbered like a labelled one. `\tag*{…}` counts the same.
struct Tag {
  std::string text;
  std::size_t begin = 0, end = 0;
};

std::optional<Tag> find_tag(std::string_view tex) {
  for (std::size_t at = tex.find("\\tag"); at != std::string_view::npos; at = tex.find("\\tag", at + 1)) {
    std::size_t i = at + 4;
    if (i < tex.size() && std::isalpha(static_cast<unsigned char>(tex[i]))) continue;  // \tagged
    while (i < tex.size() && tex[i] == ' ') ++i;
    if (i < tex.size() && tex[i] == '*') ++i;
    while (i < tex.size() && tex[i] == ' ') ++i;
    if (i >= tex.size() || tex[i] != '{') continue;
    int depth = 0;
    for (std::size_t j = i; j < tex.size(); ++j) {
      if (tex[j] == '\\') {
        ++j;
      } else if (tex[j] == '{') {
        ++depth;
      } else if (tex[j] == '}' && --depth == 0) {
        std::string_view inner = tex.substr(i + 1, j - i - 1);
        while (!inner.empty() && inner.front() == ' ') inner.remove_prefix(1);
        while (!inner.empty() && inner.back() == ' ') inner.remove_suffix(1);
        return Tag{std::string(inner), at, j + 1};
      }
    }
    return std::nullopt;  // unbalanced: left to the formula check
  }
  return std::nullopt;
}

class Numberer {
 public:
  Numberer(const book::Edition& e, book::Chapter& c, TargetTable& t, Diagnostics& d, const NumberingPolicy& p)
      : e_(e),
        c_(c),
        table_(t),
        diags_(d),
        policy_(p),
        figures_("figure", c.number, p),
        tables_("table", c.number, p),
        equations_("equation", c.number, p),
        examples_("example", c.number, p),
        experiments_("experiment", c.number, p) {}

  void run() {
    // Hand-numbered sections: the real book writes `## 4.1 …`; then headings without a number are
    // unnumbered (`## 本章小结`) and nothing is numbered automatically.
    for (const auto& b : c_.root.children) {
      if (b.kind == Kind::Heading && (b.level() == 2 || b.level() == 3) && !b.children.empty() &&
          b.children.front().kind == Kind::Text) {
        std::size_t strip = 0;
        if (!leading_section_number(b.children.front().text, strip).empty()) hand_sections_ = true;
      }
    }
    blocks(c_.root.children);
  }

 private:
  void blocks(std::vector<Node>& v) {
    for (auto& b : v) {
      switch (b.kind) {
        case Kind::Heading: heading(b); break;
        case Kind::Figure: figure(b); break;
        case Kind::Table: table(b); break;
        case Kind::DisplayMath: equation(b); break;
        case Kind::Callout:
          callout(b);
          blocks(b.children);
          break;
        case Kind::Paragraph:
          if (const std::string* kind = b.attr("kind"); kind && *kind == "table")
            table_title(b);  // a table title above notes and sub-tables
          else if (kind)
            callout(b);  // a bold-lead example paragraph
          break;
        case Kind::BlockQuote:
        case Kind::ListItem:
        case Kind::BulletList:
        case Kind::OrderedList:
        case Kind::FootnoteDef: blocks(b.children); break;
        default: break;
      }
    }
  }

  // The explicit label a node carries (`{#fig:x}`), which becomes a label-table key; the element's
  // id becomes the stable, number-based one.
  static std::string take_label(Node& n) {
    std::string label;
    if (auto* x = n.rare_if()) label = std::exchange(x->id, {});
    return label;
  }

  void add(TargetKind kind, Node& n, const std::string& label, const std::string& title) {
    Target t{kind, e_.id, c_.key, n.id(), n.number(), title, n.loc, label};
    table_.add(t, label, diags_);
  }

  void heading(Node& h) {
    std::string label = take_label(h);
    if (h.level() == 1) {
      // The chapter heading. Hand-written "第 4 章 …" / "Chapter 4 …" is stripped so that every edition
      // shows the configured label.
      h.rare().id = c_.key;
      if (c_.number > 0) {
        h.rare().number = std::to_string(c_.number);
        strip_chapter_label(h);
        h.set_attr("label", fill_label(e_.labels.chapter, h.number()));
      }
      c_.title = (c_.number > 0 ? *h.attr("label") + " " : "") + doc::plain_text(h.children);
      add(TargetKind::Chapter, h, label, doc::plain_text(h.children));
      return;
    }
    ++headings_;
    std::string number;
    bool unnumbered = h.has_class("unnumbered") || c_.number == 0 || h.level() > 3;
    if (hand_sections_) {
      std::size_t strip = 0;
      if (!h.children.empty() && h.children.front().kind == Kind::Text)
        number = leading_section_number(h.children.front().text, strip);
      if (!number.empty()) {
        check_section_order(number, h.loc);
        h.children.front().text.erase(0, strip);
      }
    } else if (!unnumbered) {
      if (h.level() == 2) {
        ++s2_;
        s3_ = 0;
        number = std::to_string(c_.number) + "." + std::to_string(s2_);
      } else {
        ++s3_;
        number = std::to_string(c_.number) + "." + std::to_string(s2_) + "." + std::to_string(s3_);
      }
    }
    h.rare().number = number;
    if (!number.empty())
      h.rare().id = id_from_number("sec", number);
    else
      h.rare().id = label.empty() ? c_.key + "-h" + std::to_string(headings_) : doc::sanitize_id(label);
    add(TargetKind::Section, h, label, doc::plain_text(h.children));
  }

  void strip_chapter_label(Node& h) {
    if (h.children.empty() || h.children.front().kind != Kind::Text) return;
    std::string& t = h.children.front().text;
    for (const std::string& pattern :
         {e_.labels.chapter, std::string("第 {} 章"), std::string("Chapter {}")}) {
      std::string written = fill_label(pattern, std::to_string(c_.number));
      for (const std::string& form : {written, [&] {
                                        std::string tight = written;  // "第4章"
                                        std::erase(tight, ' ');
                                        return tight;
                                      }()}) {
        if (t.starts_with(form)) {
          std::size_t n = form.size();
          while (n < t.size() && (t[n] == ' ' || t[n] == ':' || t[n] == '.')) ++n;
          if (t.compare(n, 3, "\u3000") == 0 || t.compare(n, 3, "：") == 0) n += 3;
          t.erase(0, n);
          return;
        }
      }
    }
  }

  // Hand section numbers must belong to the chapter and follow each other: after 4.1.2 may come
  // 4.1.3, 4.2 or (at level 3 only after a level-2) 4.1.2.1 — never a gap, repeat or step back.
  void check_section_order(const std::string& number, const SourceLoc& loc) {
    auto p = parts(number, '.');
    if (p.front() != c_.number) {
      report(diags_, policy_.sections, loc,
             "section " + number + " is in chapter " + std::to_string(c_.number) +
                 "; its number should start with " + std::to_string(c_.number) + ". (policy section-order)");
      return;
    }
    if (!seen_sections_.insert(number).second) {
      diags_.error(loc, "duplicate section number " + number + ": both would get the id " +
                            id_from_number("sec", number));
      return;
    }
    std::vector<std::string> expected;
    if (last_section_.empty()) {
      expected.push_back(std::to_string(c_.number) + ".1");
    } else {
      for (std::size_t depth = 2; depth <= last_section_.size(); ++depth) {
        std::vector<int> q(last_section_.begin(), last_section_.begin() + static_cast<long>(depth));
        ++q.back();
        expected.push_back(join(q, '.'));
      }
      std::vector<int> child = last_section_;
      child.push_back(1);
      expected.push_back(join(child, '.'));
    }
    bool ok = false;
    for (const auto& x : expected) ok = ok || x == number;
    if (!ok) {
      std::string list;
      for (const auto& x : expected) list += (list.empty() ? "" : ", ") + x;
      report(diags_, policy_.sections, loc,
             "section " + number + " is out of order after " +
                 (last_section_.empty() ? std::string("the chapter start") : join(last_section_, '.')) +
                 " (expected " + list + "; policy section-order)");
    }
    last_section_ = p;
  }

  // Where a hand number is written: the italic caption line when there is one.
  static SourceLoc number_place(const Node& n) {
    SourceLoc at = n.loc;
    if (const std::string* line = n.attr("caption-line")) {
      at.line = std::atoi(line->c_str());
      at.col = 2;
    }
    return at;
  }

  void figure(Node& f) {
    std::string label = take_label(f);
    // The preface numbers only what its author numbered (`圖 0-1`); other figures there stay plain.
    if (c_.number == 0 && !f.attr("hand-number")) {
      if (!label.empty()) f.rare().id = doc::sanitize_id(label);
      add(TargetKind::Figure, f, label, doc::plain_text(f.caption()));
      return;
    }
    f.rare().number = figures_.next(f.attr("hand-number"), number_place(f), diags_);
    f.rare().id = id_from_number("fig", f.number());
    f.set_attr("label", fill_label(e_.labels.figure, f.number()));
    add(TargetKind::Figure, f, label, doc::plain_text(f.caption()));
  }

  void table(Node& t) {
    std::string label = take_label(t);
    bool numbered = t.attr("hand-number") || (c_.number > 0 && (!t.caption().empty() || !label.empty()));
    if (numbered) {
      t.rare().number = tables_.next(t.attr("hand-number"), number_place(t), diags_);
      t.rare().id = id_from_number("tbl", t.number());
      t.set_attr("label", fill_label(e_.labels.table, t.number()));
    } else if (!label.empty()) {
      t.rare().id = doc::sanitize_id(label);
    }
    add(TargetKind::Table, t, label, doc::plain_text(t.caption()));
  }

  // A title paragraph standing above a table's notes and sub-tables numbers them as one table; the
  // id goes on an anchor at the title, where the reader sees the number.
  void table_title(Node& p) {
    p.rare().number = tables_.next(p.attr("hand-number"), p.loc, diags_);
    p.rare().id = id_from_number("tbl", p.number());
    p.set_attr("label", fill_label(e_.labels.table, p.number()));
    add(TargetKind::Table, p, "", p.attr("title") ? *p.attr("title") : doc::plain_text(p.children));
    anchor_lead(p);
  }

  void equation(Node& m) {
    std::string label = take_label(m);
    // `\tag{6-1}` numbers the formula by hand: the number moves from the TeX to the node, so every
    // writer prints and links it the same way as a labelled equation's.
    if (auto tag = find_tag(m.text)) {
      m.text.erase(tag->begin, tag->end - tag->begin);
      while (!m.text.empty() && (m.text.back() == ' ' || m.text.back() == '\n')) m.text.pop_back();
      m.rare().number = equations_.next(&tag->text, m.loc, diags_);
      m.rare().id = id_from_number("eq", m.number());
      m.set_attr("label", fill_label(e_.labels.equation, m.number()));
      add(TargetKind::Equation, m, label, "");
      return;
    }
    if (label.empty()) return;  // only labelled equations are numbered, as in pandoc-crossref
    if (c_.number > 0) {
      m.rare().number = equations_.next(nullptr, m.loc, diags_);
      m.rare().id = id_from_number("eq", m.number());
      m.set_attr("label", fill_label(e_.labels.equation, m.number()));
    } else {
      m.rare().id = doc::sanitize_id(label);
    }
    add(TargetKind::Equation, m, label, "");
  }

  void callout(Node& q) {
    const std::string* kind = q.attr("kind");
    if (!kind || (*kind != "example" && *kind != "experiment")) return;
    std::string label = take_label(q);
    const std::string* hand = q.attr("hand-number");
    if ((c_.number == 0 && !hand) || (!hand && label.empty())) {
      if (!label.empty()) q.rare().id = doc::sanitize_id(label);
      return;
    }
    bool example = *kind == "example";
    q.rare().number = (example ? examples_ : experiments_).next(hand, q.loc, diags_);
    q.rare().id = id_from_number(example ? "ex" : "exp", q.number());
    q.set_attr("label", fill_label(example ? e_.labels.example : e_.labels.experiment, q.number()));
    add(example ? TargetKind::Example : TargetKind::Experiment, q, label, "");
    if (q.kind == Kind::Paragraph) anchor_lead(q);
  }

  // A bold-led example paragraph or a table title is no block of its own in every output (LaTeX has
  // no paragraph labels): its id moves to an anchor at the start of the bold (or italic) lead, which
  // every writer keeps.
  static void anchor_lead(Node& p) {
    if (p.children.empty() ||
        (p.children.front().kind != Kind::Strong && p.children.front().kind != Kind::Emph))
      return;
    Node anchor(Kind::Anchor, p.loc);
    anchor.rare().id = std::exchange(p.rare().id, {});
    auto& lead = p.children.front().children;
    lead.insert(lead.begin(), std::move(anchor));
  }

  const book::Edition& e_;
  book::Chapter& c_;
  TargetTable& table_;
  Diagnostics& diags_;
  const NumberingPolicy& policy_;
  bool hand_sections_ = false;
  int s2_ = 0, s3_ = 0, headings_ = 0;
  std::vector<int> last_section_;
  std::set<std::string> seen_sections_;
  Sequence figures_, tables_, equations_, examples_, experiments_;
};

}  // namespace

void number_chapter(const book::Edition& edition, book::Chapter& chapter, TargetTable& table,
                    Diagnostics& diags, const NumberingPolicy& policy) {
  if (edition.mkdocs_ids) mark_mkdocs_ids(chapter.root);  // from the headings as written
  Numberer(edition, chapter, table, diags, policy).run();
}

}  // namespace bb::filters
