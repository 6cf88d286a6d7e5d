// `bookbuild diff` on a copy of this repository's book made a git repository: a model config's value
// changed moves the same numbers in every edition, each at a line that computes it, with the value
// `check numbers` shows there, and redraws the charts; a change of prose moves nothing; a number changed
// in the source edition alone is reported once, with drift in every translation at the translation's
// own number. The changes are found in the book's own files at test time, not written into the test.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "../unit/test_support.hpp"
#include "book/config.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace bb::test;

namespace {

class BookDiff : public ::testing::Test {
 public:
  static inline fs::path root_, book_;

  // Every test starts from the book as it is, committed and tagged `base`.
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("bb-diff-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    book_ = copy_project_book(root_ / "book");
    ::setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
    ::setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
    ::setenv("GIT_AUTHOR_NAME", "t", 1);
    ::setenv("GIT_AUTHOR_EMAIL", "t@example.org", 1);
    ::setenv("GIT_COMMITTER_NAME", "t", 1);
    ::setenv("GIT_COMMITTER_EMAIL", "t@example.org", 1);
    ::unsetenv("GITHUB_BASE_REF");
    git("init -q -b main");
    commit("base");
  }
  void TearDown() override { fs::remove_all(root_); }

  static RunResult git(const std::string& args) {
    return run_command("cd '" + book_.string() + "' && git " + args);
  }
  static void commit(const std::string& tag) {
    ASSERT_EQ(git("add -A").exit_code, 0);
    ASSERT_EQ(git("commit -q --allow-empty -m " + tag).exit_code, 0);
    ASSERT_EQ(git("tag " + tag).exit_code, 0);
  }

  // `bookbuild diff --format json ARGS` in the book, with a temporary folder of its own that must be
  // left empty (the revisions it wrote are removed).
  static json diff(const std::string& args) {
    const fs::path tmp = root_ / "tmp";
    fs::create_directories(tmp);
    auto r = run_command("cd '" + book_.string() + "' && TMPDIR='" + tmp.string() +
                         "' '" BOOKBUILD_EXE "' diff --format json " + args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::is_empty(tmp)) << "a revision was left in the temporary folder";
    EXPECT_EQ(git("status --porcelain").out, "") << "the work tree was touched";
    return json::parse(r.out);
  }

  static bb::book::Config config() {
    bb::Diagnostics diags;
    auto c = bb::book::load_config(book_, diags);
    EXPECT_TRUE(c.has_value());
    return *c;
  }

