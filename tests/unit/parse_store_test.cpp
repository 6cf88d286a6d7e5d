// The parse store (book/parse_store.hpp): a stored parse reads back as the very tree, diagnostics and
// converted formulas the front end and the converter gave, serves only its own file, executable and options,
// and damaged bytes are a miss; through the CLI, a rebuild reads unchanged chapters back and parses changed
// ones.
#include <fstream>

#include "book/parse_store.hpp"
#include "markdown/frontend.hpp"
#include "test_support.hpp"

namespace bb::book {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStamp = "exe 1:2:3:4";
constexpr SourceId kId{7, 42, 1000, 1'700'000'000'000'000'000};

// Every field of two trees, locations included (doc::dump leaves some out).
void expect_same_tree(const doc::Node& a, const doc::Node& b, const std::string& where) {
  ASSERT_EQ(a.kind, b.kind) << where;
  EXPECT_EQ(a.loc.path.get(), b.loc.path.get()) << where;
  EXPECT_EQ(a.loc.line, b.loc.line) << where;
  EXPECT_EQ(a.loc.col, b.loc.col) << where;
  EXPECT_EQ(a.text, b.text) << where;
  EXPECT_EQ(a.extra_if() != nullptr, b.extra_if() != nullptr) << where;
  EXPECT_EQ(a.rare_if() != nullptr, b.rare_if() != nullptr) << where;
  EXPECT_EQ(a.classes(), b.classes()) << where;
  EXPECT_EQ(a.attrs(), b.attrs()) << where;
  EXPECT_EQ(a.id(), b.id()) << where;
  EXPECT_EQ(a.number(), b.number()) << where;
  EXPECT_EQ(a.info(), b.info()) << where;
  EXPECT_EQ(a.url(), b.url()) << where;
  EXPECT_EQ(a.title(), b.title()) << where;
  EXPECT_EQ(a.level(), b.level()) << where;
  EXPECT_EQ(a.start(), b.start()) << where;
  EXPECT_EQ(a.tight(), b.tight()) << where;
  EXPECT_EQ(a.aligns(), b.aligns()) << where;
  ASSERT_EQ(a.caption().size(), b.caption().size()) << where;
  for (std::size_t i = 0; i < a.caption().size(); ++i)
    expect_same_tree(a.caption()[i], b.caption()[i], where + "/caption" + std::to_string(i));
  ASSERT_EQ(a.children.size(), b.children.size()) << where;
  for (std::size_t i = 0; i < a.children.size(); ++i)
    expect_same_tree(a.children[i], b.children[i], where + "/" + std::to_string(i));
}

// A fixture parsed, with its formulas converted, as the store keeps it.
StoredParse parse_fixture(const fs::path& file, const markdown::Options& options = {}) {
  Diagnostics diags;
  StoredParse p;
  p.root = markdown::parse_file(file, diags, options);
  p.diags = diags.all();
  doc::walk(p.root, [&](const doc::Node& n) {
    if (n.kind == doc::Kind::InlineMath || n.kind == doc::Kind::DisplayMath)
      p.formulas.push_back({n.text, n.kind == doc::Kind::DisplayMath,
                            math::to_mathml(n.text, n.kind == doc::Kind::DisplayMath)});
  });
  return p;
}

std::vector<fs::path> markdown_fixtures() {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(test::fixtures()))
    if (e.is_regular_file() && e.path().extension() == ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ParseStore, EveryFixtureReadsBackAsTheSameTreeDiagnosticsAndFormulas) {
  auto files = markdown_fixtures();
  ASSERT_GT(files.size(), 10u);
  std::size_t diagnostics = 0, formulas = 0, formula_errors = 0, tags = 0;
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    StoredParse parse = parse_fixture(file);
    std::string bytes = encode_parse(kStamp, file, kId, {}, parse);
    ASSERT_FALSE(bytes.empty());
    auto back = decode_parse(bytes, kStamp, file, kId, {});
    ASSERT_TRUE(back.has_value());
    expect_same_tree(parse.root, back->root, "root");
    ASSERT_EQ(parse.diags.size(), back->diags.size());
    for (std::size_t i = 0; i < parse.diags.size(); ++i) {
      EXPECT_EQ(parse.diags[i].severity, back->diags[i].severity);
      EXPECT_EQ(parse.diags[i].loc.path.get(), back->diags[i].loc.path.get());
      EXPECT_EQ(parse.diags[i].loc.line, back->diags[i].loc.line);
      EXPECT_EQ(parse.diags[i].loc.col, back->diags[i].loc.col);
      EXPECT_EQ(parse.diags[i].message, back->diags[i].message);
      EXPECT_EQ(parse.diags[i].check, back->diags[i].check);
    }
    ASSERT_EQ(parse.formulas.size(), back->formulas.size());
    for (std::size_t i = 0; i < parse.formulas.size(); ++i) {
      const auto &a = parse.formulas[i], &b = back->formulas[i];
      EXPECT_EQ(a.tex, b.tex);
      EXPECT_EQ(a.display, b.display);
      EXPECT_EQ(a.result.mathml, b.result.mathml);
      ASSERT_EQ(a.result.errors.size(), b.result.errors.size());
      for (std::size_t e = 0; e < a.result.errors.size(); ++e) {
        EXPECT_EQ(a.result.errors[e].offset, b.result.errors[e].offset);
        EXPECT_EQ(a.result.errors[e].message, b.result.errors[e].message);
      }
      ASSERT_EQ(a.result.tag.has_value(), b.result.tag.has_value());
      if (a.result.tag) {
        EXPECT_EQ(a.result.tag->text, b.result.tag->text);
        EXPECT_EQ(a.result.tag->starred, b.result.tag->starred);
        EXPECT_EQ(a.result.tag->begin, b.result.tag->begin);
        EXPECT_EQ(a.result.tag->end, b.result.tag->end);
      }
      formula_errors += a.result.errors.size();
      tags += a.result.tag.has_value();
    }
    formulas += parse.formulas.size();
    diagnostics += parse.diags.size();
  }
  EXPECT_GT(diagnostics, 0u);  // the fixtures with problems in them were among those stored
  EXPECT_GT(formulas, 0u);     // and those with formulas, with errors and with \tag
  EXPECT_GT(formula_errors, 0u);
  EXPECT_GT(tags, 0u);
}

