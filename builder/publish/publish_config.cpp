// book.toml's `[publish]` table (see publish_config.hpp).
#include "publish/publish_config.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "book/toml_read.hpp"
#include "inputs/file_io.hpp"

namespace bb::publish {

namespace fs = std::filesystem;

namespace {

bool is_hex(std::string_view s, std::size_t size) {
  return s.size() == size && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// The conversions of `date` a tag or title may use: the date and the time, nothing locale-dependent.
bool date_conversion(char c) {
  return std::string_view("YmdHMSyj%").find(c) != std::string_view::npos;
}

// What is wrong with a `date` format (the tag's when `tag` is true: then only what a git tag and a
// file name take), or "".
std::string date_format_problem(std::string_view f, bool tag) {
  if (f.empty() || f.size() > 100) return "must be 1 to 100 characters long";
  for (std::size_t i = 0; i < f.size(); ++i) {
    const auto c = static_cast<unsigned char>(f[i]);
    if (c == '%') {
      if (i + 1 == f.size() || !date_conversion(f[i + 1]))
        return "may use only the conversions %Y %m %d %H %M %S %y %j and %%";
      ++i;
    } else if (tag ? !(std::isalnum(c) || c == '-' || c == '_' || c == '.') : (c < 0x20 || c == 0x7f)) {
      return tag ? "may hold only ASCII letters, digits, `-`, `_`, `.` and date conversions"
                 : "may not hold control characters";
    } else if (!tag && std::string_view("'\"`$\\").find(static_cast<char>(c)) != std::string_view::npos) {
      return "may not hold quotes, `$`, a backquote or a backslash (it is written into a shell command)";
    }
  }
  if (tag && (f.front() == '-' || f.front() == '.' || f.find("..") != std::string_view::npos))
    return "must not start with `-` or `.` nor hold `..` (git refuses such a tag)";
  return "";
}

// A tz database name ("Asia/Shanghai", "UTC"), known to this machine's database when it has one.
std::string time_zone_problem(const std::string& tz) {
  const bool shaped =
      !tz.empty() && tz.size() <= 64 && std::isalpha(static_cast<unsigned char>(tz[0])) &&
      tz.find("//") == std::string::npos && tz.back() != '/' && std::all_of(tz.begin(), tz.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '_' || c == '-' || c == '+';
      });
  if (!shaped) return "must be a time zone of the tz database, such as \"UTC\" or \"Asia/Shanghai\"";
  const fs::path zones = "/usr/share/zoneinfo";
  std::error_code ec;
  if (fs::is_directory(zones, ec) && !fs::is_regular_file(zones / tz, ec))
    return "is not a time zone of the tz database (" + zones.string() + ")";
  return "";
}

// An https:// address written into a shell command: only characters no shell or YAML reads.
bool is_plain_https(std::string_view url) {
  if (url.substr(0, 8) != "https://" || url.size() <= 8 || url.size() > 500) return false;
  return std::all_of(url.begin(), url.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("._~/:@%+=-").find(c) != std::string_view::npos;
  });
}

struct Reader {
  const fs::path& file;
  Diagnostics& diags;
  bool ok = true;

