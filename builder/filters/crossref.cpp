// Cross-reference resolution: `@fig:x` citations and the hand-written references the scanner finds
// (reference_scanner.cpp), resolved against the edition's target table and turned into links.
#include "filters/crossref.hpp"

#include <cstring>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>

#include "lang/language.hpp"
#include "text/suggest.hpp"

#include "filters/numbering.hpp"

namespace bb::filters {

using doc::Kind;
using doc::Node;

namespace {

class Resolver {
 public:
  Resolver(book::Chapter& c, const CrossRefContext& ctx, Diagnostics& d)
      : c_(c), ctx_(ctx), diags_(d), scanner_(ctx.edition.lang, ctx.edition.lead_words) {}

  void run() {
    doc::walk(c_.root, [&](const Node& n) {
      if (n.kind == Kind::Link) note_path_numbers(n.url());
      if (n.kind == Kind::Code) note_path_numbers(n.text);
    });
    blocks(c_.root.children);
  }

 private:
  // The numbers the chapter's paths carry as a folder or file name of their own: `experiments/ch08/08-03/`
  // names run 8-3 of the repository, `results/4-2.md` item 4-2. A reader takes "实验 8-3" beside such a
  // path for that run, not for a numbered element of the book: it is no dangling reference.
  void note_path_numbers(std::string_view path) {
    if (path.find('/') == std::string_view::npos) return;
    std::size_t at = 0;
    while (at <= path.size()) {
      std::size_t end = path.find_first_of("/ ", at);
      if (end == std::string_view::npos) end = path.size();
      std::string_view seg = path.substr(at, end - at);
      while (!seg.empty() && std::isalpha(static_cast<unsigned char>(seg.front()))) seg.remove_prefix(1);
      std::size_t n = 0;
      while (n < seg.size() && std::isdigit(static_cast<unsigned char>(seg[n]))) ++n;
      if (n > 0 && n <= 3 && n < seg.size() && (seg[n] == '-' || seg[n] == '_' || seg[n] == '.')) {
        std::size_t m = n + 1;
        while (m < seg.size() && std::isdigit(static_cast<unsigned char>(seg[m]))) ++m;
        if (m > n + 1 && m - n - 1 <= 3)
          path_numbers_.insert(std::to_string(std::stoi(std::string(seg.substr(0, n)))) + "-" +
                               std::to_string(std::stoi(std::string(seg.substr(n + 1, m - n - 1)))));
      }
      at = end + 1;
    }
  }

  void blocks(std::vector<Node>& v) {
    for (auto& b : v) block(b);
  }

  void block(Node& b) {
    switch (b.kind) {
      case Kind::Heading:
        // A heading's own hand number is its label, not a reference; citations still resolve.
        inlines(b.children, false);
        break;
      case Kind::Callout: callout(b); break;
      case Kind::Figure:
      case Kind::Table:
        if (auto* x = b.rare_if()) inlines(x->caption, true);
        blocks(b.children);
        break;
      case Kind::Paragraph:
        if (b.attr("kind"))
          lead_paragraph(b);  // `**例 5-1：…** …` carries its own number
        else
          inlines(b.children, true);
        break;
      case Kind::TableRow: blocks(b.children); break;
      case Kind::TableCell:
      case Kind::DefinitionTerm: inlines(b.children, true); break;
      default:
        if (b.is_block()) blocks(b.children);
    }
  }

  // The bold lead of an example/experiment, or a table title, carries its own number ("例 4-1：…"):
  // skip it.
  void lead_paragraph(Node& b) {
    if (b.children.empty() ||
        (b.children.front().kind != Kind::Strong && b.children.front().kind != Kind::Emph)) {
      inlines(b.children, true);
      return;
    }
    inlines(b.children.front().children, false);
    std::vector<Node> rest(std::make_move_iterator(b.children.begin() + 1),
                           std::make_move_iterator(b.children.end()));
    inlines(rest, true);
    b.children.resize(1);
    for (auto& r : rest) b.children.push_back(std::move(r));
  }

  void callout(Node& q) {
    for (std::size_t i = 0; i < q.children.size(); ++i) {
      Node& b = q.children[i];
      if (i == 0 && b.kind == Kind::Paragraph) {
        lead_paragraph(b);
      } else {
        block(b);
      }
    }
  }

  // Most inlines hold no reference: `v` is rebuilt only from the first text that is split, and
  // until then its nodes stay where they are (rebuilding every paragraph's inlines, moving each
  // node, was a third of the resolver's instructions).
  void inlines(std::vector<Node>& v, bool plain) {
    std::vector<Node> out;
    bool rebuilt = false;  // v[0, i) have been moved into `out`
    for (std::size_t i = 0; i < v.size(); ++i) {
      Node& n = v[i];
      switch (n.kind) {
        case Kind::CrossRef: citation(n); break;
        case Kind::Text:
          if (plain) {
            auto refs = scanner_.scan(n.text);
            if (refs.empty()) break;
            if (!rebuilt) {
              out.reserve(v.size() + 2 * refs.size());
              std::move(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(i), std::back_inserter(out));
              rebuilt = true;
            }
            split_plain(n, refs, out);
            continue;
          }
          break;
        case Kind::Link:
        case Kind::Code:
        case Kind::Image: break;  // no links inside links; code is literal
        case Kind::Span:
          // `[Table 2-7]{.noref}`: the author says this phrase is not a reference (a table of another
          // document): its text is not read for references; `@label` citations inside still resolve.
          inlines(n.children, plain && !n.has_class("noref"));
          break;
        default: inlines(n.children, plain);
      }
      if (rebuilt) out.push_back(std::move(n));
    }
    if (rebuilt) v = std::move(out);
  }