TEST(ParseStore, AStoredParseServesOnlyItsOwnFileExecutableAndOptions) {
  const fs::path file = test::fixtures() / "frontend" / "figures.md";
  StoredParse parse = parse_fixture(file);
  const std::string bytes = encode_parse(kStamp, file, kId, {}, parse);
  ASSERT_TRUE(decode_parse(bytes, kStamp, file, kId, {}).has_value());
  EXPECT_FALSE(decode_parse(bytes, "exe 1:2:3:5", file, kId, {}));                  // another bookbuild
  EXPECT_FALSE(decode_parse(bytes, "", file, kId, {}));                             // no executable known
  EXPECT_FALSE(decode_parse(bytes, kStamp, file.parent_path() / "x.md", kId, {}));  // another file
  for (SourceId changed : {SourceId{8, 42, 1000, kId.mtime_ns}, SourceId{7, 43, 1000, kId.mtime_ns},
                           SourceId{7, 42, 1001, kId.mtime_ns}, SourceId{7, 42, 1000, kId.mtime_ns + 1}})
    EXPECT_FALSE(decode_parse(bytes, kStamp, file, changed, {}));  // the file changed
  markdown::Options other;
  other.words.add("figure", "Abbildung");  // book.toml's lead words changed
  EXPECT_FALSE(decode_parse(bytes, kStamp, file, kId, other));
}

TEST(ParseStore, DamagedBytesAreAMissNeverACrash) {
  const fs::path file = test::fixtures() / "frontend" / "callouts.md";
  const std::string bytes = encode_parse(kStamp, file, kId, {}, parse_fixture(file));
  ASSERT_TRUE(decode_parse(bytes, kStamp, file, kId, {}).has_value());
  for (std::size_t n = 0; n < bytes.size(); n += 1 + n / 16)  // cut short
    EXPECT_FALSE(decode_parse(bytes.substr(0, n), kStamp, file, kId, {})) << n;
  for (std::size_t i = 0; i < bytes.size(); i += 7) {  // one byte changed: the checksum no longer holds
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x5A);
    EXPECT_FALSE(decode_parse(damaged, kStamp, file, kId, {})) << i;
  }
  // A damaged body under a checksum that matches it (what the checksum cannot see) reads as a miss or
  // as some tree, without reading past the end.
  const std::string header = parse_store_header(kStamp, file, kId, {});
  for (std::size_t i = header.size(); i + 8 < bytes.size(); i += 5) {
    std::string body = bytes.substr(0, bytes.size() - 8);
    body[i] = static_cast<char>(0xFF);
    const std::uint64_t sum = parse_store_checksum(body);
    for (int b = 0; b < 8; ++b) body += static_cast<char>((sum >> (8 * b)) & 0xFF);
    (void)decode_parse(body, kStamp, file, kId, {});
  }
}

