// Link resolution between chapters and into the repository.
#include "filters/links.hpp"
#include "writers/escape.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <unordered_map>

namespace bb::filters {

namespace fs = std::filesystem;
using doc::Kind;
using doc::Node;

namespace {

std::string first_line(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

bool is_sha(const std::string& s) {
  return s.size() == 40 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

// Reads .git/HEAD (and the ref it names, loose or packed) directly: starting `git` costs more than
// the rest of a small build. Falls back to `git rev-parse` for layouts this does not cover
// (worktrees, other git dirs).
std::string repository_commit(const fs::path& root) {
  fs::path dir = root;
  while (!dir.empty() && !fs::exists(dir / ".git")) {
    if (dir == dir.parent_path()) {
      dir.clear();
      break;
    }
    dir = dir.parent_path();
  }
  if (dir.empty()) return "HEAD";
  fs::path git = dir / ".git";
  if (fs::is_directory(git)) {
    std::string head = first_line(git / "HEAD");
    if (is_sha(head)) return head;
    if (head.starts_with("ref: ")) {
      std::string ref = head.substr(5);
      std::string loose = first_line(git / ref);
      if (is_sha(loose)) return loose;
      std::ifstream packed(git / "packed-refs");
      for (std::string line; std::getline(packed, line);)
        if (line.size() > 41 && line.compare(41, std::string::npos, ref) == 0 && is_sha(line.substr(0, 40)))
          return line.substr(0, 40);
    }
  }
  std::string cmd = "git -C '" + root.string() + "' rev-parse HEAD 2>/dev/null";
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[128];
    while (fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return is_sha(out) ? out : "HEAD";
}

namespace {

bool has_scheme(const std::string& url) {
  auto colon = url.find(':');
  if (colon == std::string::npos || colon == 0) return false;
  for (std::size_t i = 0; i < colon; ++i)
    if (!std::isalnum(static_cast<unsigned char>(url[i])) && url[i] != '+' && url[i] != '-' && url[i] != '.')
      return false;
  return true;
}

class LinkResolver {
 public:
  LinkResolver(book::Chapter& c, const LinkContext& ctx, Diagnostics& d) : c_(c), ctx_(ctx), diags_(d) {
    // Paths are compared lexically (the book's root is already canonical): resolving symbolic links
    // for each of a chapter's hundreds of links costs more system calls than the rest of the pass.
    for (const auto& ch : ctx.edition.chapters) chapter_of_[ch.path.lexically_normal().string()] = ch.key;
  }

  void run() { walk(c_.root); }

 private:
  void walk(Node& n) {
    for (auto& c : n.caption) walk(c);
    for (auto& c : n.children) walk(c);
    if (n.kind == Kind::Link) link(n);
  }

  void link(Node& n) {
    const std::string& url = n.url;
    if (url.empty() || has_scheme(url) || url.starts_with("//")) return;
    std::string path = url.substr(0, url.find('#'));
    std::string frag = url.find('#') == std::string::npos ? "" : url.substr(url.find('#') + 1);
    if (path.empty()) {
      // `#label` within the chapter: an explicit label resolves to its stable id.
      if (const Target* t = ctx_.targets.by_label(ctx_.edition.edition.id, frag)) {
        n.set_attr("chapter", t->chapter);
        n.set_attr("target", t->id);
      }
      return;
    }
    if (path.starts_with("/")) return;  // site-absolute: left to the site's own check
    fs::path target = (c_.path.parent_path() / writers::percent_decode(path)).lexically_normal();
    if (auto it = chapter_of_.find(target.string()); it != chapter_of_.end()) {
      n.set_attr("chapter", it->second);
      std::string id = it->second;
      if (!frag.empty()) {
        const Target* t = ctx_.targets.by_label(ctx_.edition.edition.id, frag);
        id = t ? t->id : frag;
      }
      n.set_attr("target", id);
      return;
    }
    fs::path rel = target.lexically_relative(ctx_.config.root);
    bool outside = rel.empty() || rel.native().starts_with("..");
    if (outside || !fs::exists(target)) {
      std::string why = outside ? "points outside the book's repository" : "does not exist in the repository";
      report(n, "link target `" + url + "` " + why);
      unlink(n);
      return;
    }
    if (ctx_.config.repository.empty()) {
      report(n, "link to repository file `" + url + "` needs `repository` in book.toml to become a URL");
      unlink(n);
      return;
    }
    std::string repo = ctx_.config.repository;
    while (!repo.empty() && repo.back() == '/') repo.pop_back();
    n.url = repo + (fs::is_directory(target) ? "/tree/" : "/blob/") + ctx_.commit + "/" +
            rel.generic_string() + (frag.empty() ? "" : "#" + frag);
    n.set_attr("repository-path", rel.generic_string());
  }

  void report(const Node& n, const std::string& msg) {
    switch (ctx_.config.repository_links) {
      case book::Policy::Error: diags_.error(n.loc, msg); break;
      case book::Policy::Warning: diags_.warning(n.loc, msg); break;
      case book::Policy::Ignore: break;
    }
  }

  // The text stays, the dead link goes: no output carries a link that leads nowhere.
  static void unlink(Node& n) {
    n.kind = Kind::Span;
    n.classes.emplace_back("broken-link");
    n.set_attr("href", n.url);
    n.url.clear();
  }

  book::Chapter& c_;
  const LinkContext& ctx_;
  Diagnostics& diags_;
  std::unordered_map<std::string, std::string> chapter_of_;
};

}  // namespace

void resolve_links(book::Chapter& chapter, const LinkContext& ctx, Diagnostics& diags) {
  LinkResolver(chapter, ctx, diags).run();
}

}  // namespace bb::filters
