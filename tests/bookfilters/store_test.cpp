// The filtered-tree store (bookfilters/filtered_store.hpp): an unchanged chapter runs no filter; a
// changed filter, filter option, chapter or answer to a question the filter asked runs it again; a
// damaged entry is ignored. Fixtures in store/ (store/README.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <sstream>

#include "book/book.hpp"
#include "bookfilters/book_filters.hpp"
#include "bookfilters/filtered_store.hpp"
#include "filters/pipeline.hpp"
#include "markdown/frontend.hpp"
#include "resolved_book.hpp"
#include "test_support.hpp"
#include "text/digest.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;
const fs::path kStore = BOOKFILTERS_STORE;

// The store in a folder of the test's own for as long as the test runs.
struct StoreInTemp {
  test::TempDir dir{"bb-filtered"};
  StoreInTemp() { bookfilters::use_filtered_store(dir.path / "filtered"); }
  ~StoreInTemp() { bookfilters::use_filtered_store({}); }
  StoreInTemp(const StoreInTemp&) = delete;
  StoreInTemp& operator=(const StoreInTemp&) = delete;
};

// Chapter passes run and reused since `from`.
struct Counted {
  bookfilters::RunCounts from = bookfilters::run_counts();
  [[nodiscard]] std::uint64_t ran() const { return bookfilters::run_counts().ran - from.ran; }
  [[nodiscard]] std::uint64_t reused() const { return bookfilters::run_counts().reused - from.reused; }
};

// What the filter may ask: sec:kv's title is `title`, calc `answer` is `answer`.
bookfilters::Lookups lookups(const std::string& title = "The KV cache", long long answer = 42) {
  bookfilters::Lookups l;
  l.label = [title](const std::string& name) -> std::optional<bookfilters::LabelInfo> {
    if (name == "sec:kv") return bookfilters::LabelInfo{"section", "ch02", "sec-2-3", "2.3", title};
    if (name == "sec:other") return bookfilters::LabelInfo{"section", "ch03", "sec-3-1", "3.1", title};
    return std::nullopt;
  };
  l.calc = [answer](const std::string& expr, std::string&) -> std::optional<bookfilters::CalcValue> {
    if (expr == "answer") return bookfilters::CalcValue{true, answer, 0};
    throw std::runtime_error("unknown scenario `" + expr + "`");
  };
  return l;
}

// One run of store/asks.lua over store/asks.md (or `markdown`), as a build would: a chapter freshly
// parsed. Returns the tree it leaves and its diagnostics.
struct AsksRun {
  std::string markdown = test::read_file(kStore / "asks.md");
  bookfilters::Program program;
  bookfilters::Lookups lookups = bb::lookups();
  std::string format = "html";
  AsksRun() {
    program.entry.name = "filters/asks.lua";
    program.entry.path = kStore / "asks.lua";
    program.code = test::read_file(program.entry.path);
  }
  std::string operator()() const {
    Diagnostics diags;
    const fs::path md = kStore / "asks.md";
    book::Chapter chapter{"ch01", 1, md, markdown::parse(markdown, md, diags), "Asks"};
    book::Edition edition;
    edition.id = "en";
    edition.lang = "en";
    bookfilters::Place place{format, &edition, &chapter, kStore, book::FilterEntry::Stage::Resolved};
    bookfilters::run_filters({program}, chapter, place, lookups, diags);
    std::ostringstream out;
    out << doc::dump(chapter.root);
    diags.print(out, kStore);
    return out.str();
  }
};

TEST(FilteredStore, AnUnchangedChapterRunsNoFilter) {
  StoreInTemp store;
  AsksRun run;
  Counted counted;
  const std::string first = run();
  EXPECT_NE(first.find("sec:kv is 2.3 The KV cache; answer is 42"), std::string::npos) << first;
  EXPECT_EQ(counted.ran(), 1u);
  EXPECT_EQ(run(), first);
  EXPECT_EQ(run(), first);
  EXPECT_EQ(counted.ran(), 1u);
  EXPECT_EQ(counted.reused(), 2u);
}