  static std::vector<std::string> lines_of(const fs::path& file) {
    std::vector<std::string> out;
    std::istringstream in(read_file(file));
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  }
  static std::string line_at(const std::string& file, int line) {
    auto lines = lines_of(book_ / file);
    return line >= 1 && static_cast<std::size_t>(line) <= lines.size()
               ? lines[static_cast<std::size_t>(line) - 1]
               : "";
  }
};

TEST_F(BookDiff, AModelConfigValueMovesTheSameNumbersInEveryEditionAtTheLinesThatComputeThem) {
  // The model the book computes most with: the config whose name its expressions name most often.
  const fs::path models = book_ / "calculations/configs/models";
  fs::path config_file;
  std::size_t best = 0;
  std::string all;
  for (const auto& e : config().editions)
    for (const auto& c : e.chapters) all += read_file(book_ / e.folder / c.file);
  for (const auto& m : fs::directory_iterator(models)) {
    const std::string name = m.path().filename().string();
    std::size_t n = 0;
    for (auto at = all.find("(" + name + ")"); at != std::string::npos;
         at = all.find("(" + name + ")", at + 1))
      ++n;
    if (n > best) best = n, config_file = m.path() / "config.json";
  }
  ASSERT_FALSE(config_file.empty());
  json cfg = json::parse(read_file(config_file));
  const int layers = cfg["num_hidden_layers"].get<int>();
  cfg["num_hidden_layers"] = layers + 4;
  write_file(config_file, cfg.dump(2) + "\n");
  commit("config");
  const json d = diff("base config");

  // Every edition moves the same numbers.
  const auto& per = d["summary"]["by_edition"];
  ASSERT_EQ(per.size(), 4u);
  const int first = per.begin()->get<int>();
  EXPECT_GT(first, 0);
  for (const auto& [edition, n] : per.items()) EXPECT_EQ(n.get<int>(), first) << edition;
  EXPECT_EQ(d["drift"].size(), 0u) << "computed numbers move in every edition together";

  // Each computed number at a line that computes it, showing what `check numbers` shows there.
  auto r = run_bookbuild("--book '" + book_.string() + "' check numbers --format json");
  std::map<std::string, std::string> shown;
  const json check = json::parse(r.out);
  for (const auto& b : check["bindings"]) shown[b["place"]] = b["shown"];
  ASSERT_FALSE(shown.empty()) << r.err;
  int computed = 0;
  for (const auto& c : d["changes"]) {
    const std::string kind = c["kind"], file = c["file"];
    if (kind != "computed" && kind != "bound" && kind != "bound-source") continue;
    EXPECT_NE(line_at(file, c["line"]).find(c["what"].get<std::string>()), std::string::npos)
        << file << ":" << c["line"] << " does not compute " << c["what"];
    if (kind != "computed") continue;
    ++computed;
    const std::string place =
        file + ":" + std::to_string(c["line"].get<int>()) + ":" + std::to_string(c["col"].get<int>());
    EXPECT_EQ(c["after"], shown[place]) << place;
    EXPECT_NE(c["before"], c["after"]);
  }
  EXPECT_GT(computed, 0);

  // The charts it redraws, in every edition alike.
  std::map<std::string, int> redrawn;
  for (const auto& x : d["redraws"]) {
    ++redrawn[x["edition"]];
    EXPECT_TRUE(x["spec"].get<std::string>().ends_with(".chart.toml"));
  }
  ASSERT_EQ(redrawn.size(), 4u);
  for (const auto& [edition, n] : redrawn) EXPECT_EQ(n, redrawn.begin()->second) << edition;

  // The data file and its one value.
  ASSERT_EQ(d["data"].size(), 1u);
  EXPECT_EQ(d["data"][0]["file"], config_file.lexically_relative(book_).generic_string());
  ASSERT_EQ(d["data"][0]["fields"].size(), 1u);
  EXPECT_EQ(d["data"][0]["fields"][0]["pointer"], "/num_hidden_layers");
  EXPECT_EQ(d["data"][0]["fields"][0]["before"], std::to_string(layers));
  EXPECT_EQ(d["data"][0]["fields"][0]["after"], std::to_string(layers + 4));
}

TEST_F(BookDiff, ProseOnlyMovesNoNumber) {
  // A sentence without digits added to a paragraph of prose in every chapter of every edition.
  for (const auto& e : config().editions)
    for (const auto& c : e.chapters) {
      auto lines = lines_of(book_ / e.folder / c.file);
      for (auto& l : lines)
        if (l.size() > 40 && std::isalpha(static_cast<unsigned char>(l[0])) == 0 && l[0] != '#' &&
            l[0] != '|' && l[0] != '!' && l[0] != '$' && l[0] != '>' && l[0] != '-' && l[0] != '[' &&
            l[0] != '`' && l[0] != ' ' && l.find_first_of("{}@") == std::string::npos) {
          l += " Words.";
          break;
        }
      std::string text;
      for (const auto& l : lines) text += l + "\n";
      write_file(book_ / e.folder / c.file, text);
    }
  commit("prose");
  ASSERT_NE(git("diff --stat base prose").out, "");
  const json d = diff("base prose");
  EXPECT_EQ(d["changes"], json::array());
  EXPECT_EQ(d["drift"], json::array());
  EXPECT_EQ(d["redraws"], json::array());
  EXPECT_EQ(d["data"], json::array());
}

// The first number of kind `pattern` (group 1: the number) in a source chapter whose every translation
// has one of the same kind and number: the source chapter's place and the change made.
struct Edit {
  std::size_t chapter = 0;
  fs::path file;
  int line = 0;
  std::string number, found, key;
};
Edit first_shared(const bb::book::Config& cfg, const std::regex& pattern, bool same_key) {
  const auto& src = cfg.source();
  for (std::size_t i = 0; i < src.chapters.size(); ++i) {
    const std::string text = read_file(cfg.root / src.folder / src.chapters[i].file);
    for (std::sregex_iterator m(text.begin(), text.end(), pattern), end; m != end; ++m) {
      const std::string n = (*m)[1], key = m->size() > 2 ? (*m)[2].str() : "";
      bool everywhere = true;
      for (const auto& e : cfg.editions) {
        if (e.id == src.id) continue;
        const std::string t = read_file(cfg.root / e.folder / e.chapters[i].file);
        bool has = false;
        for (std::sregex_iterator x(t.begin(), t.end(), pattern); x != end && !has; ++x)
          has = (*x)[1] == n && (!same_key || (*x)[2] == key);
        everywhere = everywhere && has;
      }
      if (!everywhere) continue;
      const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + m->position(), '\n'));
      return {i, cfg.root / src.folder / src.chapters[i].file, line, n, m->str(), key};
    }
  }
  return {};
}