  void error(const toml::node* n, std::string message) {
    diags.error(book::toml_place(file, n), std::move(message));
    ok = false;
  }
  std::optional<std::string> str(const toml::table& t, std::string_view key) {
    const toml::node* n = t.get(key);
    if (!n) return std::nullopt;
    if (auto v = n->value<std::string>()) return *v;
    error(n, "`" + std::string(key) + "` must be a string");
    return std::nullopt;
  }
};

void read_release(Reader& r, const toml::table& t, Settings& s) {
  if (auto v = r.str(t, "tag")) {
    if (auto p = date_format_problem(*v, true); !p.empty()) r.error(t.get("tag"), "`tag` " + p);
    s.tag = *v;
  }
  if (auto v = r.str(t, "title")) {
    if (auto p = date_format_problem(*v, false); !p.empty()) r.error(t.get("title"), "`title` " + p);
    s.title = *v;
  }
  if (auto v = r.str(t, "time-zone")) {
    if (auto p = time_zone_problem(*v); !p.empty()) r.error(t.get("time-zone"), "`time-zone` " + p);
    s.time_zone = *v;
  }
  if (const toml::node* n = t.get("assets")) {
    s.assets.clear();
    const auto* list = n->as_array();
    if (list)
      for (const auto& a : *list) {
        auto v = a.value<std::string>();
        if (!v || (*v != "pdf" && *v != "epub"))
          r.error(&a,
                  "`assets` may name \"pdf\" and \"epub\" (each edition's files under its download name)");
        else if (std::find(s.assets.begin(), s.assets.end(), *v) == s.assets.end())
          s.assets.push_back(*v);
      }
    if (!list || (s.assets.empty() && r.ok))
      r.error(n, "`assets` must be a list such as [\"pdf\", \"epub\"]");
  }
  if (const toml::node* n = t.get("build-json")) {
    if (auto v = n->value<bool>())
      s.build_json = *v;
    else
      r.error(n, "`build-json` must be true or false");
  }
}

void read_tool(Reader& r, const toml::table& t, const SourceLoc& table_loc, const std::string& own_commit,
               ToolSource& tool) {
  auto git = r.str(t, "bookbuild-git"), commit = r.str(t, "bookbuild-commit");
  auto deb = r.str(t, "bookbuild-deb"), sha = r.str(t, "bookbuild-sha256");
  if (deb || sha) {
    if (git || commit)
      r.error(t.get(git ? "bookbuild-git" : "bookbuild-commit"),
              "give bookbuild either as a .deb (`bookbuild-deb`) or from git, not both");
    if (!deb || !is_plain_https(*deb) || deb->size() < 5 || deb->substr(deb->size() - 4) != ".deb")
      r.error(deb ? t.get("bookbuild-deb") : t.get("bookbuild-sha256"),
              "`bookbuild-deb` must be the https:// address of a .deb (letters, digits and `._~/:@%+=-`)");
    if (!sha || !is_hex(*sha, 64))
      r.error(
          sha ? t.get("bookbuild-sha256") : t.get("bookbuild-deb"),
          "`bookbuild-sha256` must be the .deb's SHA-256: 64 lower-case hex digits, as sha256sum prints it");
    tool = {ToolSource::Kind::Deb, deb.value_or(""), "", sha.value_or("")};
    return;
  }
  if (git && *git == ".") {
    if (commit)
      r.error(t.get("bookbuild-commit"),
              "`bookbuild-git = \".\"` builds the tool at the book's own commit: "
              "drop `bookbuild-commit`");
    tool = {ToolSource::Kind::Self, ".", "", ""};
    return;
  }
  if (git && !is_plain_https(*git))
    r.error(
        t.get("bookbuild-git"),
        "`bookbuild-git` must be \".\" or an https:// repository address (letters, digits and `._~/:@%+=-`)");
  if (commit && !is_hex(*commit, 40))
    r.error(t.get("bookbuild-commit"), "`bookbuild-commit` must be a full commit: 40 lower-case hex digits");
  tool = {ToolSource::Kind::Git, git.value_or(kToolRepository), commit.value_or(own_commit), ""};
  if (tool.commit.empty() && r.ok) {
    r.diags.error(table_loc,
                  "this bookbuild does not know the commit it was built from: set [publish] "
                  "`bookbuild-commit` (or `bookbuild-deb` and `bookbuild-sha256`)");
    r.ok = false;
  }
}

}  // namespace

std::optional<Settings> read_settings(const book::Config& cfg, const std::string& own_commit,
                                      Diagnostics& diags) {
  Settings s;
  const fs::path& file = cfg.config_file;
  if (cfg.source().detected) {
    // The real book's layout (with or without a book.toml over it): its own workflow's choices (a tag
    // and a title of Beijing time), which [publish] overrides key by key.
    s.tag = "build-%Y%m%d-%H%M%S";
    s.title = "全书 %Y-%m-%d %H:%M";
    s.time_zone = "Asia/Shanghai";
  }
  toml::table empty;
  const toml::table* t = &empty;
  toml::table doc;
  if (!file.empty()) {
    std::optional<toml::table> parsed = book::read_book_toml(file, diags);
    if (!parsed) return std::nullopt;
    doc = std::move(*parsed);
    if (const toml::node* n = doc.get("publish")) {
      t = n->as_table();
      if (!t) {
        diags.error(book::toml_place(file, n), "[publish] must be a table");
        return std::nullopt;
      }
    }
  }
  Reader r{file, diags};
  const SourceLoc table_loc =
      file.empty() ? SourceLoc{cfg.root, 0, 0} : book::toml_place(file, doc.get("publish"));
  for (const auto& [key, value] : *t) {
    static constexpr std::string_view known[] = {"tag",
                                                 "title",
                                                 "time-zone",
                                                 "assets",
                                                 "build-json",
                                                 "bookbuild-git",
                                                 "bookbuild-commit",
                                                 "bookbuild-deb",
                                                 "bookbuild-sha256"};
    if (std::find(std::begin(known), std::end(known), key.str()) == std::end(known))
      diags.warning(book::toml_place(file, &value),
                    "unknown key `" + std::string(key.str()) + "` in [publish]");
  }
  read_release(r, *t, s);
  read_tool(r, *t, table_loc, own_commit, s.tool);
  if (!r.ok) return std::nullopt;
  return s;
}

}  // namespace bb::publish