// Each change below would show in the result: the store must not hand back the old one.
TEST(FilteredStore, AChangeOfWhatTheFilterSawRunsItAgain) {
  StoreInTemp store;
  const AsksRun base;
  const std::string before = base();
  struct Change {
    const char* what;
    std::function<void(AsksRun&)> apply;
    const char* shows;  // in the new result, not in the old
  };
  const std::vector<Change> changes = {
      {"the filter's text",
       [](AsksRun& r) { r.program.code.replace(r.program.code.find("\"!\""), 3, "\"?\""); },
       "paragraph about the KV cache.?"},
      {"a filter option (its outputs)",
       [](AsksRun& r) {
         r.program.entry.formats = {"html", "epub"};
       },
       nullptr},
      {"the chapter", [](AsksRun& r) { r.markdown += "\nA second paragraph.\n"; }, "A second paragraph.!"},
      {"the output format", [](AsksRun& r) { r.format = "epub"; }, nullptr},
      {"the title of the label the filter asked about",
       [](AsksRun& r) { r.lookups = lookups("History state"); }, "sec:kv is 2.3 History state"},
      {"the value of the calc expression the filter asked about",
       [](AsksRun& r) { r.lookups = lookups("The KV cache", 43); }, "answer is 43"},
  };
  for (const auto& change : changes) {
    AsksRun changed;
    change.apply(changed);
    Counted counted;
    const std::string after = changed();
    EXPECT_EQ(counted.ran(), 1u) << change.what;
    if (change.shows) {
      EXPECT_NE(after.find(change.shows), std::string::npos) << change.what << "\n" << after;
      EXPECT_EQ(before.find(change.shows), std::string::npos) << change.what;
    }
    // And the unchanged run still finds its own entry, or runs again: never another's result.
    EXPECT_EQ(base(), before) << change.what;
  }
}

// A label the filter did not ask about is no reason to run it again.
TEST(FilteredStore, AnAnswerTheFilterDidNotAskForChangesNothing) {
  StoreInTemp store;
  AsksRun run;
  const std::string first = run();
  run.lookups = lookups("The KV cache");
  auto label = run.lookups.label;
  run.lookups.label = [label](const std::string& name) -> std::optional<bookfilters::LabelInfo> {
    if (name == "sec:unasked") return bookfilters::LabelInfo{"figure", "ch09", "fig-9-1", "9.1", "New"};
    return label(name);
  };
  Counted counted;
  EXPECT_EQ(run(), first);
  EXPECT_EQ(counted.reused(), 1u);
  EXPECT_EQ(counted.ran(), 0u);
}

// A filter that said something (here: printed) is run again, so that the note is given again.
TEST(FilteredStore, ARunWithDiagnosticsIsNotKept) {
  StoreInTemp store;
  AsksRun run;
  run.program.code += "\nfunction Para(p) print('seen') end\n";
  const std::string first = run();
  EXPECT_NE(first.find("printed: seen"), std::string::npos) << first;
  Counted counted;
  EXPECT_EQ(run(), first);
  EXPECT_EQ(counted.ran(), 1u);
  EXPECT_EQ(counted.reused(), 0u);
}

// A damaged, truncated, emptied, foreign or replaced entry is not used: the filter runs again and the
// result is the filter's own, with no diagnostic.
TEST(FilteredStore, ADamagedEntryIsIgnored) {
  StoreInTemp store;
  const AsksRun run;
  const std::string expected = run();
  std::vector<fs::path> entries;
  for (const auto& e : fs::recursive_directory_iterator(store.dir.path))
    if (e.is_regular_file()) entries.push_back(e.path());
  ASSERT_EQ(entries.size(), 1u);
  const fs::path entry = entries.front();
  const std::string good = test::read_file(entry);
  std::vector<std::pair<std::string, std::string>> damaged = {
      {"empty", ""},
      {"truncated", good.substr(0, good.size() / 2)},
      {"one byte changed near the end", good},
      {"one byte changed, checksum fixed", ""},
      {"garbage", std::string(4096, '\xFF')},
      {"a folder", ""},
  };
  damaged[2].second[good.size() - 12] ^= 0x20;
  {  // A plausible body behind a good checksum: the tree must still decode, or be refused.
    std::string body = good.substr(0, good.size() - 8);
    body[body.size() - 3] = '\x7F';
    const std::uint64_t sum = text::checksum64(body);
    for (int i = 0; i < 8; ++i) body += static_cast<char>((sum >> (8 * i)) & 0xFF);
    damaged[3].second = body;
  }
  for (const auto& [what, bytes] : damaged) {
    fs::remove_all(entry);
    if (what == "a folder")
      fs::create_directories(entry / "x");
    else
      test::write_file(entry, bytes);
    Counted counted;
    EXPECT_EQ(run(), expected) << what;
    EXPECT_EQ(counted.ran(), 1u) << what;
  }
}

