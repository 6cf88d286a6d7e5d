// Link and image resolution: chapters, fragments, book files, the repository, the web.
#include "filters/links.hpp"

#include "doc/ids.hpp"
#include "text/slug.hpp"
#include "text/url.hpp"

namespace bb::filters {

namespace fs = std::filesystem;
using doc::Kind;
using doc::Node;
using text::UrlKind;

std::set<std::string> settle_ids(book::Chapter& chapter, Diagnostics& diags) {
  std::set<std::string> ids;
  std::map<std::string, int> repeats;
  doc::walk(chapter.root, [&](Node& n) {
    if (n.kind == Kind::FootnoteRef || n.kind == Kind::FootnoteDef) {
      std::string key = doc::sanitize_id(n.text);
      ids.insert("fn-" + key);
      ids.insert("fnref-" + key);
      return;
    }
    if (n.id().empty()) return;
    std::string id = doc::sanitize_id(n.id());
    if (!ids.insert(id).second) {
      std::string fresh;
      for (int k = ++repeats[id] + 1;; ++k)
        if (ids.insert(fresh = id + "-" + std::to_string(k)).second) break;
      diags.warning(n.loc, "id `" + id + "` is used twice in this chapter; this one becomes `" + fresh + "`");
      id = fresh;
    }
    n.rare().id = id;
  });
  return ids;
}

ChapterFiles chapter_files(const book::EditionBook& edition) {
  ChapterFiles files;
  files.reserve(edition.chapters.size());
  for (const auto& ch : edition.chapters) files[book::normal_form(ch.path.native())] = ch.key;
  return files;
}

namespace {

class LinkResolver {
 public:
  LinkResolver(book::Chapter& c, const LinkContext& ctx, Diagnostics& d)
      : c_(c), ctx_(ctx), diags_(d), guard_(ctx.guard), dir_(c.path.parent_path().native()) {}

  void run() {
    doc::walk(c_.root, [&](Node& n) {
      if (n.kind == Kind::Link)
        link(n);
      else if (n.kind == Kind::Image)
        image(n);
    });
  }

 private:
  // The id a fragment names in a chapter: an explicit label, or an id the chapter has.
  std::optional<std::string> anchor(const std::string& chapter, const std::string& fragment) {
    if (fragment.empty()) return chapter;
    if (const Target* t = ctx_.targets.by_label(ctx_.edition.edition.id, fragment);
        t && t->chapter == chapter)
      return t->id;
    auto it = ctx_.ids.find(chapter);
    const std::string decoded = text::percent_decode(fragment);
    std::string id = doc::sanitize_id(decoded);
    if (it != ctx_.ids.end() && it->second.count(id)) return id;
    const auto& slugs = heading_slugs(chapter);
    if (auto s = slugs.find(decoded); s != slugs.end()) return s->second;
    return std::nullopt;
  }

  // The identifiers GitHub and Pandoc would have given the chapter's headings (text/slug.hpp), each
  // mapped to the heading's id: manuscripts written for those tools link to headings that way.
  const std::map<std::string, std::string>& heading_slugs(const std::string& chapter) {
    const auto emplaced = slugs_.try_emplace(chapter);
    auto& slugs = emplaced.first->second;  // a named reference: clang 14 cannot capture a binding
    if (!emplaced.second) return slugs;
    for (const auto& ch : ctx_.edition.chapters) {
      if (ch.key != chapter) continue;
      std::map<std::string, int> seen;  // per convention and slug: how often it came before
      doc::walk(ch.root, [&](const Node& n) {
        if (n.kind != Kind::Heading || n.id().empty()) return;
        // The heading as written: a typed number was moved out of the text into `number`.
        const std::string title = doc::plain_text(n.children);
        const std::string numbered = n.number().empty() ? title : n.number() + " " + title;
        // Each tool numbers its own repeats: (tool and text variant, slug) is counted on its own.
        const std::pair<const char*, std::string> forms[] = {{"github", text::github_slug(title)},
                                                             {"pandoc", text::pandoc_slug(title)},
                                                             {"github#", text::github_slug(numbered)},
                                                             {"pandoc#", text::pandoc_slug(numbered)}};
        if (const std::string* old = n.attr("mkdocs-id")) slugs.try_emplace(*old, n.id());
        for (const auto& [tool, slug] : forms) {
          int& count = seen[std::string(tool) + " " + slug];
          slugs.try_emplace(count ? slug + "-" + std::to_string(count) : slug, n.id());
          ++count;
        }
      });
    }
    return slugs;
  }

  std::map<std::string, std::map<std::string, std::string>> slugs_;  // chapter → slug → id

  void to_chapter(Node& n, const std::string& chapter, const std::string& fragment) {
    auto id = anchor(chapter, fragment);
    if (!id) {
      diags_.warning(n.loc,
                     "link target `#" + fragment + "` is not an id in " + chapter +
                         "; the link goes to the start of the chapter",
                     "link-target");
      id = chapter;
    }
    n.set_attr("dest", "chapter");
    n.set_attr("chapter", chapter);
    n.set_attr("target", *id);
  }

