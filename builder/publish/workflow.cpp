// The book workflow of a book (see workflow.hpp).
#include "publish/workflow.hpp"

#include <map>
#include <set>
#include <sstream>

#include "book/output_names.hpp"

namespace bb::publish {

namespace {

// `s` as one word of bash, in single quotes. Control characters become spaces, and `${{` is broken
// up: GitHub reads an expression there even inside a shell string.
std::string shell_word(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  for (std::size_t at; (at = s.find("${{")) != std::string::npos;) s.insert(at + 1, " ");
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string tool_step(const ToolSource& t) {
  std::ostringstream o;
  if (t.kind == ToolSource::Kind::Deb) {
    o << "deb=\"$RUNNER_TEMP/bookbuild.deb\"\n"
      << "curl -fsSL --retry 3 -o \"$deb\" '" << t.url << "'\n"
      << "# The file must be the one book.toml names by its SHA-256.\n"
      << "echo '" << t.sha256 << "  '\"$deb\" | sha256sum -c -\n"
      << "apt-get install -y -qq \"$deb\"";
    return o.str();
  }
  if (t.kind == ToolSource::Kind::Self) {
    o << "# This repository holds bookbuild too: the tool is built at the commit being built.\n"
      << "src=\"$GITHUB_WORKSPACE\"\n";
  } else {
    o << "# The commit is the check: git names a commit by the hash of its content.\n"
      << "src=\"$RUNNER_TEMP/bookbuild-src\"\n"
      << "git init -q \"$src\"\n"
      << "git -C \"$src\" fetch -q --depth 1 '" << t.url << "' '" << t.commit << "'\n"
      << "git -C \"$src\" checkout -q --detach FETCH_HEAD\n"
      << "test \"$(git -C \"$src\" rev-parse HEAD)\" = '" << t.commit << "'\n";
  }
  o << "\"$src/scripts/install-deps.sh\"\n"
    << "cmake -S \"$src\" -B \"$RUNNER_TEMP/bookbuild-build\" -DCMAKE_BUILD_TYPE=Release "
       "-DBOOKBUILD_TESTS=OFF\n"
    << "cmake --build \"$RUNNER_TEMP/bookbuild-build\" -j\"$(nproc)\"\n"
    << "cmake --install \"$RUNNER_TEMP/bookbuild-build\" --prefix /usr/local\n"
    << "bookbuild --version";
  return o.str();
}

std::string tool_source(const ToolSource& t) {
  switch (t.kind) {
    case ToolSource::Kind::Deb: return "the .deb book.toml names, checked against its SHA-256";
    case ToolSource::Kind::Self: return "built from this repository at this commit";
    case ToolSource::Kind::Git: break;
  }
  return "built from " + t.url + " at " + t.commit.substr(0, 12);
}

// One line of the release notes per edition: its name and its files in this release.
std::string notes(const book::Config& cfg, const Settings& s) {
  std::string out;
  for (const auto& e : cfg.editions) {
    out += (out.empty() ? "" : "\n") + std::string("echo ") + shell_word("- " + e.name + ":");
    for (const auto& kind : s.assets) {
      const std::string file = book::output_file(cfg, e, "." + kind);
      out += " \"[" + file + "](https://github.com/$GH_REPO/releases/download/$tag/" + file + ")\"";
    }
  }
  return out;
}

std::string lines(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : "\n") + i;
  return out;
}

// Fills each `@NAME@` (capitals and `_`) of `tmpl` from `values`, every one of which must be used.
std::string fill(const std::string& tmpl, const std::map<std::string, std::string>& values,
                 const std::string& tmpl_name) {
  std::string out;
  std::set<std::string> used;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '\n') line_start = out.size() + 1;
    std::size_t end = tmpl[i] == '@' ? tmpl.find('@', i + 1) : std::string::npos;
    const std::string name = end == std::string::npos ? "" : tmpl.substr(i + 1, end - i - 1);
    if (name.empty() || name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != std::string::npos) {
      out += tmpl[i];
      continue;
    }
    auto v = values.find(name);
    if (v == values.end()) throw FatalError(tmpl_name + ": error: no value for the slot @" + name + "@", 2);
    used.insert(name);
    // Continuation lines take the indentation the slot has on its own line.
    const std::string indent =
        out.substr(line_start).find_first_not_of(' ') == std::string::npos ? out.substr(line_start) : "";
    for (char c : v->second) {
      out += c;
      if (c == '\n') out += indent;
    }
    i = end;
  }
  for (const auto& [name, value] : values)
    if (!used.count(name))
      throw FatalError(tmpl_name + ": error: the template has no slot @" + name + "@", 2);
  return out;
}

}  // namespace

std::vector<std::string> release_assets(const book::Config& cfg, const Settings& s) {
  std::vector<std::string> out;
  for (const auto& kind : s.assets)
    for (const auto& e : cfg.editions) out.push_back(kind + "/" + book::output_file(cfg, e, "." + kind));
  if (s.build_json) out.push_back("build.json");
  return out;
}

std::string book_workflow(const book::Config& cfg, const Settings& s, const std::string& tmpl,
                          const std::string& tmpl_name, const std::string& version) {
  return fill(tmpl,
              {{"BOOKBUILD_VERSION", version},
               {"TOOL_SOURCE", tool_source(s.tool)},
               {"TOOL_STEP", tool_step(s.tool)},
               {"ASSETS", lines(release_assets(cfg, s))},
               {"NOTES", notes(cfg, s)},
               {"TIME_ZONE", s.time_zone},
               {"TAG_FORMAT", s.tag},
               {"TITLE_FORMAT", s.title}},
              tmpl_name);
}

}  // namespace bb::publish