// The decoder reads what a stranger could leave in <out>/.cache: every prefix of a good entry, with
// its checksum made right, is refused or read, never a crash (the fuzz harness does more of this).
TEST(FilteredStore, EveryTruncationOfAnEntryIsRefused) {
  Diagnostics diags;
  const fs::path md = kStore / "asks.md";
  const doc::Node input = markdown::parse(test::read_file(md), md, diags);
  // The filters' result: the input's blocks, and one block made.
  doc::Node result = input;
  result.children.push_back(markdown::parse("A made paragraph.\n", md, diags).children.at(0));
  const std::string header = "BBFT header";
  const std::vector<bookfilters::Question> questions = {
      {bookfilters::Question::Kind::Label, "sec:kv",
       bookfilters::ask(lookups(), bookfilters::Question::Kind::Label, "sec:kv")}};
  const std::string good =
      bookfilters::encode_filtered(header, bookfilters::input_blocks(input), result, questions);
  doc::Node root = input;
  ASSERT_TRUE(bookfilters::decode_filtered(good, header, lookups(), root));
  EXPECT_EQ(doc::dump(root), doc::dump(result));
  root = input;
  EXPECT_FALSE(bookfilters::decode_filtered(good, header, lookups("changed"), root));
  EXPECT_FALSE(bookfilters::decode_filtered(good, "BBFT other", lookups(), root));
  EXPECT_EQ(doc::dump(root), doc::dump(input));
  for (std::size_t n = header.size(); n + 8 < good.size(); ++n) {
    std::string body = good.substr(0, n);
    const std::uint64_t sum = text::checksum64(body);
    for (int i = 0; i < 8; ++i) body += static_cast<char>((sum >> (8 * i)) & 0xFF);
    EXPECT_FALSE(bookfilters::decode_filtered(body, header, lookups(), root)) << n;
    EXPECT_EQ(doc::dump(root), doc::dump(input)) << n;
  }
}

// A stored result names the blocks the filters left as they were instead of holding them: read back
// over the same input, it is the filters' result, whichever blocks they changed, moved, dropped or
// made; an entry naming blocks the tree does not have is refused.
TEST(FilteredStore, AResultKeepsTheInputsUnchangedBlocks) {
  Diagnostics diags;
  const fs::path md = kStore / "asks.md";
  const doc::Node input = markdown::parse("# T\n\nOne.\n\nTwo.\n\nOne.\n\nThree.\n", md, diags);
  ASSERT_EQ(input.children.size(), 5u);
  doc::Node result(doc::Kind::Document, input.loc);
  result.children = {input.children[4], input.children[2], input.children[2], input.children[0]};
  result.children[1].children.at(0).text = "Two, changed.";
  result.children.push_back(markdown::parse("Made.\n", md, diags).children.at(0));
  const auto blocks = bookfilters::input_blocks(input);
  const std::string bytes = bookfilters::encode_filtered("BBFT", blocks, result, {});
  doc::Node root = input;
  ASSERT_TRUE(bookfilters::decode_filtered(bytes, "BBFT", lookups(), root));
  EXPECT_EQ(doc::dump(root), doc::dump(result));
  // Holding only the changed and made blocks, it is smaller than the whole result.
  EXPECT_LT(bytes.size(), bookfilters::encode_filtered("BBFT", {}, result, {}).size());
  // Over a tree with fewer blocks than it names: refused, the tree left as it was.
  doc::Node shorter = input;
  shorter.children.pop_back();
  const std::string before = doc::dump(shorter);
  EXPECT_FALSE(bookfilters::decode_filtered(bytes, "BBFT", lookups(), shorter));
  EXPECT_EQ(doc::dump(shorter), before);
}