void expect_source_change_and_drift(const json& d, const bb::book::Config& cfg, const Edit& e,
                                    const std::string& kind, const std::string& changed_to,
                                    const std::string& translation_marker) {
  const std::string file = e.file.lexically_relative(cfg.root).generic_string();
  std::size_t at_edit = 0;
  for (const auto& c : d["changes"]) {
    EXPECT_EQ(c["edition"], cfg.source().id) << "a translation moved: " << c.dump();
    if (c["file"] == file && c["line"] == e.line && c["kind"] == kind) {
      ++at_edit;
      EXPECT_NE(c["before"].get<std::string>().find(e.number), std::string::npos);
      EXPECT_NE(c["after"].get<std::string>().find(changed_to), std::string::npos);
    }
  }
  EXPECT_EQ(at_edit, 1u) << d["changes"].dump(1);
  std::set<std::string> drifted;
  for (const auto& x : d["drift"]) {
    drifted.insert(x["edition"]);
    const auto& ed = *std::find_if(cfg.editions.begin(), cfg.editions.end(),
                                   [&](const auto& y) { return y.id == x["edition"]; });
    EXPECT_EQ(x["file"], (ed.folder / ed.chapters[e.chapter].file).generic_string());
    EXPECT_TRUE(x["text"].get<std::string>().starts_with(e.number)) << x.dump();
    const std::string there = BookDiff::line_at(x["file"], x["line"]);
    EXPECT_NE(there.find(translation_marker), std::string::npos) << x.dump() << "\n" << there;
    EXPECT_EQ(x["source"]["file"], file);
  }
  EXPECT_EQ(drifted.size(), cfg.editions.size() - 1) << d["drift"].dump(1);
  EXPECT_EQ(d["drift"].size(), cfg.editions.size() - 1);
}

TEST_F(BookDiff, ATypedNumberChangedInTheSourceOnlyDriftsInEveryTranslation) {
  const auto cfg = config();
  const Edit e = first_shared(cfg, std::regex(R"(\[(\d+)[^\]\d{}]*\]\{\.typed\})"), false);
  ASSERT_FALSE(e.file.empty()) << "no typed number shared by every edition";
  const std::string doubled = std::to_string(2 * std::stoi(e.number));
  std::string text = read_file(e.file);
  text.replace(
      text.find(e.found), e.found.size(),
      std::regex_replace(e.found, std::regex(R"(\d+)"), doubled, std::regex_constants::format_first_only));
  write_file(e.file, text);
  commit("typed");
  expect_source_change_and_drift(diff("base typed"), cfg, e, "typed", doubled, "{.typed}");
}

TEST_F(BookDiff, ABoundLiteralChangedInTheSourceOnlyDriftsInEveryTranslation) {
  const auto cfg = config();
  const Edit e = first_shared(cfg, std::regex(R"(\[(\d+)\]\{calc=([^}]+)\})"), true);
  ASSERT_FALSE(e.file.empty()) << "no bound literal shared by every edition";
  const std::string next = std::to_string(std::stoi(e.number) + 1);
  std::string text = read_file(e.file);
  text.replace(text.find(e.found), e.found.size(), "[" + next + "]{calc=" + e.key + "}");
  write_file(e.file, text);
  commit("bound");
  expect_source_change_and_drift(diff("base bound"), cfg, e, "bound", next, "calc=" + e.key);
}