// Through the CLI: the second build of an unchanged book reads its chapters back from
// <out>/.cache/parsed and writes the same outputs with the same warnings; a chapter changed since is
// parsed again; a damaged stored parse is parsed again too.
TEST(ParseStore, ARebuildReadsUnchangedChaptersBackAndParsesChangedOnes) {
  test::TempDir tmp("bb-parse-store");
  fs::copy(test::fixtures() / "books" / "mini", tmp.path / "book", fs::copy_options::recursive);
  const fs::path chapter = tmp.path / "book" / "book-en" / "chapter01.md";
  std::ofstream(chapter, std::ios::app) << "\nA note.[^unused]\n\n[^unused]: Never referenced.\n";
  std::ofstream(chapter, std::ios::app) << "\n[^spare]: Defined, never referenced.\n";
  // Settled: a file changed in the last two seconds is not stored (parse_store.hpp).
  auto settle = [](const fs::path& f) {
    fs::last_write_time(f, fs::file_time_type::clock::now() - std::chrono::minutes(5));
  };
  for (const auto& e : fs::recursive_directory_iterator(tmp.path / "book"))
    if (e.is_regular_file()) settle(e.path());
  const std::string args =
      "--book '" + (tmp.path / "book").string() + "' --out '" + (tmp.path / "out").string() + "' latex";
  auto first = test::run_bookbuild(args);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_NE(first.err.find("`[^spare]` is defined but never referenced"), std::string::npos) << first.err;
  const fs::path store = tmp.path / "out" / ".cache" / "parsed";
  ASSERT_TRUE(fs::is_directory(store));
  std::vector<fs::path> stored;
  for (const auto& e : fs::directory_iterator(store)) stored.push_back(e.path());
  EXPECT_EQ(stored.size(), 4u);  // every chapter of both editions
  const std::string tex = test::read_file(tmp.path / "out" / "latex" / "en" / "book.tex");

  // Unchanged: read back (the stored files are not rewritten), the same output and warnings.
  std::map<fs::path, fs::file_time_type> written;
  for (const auto& f : stored) written[f] = fs::last_write_time(f);
  auto second = test::run_bookbuild(args);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.err, first.err);
  EXPECT_EQ(test::read_file(tmp.path / "out" / "latex" / "en" / "book.tex"), tex);
  for (const auto& [f, time] : written) EXPECT_EQ(fs::last_write_time(f), time) << f;

  // Changed (same size, another time): parsed again.
  std::string text = test::read_file(chapter);
  const auto at = text.find("A note.");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 7, "B NOTE.");
  test::write_file(chapter, text);
  settle(chapter);
  auto third = test::run_bookbuild(args);
  ASSERT_EQ(third.exit_code, 0) << third.err;
  EXPECT_NE(test::read_file(tmp.path / "out" / "latex" / "en" / "book.tex").find("B NOTE."),
            std::string::npos);

  // Damaged stored parses: parsed again, the same output as a build without a store.
  for (const auto& f : stored) {
    std::string bytes = test::read_file(f);
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 1);
    test::write_file(f, bytes);
  }
  auto fourth = test::run_bookbuild(args);
  ASSERT_EQ(fourth.exit_code, 0) << fourth.err;
  EXPECT_EQ(fourth.err, third.err);
  const std::string after = test::read_file(tmp.path / "out" / "latex" / "en" / "book.tex");
  fs::remove_all(tmp.path / "out");
  auto fresh = test::run_bookbuild(args);
  ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
  EXPECT_EQ(test::read_file(tmp.path / "out" / "latex" / "en" / "book.tex"), after);
}

}  // namespace
}  // namespace bb::book