// A whole book through the resolver: chapter 1 links to the section chapter 2 labels; chapter 3 asks
// nothing. Returns the resolved book's chapters' link titles and plain text, one chapter a line.
std::string resolve_book(const fs::path& root) {
  Diagnostics diags;
  auto resolved = test::resolved_book(root, diags);
  EXPECT_TRUE(resolved);
  if (!resolved) return {};
  const book::Book& book = *resolved;
  std::string out;
  for (const auto& ch : book.editions.at(0).chapters) {
    out += ch.key + ": " + doc::plain_text(ch.root);
    doc::walk(ch.root, [&](const doc::Node& n) {
      if (n.kind == doc::Kind::Link && n.has_class("glossary")) out += " [link: " + n.title() + "]";
    });
    out += "\n";
  }
  for (const auto& d : diags.all())
    if (d.severity == Severity::Error) out += "error: " + d.message + "\n";
  return out;
}

TEST(FilteredStore, AChangedLabelInAnotherChapterRunsTheFilterThatAskedForIt) {
  StoreInTemp store;
  const fs::path book = store.dir.path / "book";
  fs::copy(kStore / "book", book, fs::copy_options::recursive);
  Counted first;
  const std::string before = resolve_book(book);
  EXPECT_NE(before.find("[link: 2.1 History state]"), std::string::npos) << before;
  EXPECT_EQ(first.ran(), 3u);

  Counted unchanged;
  EXPECT_EQ(resolve_book(book), before);
  EXPECT_EQ(unchanged.ran(), 0u);
  EXPECT_EQ(unchanged.reused(), 3u);

  // Chapter 2's section gets another title: chapter 2's own tree changed, and chapter 1 asked about
  // its label; chapter 3 did not.
  std::string two = test::read_file(book / "en/02.md");
  two.replace(two.find("History state"), 13, "The KV cache");
  test::write_file(book / "en/02.md", two);
  Counted edited;
  const std::string after = resolve_book(book);
  EXPECT_NE(after.find("[link: 2.1 The KV cache]"), std::string::npos) << after;
  EXPECT_EQ(edited.ran(), 2u);
  EXPECT_EQ(edited.reused(), 1u);

  // Editing the filter runs it on every chapter it applies to.
  std::string term = test::read_file(book / "filters/term.lua");
  term.replace(term.find("target.number .. \" \" .. target.title"), 36, "target.title");
  test::write_file(book / "filters/term.lua", term);
  Counted filter_edited;
  EXPECT_NE(resolve_book(book).find("[link: The KV cache]"), std::string::npos);
  EXPECT_EQ(filter_edited.ran(), 3u);
}

// The command line: `site` keeps the store in <out>/.cache/filtered, and a second build of an
// unchanged book runs no filter (BOOKBUILD_TIMINGS prints the counts).
TEST(FilteredStore, ASecondSiteBuildRunsNoFilter) {
  test::TempDir dir("bb-filtered-site");
  fs::copy(kStore / "book", dir.path / "book", fs::copy_options::recursive);
  const std::string args = "--book '" + (dir.path / "book").string() + "' --out '" +
                           (dir.path / "out").string() + "' --quiet site";
  auto first = test::run_command("BOOKBUILD_TIMINGS=1 '" BOOKBUILD_EXE "' " + args);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.err.find("book filters: 3 chapter passes run, 0 reused"), std::string::npos) << first.err;
  EXPECT_TRUE(fs::is_directory(dir.path / "out/.cache/filtered"));
  auto second = test::run_command("BOOKBUILD_TIMINGS=1 '" BOOKBUILD_EXE "' " + args);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.err.find("book filters: 0 chapter passes run, 3 reused"), std::string::npos) << second.err;
  EXPECT_NE(
      test::read_file(dir.path / "out/site/en/ch01.html").find("title=\"2.1 History state\">KV cache</a>"),
      std::string::npos);
}

}  // namespace
}  // namespace bb