TEST_F(BookDiff, ASectionInsertedShiftsTheNumbersAfterItAndTheWordsOfTheirReferences) {
  // A new section before the first second-level heading of the source edition's first numbered chapter.
  const auto cfg = config();
  const auto& src = cfg.source();
  const auto chapter =
      std::find_if(src.chapters.begin(), src.chapters.end(), [](const auto& c) { return c.number > 0; });
  ASSERT_NE(chapter, src.chapters.end());
  const fs::path file = cfg.root / src.folder / chapter->file;
  std::string text = read_file(file);
  const auto at = text.find("\n## ");
  ASSERT_NE(at, std::string::npos);
  text.insert(at + 1, "## Inserted\n\nWords.\n\n");
  write_file(file, text);
  commit("section");
  const json d = diff("base section");
  const std::string rel = file.lexically_relative(cfg.root).generic_string();
  int numbered = 0, added = 0;
  for (const auto& c : d["changes"]) {
    const std::string there = line_at(c["file"], c["line"]);
    EXPECT_EQ(c["edition"], src.id) << c.dump();
    if (c["kind"] == "numbered") {
      ++numbered;
      EXPECT_EQ(c["file"], rel) << c.dump();
      EXPECT_TRUE(there.starts_with("#")) << c.dump() << "\n" << there;
      if (c["before"] == "") ++added;
    } else {
      EXPECT_EQ(c["kind"], "crossref") << c.dump();
      EXPECT_NE(there.find("@" + c["what"].get<std::string>().substr(1)), std::string::npos) << c.dump();
    }
  }
  EXPECT_EQ(added, 1);
  EXPECT_GT(numbered, 1) << "the sections after the new one keep their numbers";
  EXPECT_EQ(d["drift"], json::array());
}

TEST_F(BookDiff, DefaultsToTheMergeBaseWithMainAgainstTheWorkTreeAndIsStable) {
  const json d = diff("");
  EXPECT_NE(d["base"]["revision"].get<std::string>().find("main"), std::string::npos);
  EXPECT_EQ(d["base"]["commit"], git("rev-parse HEAD").out.substr(0, 40));
  EXPECT_EQ(d["head"]["commit"], "");
  EXPECT_EQ(d["changes"], json::array());
  // Two runs print the same.
  write_file(book_ / "manuscripts" / "x.txt", "not part of the book\n");
  commit("other");
  EXPECT_EQ(diff("base other").dump(), diff("base other").dump());
}

TEST(BookDiffUsage, ARevisionThatNamesNoCommitIsAUsageError) {
  TempDir dir("bb-diff-usage");
  ASSERT_EQ(
      run_command("cd '" + dir.path.string() + "' && git init -q && git -c user.name=t -c user.email=t@e " +
                  "commit -q --allow-empty -m c")
          .exit_code,
      0);
  auto r = run_command("cd '" + dir.path.string() + "' && '" BOOKBUILD_EXE "' diff no-such-revision");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no-such-revision"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

// The git module (repo/git_module.h) holds every libgit2 call: for a book inside a git work tree, a
// module that cannot be loaded is an error of the installation (exit 3, naming the file), for `diff` as
// for a build, not a book outside git; a run that reads no repository does not load it.
TEST(BookDiffUsage, AGitModuleThatCannotBeLoadedIsAnInstallationError) {
  TempDir dir("bb-diff-no-module");
  const fs::path book = dir.path / "book";
  ASSERT_EQ(run_command("'" BOOKBUILD_EXE "' init '" + book.string() + "'").exit_code, 0);
  ASSERT_EQ(run_command("cd '" + book.string() + "' && git init -q && git add -A && git -c user.name=t -c " +
                        "user.email=t@e commit -q -m c")
                .exit_code,
            0);
  const std::string without =
      "cd '" + book.string() + "' && BOOKBUILD_GIT_MODULE=/nonexistent/bookbuild_git.so '" BOOKBUILD_EXE "' ";
  EXPECT_EQ(run_command(without + "--version").exit_code, 0);
  for (const std::string& args : {std::string("diff HEAD"), std::string("diff"),
                                  "-q --out '" + (dir.path / "out").string() + "' site"}) {
    auto r = run_command(without + args);
    EXPECT_EQ(r.exit_code, 3) << args << ": " << r.err;
    EXPECT_NE(r.err.find("cannot load /nonexistent/bookbuild_git.so"), std::string::npos)
        << args << ": " << r.err;
  }
  EXPECT_EQ(run_command("cd '" + book.string() + "' && '" BOOKBUILD_EXE "' -q --out '" +
                        (dir.path / "out").string() + "' site")
                .exit_code,
            0);
}

}  // namespace