  void link(Node& n) {
    switch (text::classify_url(n.url())) {
      case UrlKind::Empty: return;
      case UrlKind::External: n.set_attr("dest", "url"); return;
      case UrlKind::Script:
        diags_.error(n.loc, "link `" + n.url() + "` runs a script; no output may carry it");
        unlink(n);
        return;
      case UrlKind::Data:
        diags_.error(n.loc, "link to a `data:` URL: only images may be given inline");
        unlink(n);
        return;
      case UrlKind::RootRelative:
        report(n, "link target `" + n.url() + "` is an absolute path; write it relative to the manuscript",
               "link-target");
        unlink(n);
        return;
      case UrlKind::Fragment: {
        std::string frag = n.url().substr(1);
        // A label anywhere in the edition (`#fig:x` may name another chapter's figure).
        if (const Target* t = ctx_.targets.by_label(ctx_.edition.edition.id, frag))
          return to_chapter(n, t->chapter, t->id);
        return to_chapter(n, c_.key, frag);
      }
      case UrlKind::Relative: break;
    }
    auto [path, frag, has_frag] = text::split_url(n.url());
    // On the bytes: a std::filesystem::path splits itself into components whenever it is made.
    const std::string lexical = book::normal_form(book::join_path(dir_, text::percent_decode(path)));
    if (auto it = ctx_.files.find(lexical); it != ctx_.files.end()) return to_chapter(n, it->second, frag);
    const auto& confined = guard_.confine_bytes(lexical);
    if (!confined.ok()) {
      diags_.error(n.loc, "link target `" + n.url() + "` " + confined.error);
      unlink(n);
      return;
    }
    const auto status = confined.status;
    if (!fs::exists(status)) {
      report(n, "link target `" + n.url() + "` does not exist in the repository", "link-target");
      unlink(n);
      return;
    }
    const auto& repo = ctx_.repository;
    fs::path rel = confined.path.lexically_relative(repo.toplevel);
    if (rel.empty() || *rel.begin() == "..") rel = confined.path.lexically_relative(guard_.root());
    std::string url = repo.file_url(rel.generic_string(), fs::is_directory(status), frag);
    if (url.empty()) {
      report(n,
             "link to repository file `" + n.url() +
                 "` needs a repository web address to become a URL: `[book] repository` in book.toml, "
                 "or a Git remote (`git remote add origin https://…`)",
             "repository-link");
      unlink(n);
      return;
    }
    n.rare().url = url;
    n.set_attr("dest", "url");
    n.set_attr("repository-path", rel.generic_string());
  }

  void image(Node& n) {
    switch (text::classify_url(n.url())) {
      case UrlKind::Empty: diags_.error(n.loc, "image without a file"); return;
      case UrlKind::External:
      case UrlKind::Data: n.set_attr("dest", "url"); return;
      case UrlKind::Script:
        diags_.error(n.loc, "image `" + n.url() + "` runs a script; no output may carry it");
        return;
      case UrlKind::RootRelative:
        diags_.error(n.loc,
                     "image `" + n.url() + "` is an absolute path; write it relative to the manuscript");
        return;
      case UrlKind::Fragment: diags_.error(n.loc, "image `" + n.url() + "` names no file"); return;
      case UrlKind::Relative: break;
    }
    std::string path = text::split_url(n.url()).path;
    const auto& confined = guard_.confine_bytes(book::join_path(dir_, text::percent_decode(path)));
    if (!confined.ok()) {
      diags_.error(n.loc, "image `" + n.url() + "` " + confined.error);
      return;
    }
    if (!fs::is_regular_file(confined.status)) {
      diags_.error(n.loc, fs::exists(confined.status) ? "image `" + n.url() + "` is not a file"
                                                      : "image `" + n.url() + "` does not exist");
      return;
    }
    n.set_attr("dest", "asset");
    n.set_attr("asset", confined.path.lexically_relative(guard_.root()).generic_string());
  }

  // `kind`: the diagnostic's kind (docs/diagnostics.md), whichever severity the policy gives it.
  void report(const Node& n, const std::string& msg, const char* kind) {
    switch (ctx_.config.repository_links) {
      case book::Policy::Error: diags_.error(n.loc, msg, kind); break;
      case book::Policy::Warning: diags_.warning(n.loc, msg, kind); break;
      case book::Policy::Ignore: break;
    }
  }

  // The text stays, the dead link goes: no output carries a link that leads nowhere.
  static void unlink(Node& n) {
    n.kind = Kind::Span;
    n.extra().classes.emplace_back("broken-link");
    n.set_attr("href", n.url());
    n.rare().url.clear();
  }

  book::Chapter& c_;
  const LinkContext& ctx_;
  Diagnostics& diags_;
  book::PathGuard& guard_;
  std::string dir_;  // the chapter's folder
};

}  // namespace

void resolve_links(book::Chapter& chapter, const LinkContext& ctx, Diagnostics& diags) {
  LinkResolver(chapter, ctx, diags).run();
}

}  // namespace bb::filters