  void link_to(Node& ref, const Target& t) {
    ref.set_attr("chapter", t.chapter);
    ref.set_attr("target", t.id);
  }

  std::string words_for(const Target& t) const {
    const auto& l = ctx_.edition.labels;
    switch (t.kind) {
      case TargetKind::Chapter: return t.number.empty() ? t.title : fill_label(l.chapter, t.number);
      case TargetKind::Section: return t.number.empty() ? t.title : fill_label(l.section, t.number);
      case TargetKind::Figure: return fill_label(l.figure, t.number);
      case TargetKind::Table: return fill_label(l.table, t.number);
      case TargetKind::Equation: return fill_label(l.equation, t.number);
      case TargetKind::Example: return fill_label(l.example, t.number);
      case TargetKind::Experiment: return fill_label(l.experiment, t.number);
    }
    return t.number;
  }

  // `@fig:x`: rendered in the edition's words.
  void citation(Node& n) {
    const Target* t = ctx_.targets.by_label(ctx_.edition.id, n.text);
    if (!t) {
      // A label may be one of a refused chapter's, which are unknown: that chapter's error stands for it.
      if (ctx_.chapters_unread.empty())
        diags_.error(n.loc, "unresolved reference `@" + n.text + "`: no target has the label `" + n.text +
                                "`" + text::did_you_mean(n.text, ctx_.targets.labels_in(ctx_.edition.id)));
      return;
    }
    if (t->number.empty() && t->title.empty() && t->kind != TargetKind::Section) {
      diags_.error(n.loc, "`@" + n.text + "` refers to an unnumbered " + target_kind_name(t->kind));
    }
    Node text(Kind::Text, n.loc);
    text.text = words_for(*t);
    n.children.clear();
    n.children.push_back(std::move(text));
    link_to(n, *t);
  }

  // A text in which the scanner found `refs` (at least one), as texts and references into `out`.
  void split_plain(const Node& n, const std::vector<PlainRef>& refs, std::vector<Node>& out) {
    std::size_t done = 0;
    for (const auto& r : refs) {
      SourceLoc at = n.loc;
      at.col += static_cast<int>(r.begin);
      if (r.begin > done) {
        Node t(Kind::Text, n.loc);
        t.loc.col += static_cast<int>(done);
        t.text = n.text.substr(done, r.begin - done);
        out.push_back(std::move(t));
      }
      std::string written = n.text.substr(r.begin, r.end - r.begin);
      const Target* t = ctx_.targets.by_number(ctx_.edition.id, r.kind, r.number);
      if (!t) {
        // "Figures 1–2" of a cited paper is a range, "Table 4.5" may be a decimal: a number written
        // unlike the book's N-k names something only when a target has it, so it never alarms.
        bool book_form = r.kind == TargetKind::Section || r.kind == TargetKind::Chapter ||
                         written.find(r.number) != std::string::npos;
        if (book_form) report_dangling(r, written, at);
        Node keep(Kind::Text, at);
        keep.text = written;
        out.push_back(std::move(keep));
      } else {
        Node ref(Kind::CrossRef, at);
        ref.text = written;
        ref.extra().classes.emplace_back("plain");
        Node shown(Kind::Text, at);
        shown.text = written;
        ref.children.push_back(std::move(shown));
        link_to(ref, *t);
        out.push_back(std::move(ref));
      }
      done = r.end;
    }
    if (done < n.text.size()) {
      Node t(Kind::Text, n.loc);
      t.loc.col += static_cast<int>(done);
      t.text = n.text.substr(done);
      out.push_back(std::move(t));
    }
  }

  void report_dangling(const PlainRef& r, const std::string& written, const SourceLoc& at) {
    int chapter = std::atoi(r.number.c_str());
    if (ctx_.chapters_unread.count(chapter)) return;  // refused, with an error of its own
    if (path_numbers_.count(r.number)) return;        // a run or file of the repository the chapter names
    if (!ctx_.chapters_in_build.count(chapter)) {
      // Not wrong: the chapter is simply not part of this build (a partial book, the corpus).
      if (ctx_.plain_policy != book::Policy::Ignore)
        diags_.note(at, "`" + written + "` refers to chapter " + std::to_string(chapter) +
                            ", which is not part of this build; left as text");
      return;
    }
    std::string msg = "`" + written + "` names no " + std::string(target_kind_name(r.kind)) + " " + r.number +
                      " (chapter " + std::to_string(chapter) + " has no such " + target_kind_name(r.kind) +
                      ")";
    if (ctx_.plain_policy == book::Policy::Error)
      diags_.error(at, msg);
    else if (ctx_.plain_policy == book::Policy::Warning)
      diags_.warning(at, msg);
  }

  book::Chapter& c_;
  const CrossRefContext& ctx_;
  Diagnostics& diags_;
  ReferenceScanner scanner_;
  std::set<std::string> path_numbers_;  // "8-3": numbers that the chapter's paths carry
};

}  // namespace

void resolve_crossrefs(book::Chapter& chapter, const CrossRefContext& ctx, Diagnostics& diags) {
  Resolver(chapter, ctx, diags).run();
}

}  // namespace bb::filters
