// numbers.lock (docs/numbers.md, "The lock"): after `check numbers --lock`, every locked number of the
// real book's samples and of the citations fixture is mutated — a digit of every number, the value of
// every locked field, the removal of every field, of every number — and each change must be an error
// at the right place. The samples skip cleanly when ../shared is absent.
#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <set>

#include "check/citations_derive.hpp"
#include "check/typed_numbers.hpp"
#include "test_support.hpp"

namespace bb {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// A copy of a book in a folder of the test's own, with its lock written.
struct LockedBook {
  test::TempDir tmp{"bb-lock"};
  fs::path book;
  explicit LockedBook(const fs::path& source) {
    book = tmp.path / "book";
    fs::copy(source, book, fs::copy_options::recursive);
    for (const auto& e : fs::recursive_directory_iterator(book))
      fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
    fs::permissions(book, fs::perms::owner_write, fs::perm_options::add);
    auto r = run("check numbers --lock");
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  test::RunResult run(const std::string& args, bool quiet = true) const {
    return test::run_bookbuild("--book '" + book.string() + "' --out '" + (tmp.path / "out").string() + "' " +
                               (quiet ? "-q " : "") + args);
  }
  Json citations() const {
    const fs::path out = tmp.path / "report.json";
    run("check numbers --format json --output '" + out.string() + "'");
    return Json::parse(test::read_file(out))["citations"];
  }
  // The checked numbers that the lock holds.
  std::vector<Json> locked() const {
    std::vector<Json> out;
    const Json report = citations();  // kept: a temporary's member would not outlive the loop's start
    for (const auto& c : report["checked"])
      if (c.value("how", "") == "lock") out.push_back(c);
    return out;
  }
};

// Every `path:line:col: error:` of a run.
std::set<std::string> error_places(const std::string& err) {
  std::set<std::string> out;
  static const std::regex place(R"(^([^\s:][^:]*):(\d+):(\d+): error:)");
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, place)) out.insert(m[1].str() + ":" + m[2].str() + ":" + m[3].str());
  }
  return out;
}

std::string place(const Json& c) {
  return c["path"].get<std::string>() + ":" + std::to_string(c["line"].get<int>()) + ":" +
         std::to_string(c["col"].get<int>());
}

// Rewrites each number of `numbers` in its file with `change` applied to its digits, all at once (last
// column first on a line, so that earlier columns stay right). The number must stand at its column.
void mutate_numbers(const fs::path& book, const std::vector<Json>& numbers,
                    const std::function<std::string(const std::string&)>& change,
                    const std::function<bool(const std::string& line, std::size_t at)>& leave = nullptr) {
  std::map<std::string, std::vector<const Json*>> by_file;
  for (const auto& c : numbers) by_file[c["path"]].push_back(&c);
  for (auto& [file, list] : by_file) {
    std::vector<std::string> lines;
    std::istringstream in(test::read_file(book / file));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::sort(list.begin(), list.end(), [](const Json* a, const Json* b) {
      return std::make_pair((*a)["line"].get<int>(), (*a)["col"].get<int>()) >
             std::make_pair((*b)["line"].get<int>(), (*b)["col"].get<int>());
    });
    for (const Json* c : list) {
      std::string& line = lines.at((*c)["line"].get<std::size_t>() - 1);
      const std::string text = (*c)["text"];
      const std::size_t at = (*c)["col"].get<std::size_t>() - 1;
      ASSERT_EQ(line.compare(at, text.size(), text), 0)
          << file << ": `" << text << "` is not at " << place(*c);
      if (!leave || !leave(line, at)) line.replace(at, text.size(), change(text));
    }
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    test::write_file(book / file, out);
  }
}

// The last digit of a number, raised by one (9 becomes 0: still one digit changed).
std::string raise_last_digit(const std::string& text) {
  std::string out = text;
  const auto last = out.find_last_of("0123456789");
  out[last] = out[last] == '9' ? '0' : static_cast<char>(out[last] + 1);
  return out;
}

// The first digit of a number, changed (1 becomes 2, anything else 1).
std::string change_first_digit(const std::string& text) {
  std::string out = text;
  const auto first = out.find_first_of("0123456789");
  out[first] = out[first] == '1' ? '2' : '1';
  return out;
}

std::vector<fs::path> books() {
  std::vector<fs::path> out{test::fixtures() / "citations" / "book"};
  for (const char* c : {"zh-tw", "upstream"}) {
    const fs::path p = fs::path(BOOKBUILD_SOURCE_DIR) / ".." / "shared" / "corpus" / c;
    if (fs::is_directory(p)) out.push_back(p);
  }
  return out;
}

class Locked : public ::testing::TestWithParam<int> {
 protected:
  fs::path source() const {
    const auto all = books();
    if (static_cast<std::size_t>(GetParam()) >= all.size()) return {};
    return all[static_cast<std::size_t>(GetParam())];
  }
};

// Any one-digit change of any locked number is an error at that number: every locked number is
// changed at once (its last digit, then in a second run its first), and every one must be reported.
TEST_P(Locked, EveryChangedDigitOfEveryLockedNumberIsAnErrorAtIt) {
  if (source().empty()) GTEST_SKIP() << "../shared/corpus is not here";
  for (const auto& change : {raise_last_digit, change_first_digit}) {
    LockedBook b(source());
    const auto locked = b.locked();
    ASSERT_GT(locked.size(), 0u);
    mutate_numbers(b.book, locked, change);
    auto r = b.run("check numbers");
    EXPECT_NE(r.exit_code, 0);
    const auto errors = error_places(r.err);
    for (const auto& c : locked)
      EXPECT_TRUE(errors.count(place(c)))
          << "no error at " << place(c) << " for `" << c["text"].get<std::string>() << "` -> `"
          << change(c["text"]) << "`\n"
          << r.err.substr(0, 2000);
  }
}

// Every field a number is locked to, changed in its result file (all at once), is an error at every
// number locked to it, in every edition; removed, likewise.
TEST_P(Locked, ChangedOrRemovedFieldIsAnErrorAtEveryNumberLockedToIt) {
  if (source().empty()) GTEST_SKIP() << "../shared/corpus is not here";
  for (bool remove : {false, true}) {
    LockedBook b(source());
    const auto locked = b.locked();
    ASSERT_GT(locked.size(), 0u);
    std::map<std::string, std::set<std::string>> fields;  // result file → pointers
    for (const auto& c : locked) {
      fields[c["result"]].insert(c["field"]);
      // A derived number's second field ("results/x.json#/b", under calculations/) too.
      if (const std::string of = c.value("of", ""); !of.empty())
        fields["calculations/" + of.substr(0, of.find('#'))].insert(of.substr(of.find('#') + 1));
    }
    for (const auto& [file, pointers] : fields) {
      auto doc = nlohmann::ordered_json::parse(test::read_file(b.book / file));
      for (const auto& p : pointers) {
        const nlohmann::json::json_pointer ptr(p);
        if (remove) {
          auto& parent = doc[ptr.parent_pointer()];
          if (parent.is_object())
            parent.erase(ptr.back());
          else
            doc[ptr] = "removed";
        } else {
          auto& v = doc[ptr];
          // A number, or a numeric string or fraction object standing for one.
          v = v.is_number() ? nlohmann::ordered_json(v.get<double>() * 1.5 + 7)
                            : nlohmann::ordered_json(7.25);
        }
      }
      test::write_file(b.book / file, doc.dump(2));
    }
    auto r = b.run("check numbers");
    EXPECT_NE(r.exit_code, 0);
    const auto errors = error_places(r.err);
    for (const auto& c : locked)
      EXPECT_TRUE(errors.count(place(c)))
          << (remove ? "removed " : "changed ") << c["result"].get<std::string>()
          << c["field"].get<std::string>() << ": no error at " << place(c);
  }
}

// A locked number that is gone (its digits replaced by a word) is an error at its entry of the lock,
// quoting it; `--lock` then drops the entries and says so.
TEST_P(Locked, ALockedNumberNoLongerFoundIsAnErrorAtItsEntry) {
  if (source().empty()) GTEST_SKIP() << "../shared/corpus is not here";
  LockedBook b(source());
  const auto locked = b.locked();
  ASSERT_GT(locked.size(), 0u);
  mutate_numbers(b.book, locked, [](const std::string&) { return std::string("many"); });
  auto r = b.run("check numbers");
  EXPECT_NE(r.exit_code, 0);
  int lost = 0;
  for (std::size_t at = r.err.find("is no longer found there"); at != std::string::npos;
       at = r.err.find("is no longer found there", at + 1))
    ++lost;
  EXPECT_EQ(lost, static_cast<int>(locked.size())) << r.err.substr(0, 3000);
  EXPECT_NE(r.err.find("numbers.lock:"), std::string::npos);
  auto relock = b.run("check numbers --lock", false);
  std::smatch removed;
  ASSERT_TRUE(std::regex_search(relock.out, removed, std::regex(R"((\d+) removed)"))) << relock.out;
  EXPECT_GE(std::stoul(removed[1].str()), locked.size()) << relock.out;
  EXPECT_EQ(b.run("check numbers").exit_code, 0);
}

// Edits around a locked number (words added before it, the paragraph reflowed) keep it found and
// checked: no error, and the lock unchanged by --lock except for the contexts.
TEST_P(Locked, NearbyEditsKeepEveryLockedNumber) {
  if (source().empty()) GTEST_SKIP() << "../shared/corpus is not here";
  LockedBook b(source());
  const auto locked = b.locked();
  // Words right before each number; not inside a list or range of numbers ("0.28 and 41.8 ms",
  // "370–650 ns"), where words would end the list and change what the text says.
  mutate_numbers(
      b.book, locked, [](const std::string& t) { return "(as before) " + t; },
      [](const std::string& line, std::size_t at) {
        const std::size_t from = at > 16 ? at - 16 : 0;
        return line.substr(from, at - from).find_first_of("0123456789") != std::string::npos;
      });
  auto r = b.run("check numbers");
  EXPECT_EQ(r.exit_code, 0) << r.err.substr(0, 3000);
  EXPECT_EQ(r.err.find("no longer found"), std::string::npos);
  EXPECT_EQ(b.locked().size(), locked.size());
}

std::string book_name(const ::testing::TestParamInfo<int>& info) {
  static const char* names[] = {"fixture", "zh_tw", "upstream"};
  return names[info.param];
}
INSTANTIATE_TEST_SUITE_P(Books, Locked, ::testing::Values(0, 1, 2), book_name);

// An intended change: the text and its result change together; --lock takes the new digits and lists
// the entry as changed; an open entry resolved by hand (a field picked, or waived) is kept by --lock,
// and --strict fails only while a citing number is neither checked nor waived.
TEST(NumbersLock, IntendedChangesOpenEntriesAndStrict) {
  LockedBook b(test::fixtures() / "citations" / "book");
  const fs::path lock = b.book / "numbers.lock";
  std::string text = test::read_file(lock);
  ASSERT_NE(text.find("reason = \"ambiguous\""), std::string::npos) << text;
  // --strict: the open entries are errors.
  auto strict = b.run("check numbers --strict");
  EXPECT_NE(strict.exit_code, 0);
  EXPECT_NE(strict.err.find("checked against none of its fields (ambiguous)"), std::string::npos)
      << strict.err;
  // Pick the first candidate of the ambiguous entry; waive every other open entry.
  std::istringstream in(text);
  std::string out, line, pending;
  bool open = false;
  while (std::getline(in, line)) {
    if (line.rfind("reason = \"ambiguous\"", 0) == 0) {
      open = true;
      continue;
    }
    if (line.rfind("reason = ", 0) == 0) {
      out += "waive = \"a bound the text draws, not a value of the result\"\n";
      continue;
    }
    if (open && line.rfind("candidates = [\"", 0) == 0) {
      const auto start = line.find('"') + 1;
      out += "field = \"" + line.substr(start, line.find('"', start) - start) + "\"\n";
      open = false;
      continue;
    }
    out += line + "\n";
  }
  test::write_file(lock, out);
  auto now = b.run("check numbers --strict");
  EXPECT_EQ(now.exit_code, 0) << now.err;
  const auto c = b.citations();
  EXPECT_EQ(c["unchecked"].size(), 0u) << c.dump(2);
  EXPECT_GT(c["waived"].size(), 0u);
  // The hand's choices survive --lock.
  auto relock = b.run("check numbers --lock", false);
  EXPECT_EQ(relock.exit_code, 0) << relock.err;
  EXPECT_NE(relock.out.find("0 added, 0 changed, 0 removed"), std::string::npos) << relock.out;
  EXPECT_EQ(b.run("check numbers --strict").exit_code, 0);
}

// Every edition: a translation's number that its own text leaves ambiguous takes the field the source
// edition's same chapter locks; a change of that field is then an error in both editions, each at its
// own line.
TEST(NumbersLock, ATranslationTakesTheFieldItsSourceLocks) {
  test::TempDir tmp("bb-lock-editions");
  const fs::path book = tmp.path / "book";
  test::write_file(book / "calculations" / "results" / "sizes.json",
                   R"({"schema_version": 1, "weight_bytes": 8000000000, "cache_bytes": 8100000000})");
  test::write_file(book / "calculations" / "results" / "sizes.md", "# sizes\n");
  test::write_file(book / "calculations" / "scenarios" / "book.json",
                   R"({"schema_version": 1, "sizes": []})");
  test::write_file(book / "manuscripts" / "01-尺寸.md",
                   "# 第 1 章 尺寸\n\n权重占 8.0 GB。[结果](../calculations/results/sizes.md)\n");
  test::write_file(
      book / "book-en" / "chapter01.md",
      "# Chapter 1 Sizes\n\nThe weights take 8 GB. [results](../calculations/results/sizes.md)\n");
  auto run = [&](const std::string& args) {
    return test::run_bookbuild("--book '" + book.string() + "' --out '" + (tmp.path / "out").string() + "' " +
                               args);
  };
  auto lock = run("check numbers --lock");
  ASSERT_EQ(lock.exit_code, 0) << lock.err;
  const std::string text = test::read_file(book / "numbers.lock");
  // Both entries name the weights: the English one by its source, though 8 GB fits both fields.
  std::size_t first = text.find("field = \"results/sizes.json#/weight_bytes\"");
  ASSERT_NE(first, std::string::npos) << text;
  EXPECT_NE(text.find("field = \"results/sizes.json#/weight_bytes\"", first + 1), std::string::npos) << text;
  EXPECT_EQ(text.find("ambiguous"), std::string::npos) << text;
  test::write_file(book / "calculations" / "results" / "sizes.json",
                   R"({"schema_version": 1, "weight_bytes": 9000000000, "cache_bytes": 8100000000})");
  auto r = run("-q check numbers");
  EXPECT_NE(r.exit_code, 0);
  const auto errors = error_places(r.err);
  EXPECT_TRUE(errors.count("manuscripts/01-尺寸.md:3:11")) << r.err;
  EXPECT_TRUE(errors.count("book-en/chapter01.md:3:18")) << r.err;
}

// A lock a pull request brings is untrusted: unknown keys, a field outside calculations/ and an entry
// without its mark are located errors, all in one run.
TEST(NumbersLock, MalformedEntriesAreLocatedErrors) {
  LockedBook b(test::fixtures() / "citations" / "book");
  test::write_file(b.book / "numbers.lock",
                   "[[number]]\nfile = \"manuscripts/01-预算.md\"\nat = \"no mark\"\n\n"
                   "[[number]]\nfile = \"manuscripts/01-预算.md\"\nat = \"x \u27E6140 GB\u27E7 y\"\n"
                   "field = \"/etc/passwd#/x\"\n\n"
                   "[[number]]\nfile = \"a.md\"\nat = \"\u27E61 GB\u27E7\"\ncolour = \"red\"\n");
  auto r = b.run("check numbers");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("numbers.lock:1:1: error: `at` must mark the number"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("numbers.lock:5:1: error: `field` must be"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("numbers.lock:13:1: error: unknown key `colour`"), std::string::npos) << r.err;
}

// A value that several rows of one table hold (two cards with 80 GB) binds to the row its sentence
// names, by any name of the row ("A100" of "A100 80GB SXM"); a sentence that names none leaves it
// ambiguous, with every row a candidate. A change of one row is then an error only where it is named.
TEST(NumbersLock, ARepeatedValueBindsTheRowTheSentenceNames) {
  test::TempDir tmp("bb-lock-rows");
  const fs::path book = tmp.path / "book";
  auto devices = [&](int a100) {
    test::write_file(book / "calculations" / "results" / "devices.json",
                     R"({"schema_version": 1, "devices": [)"
                     R"({"id": "h100-sxm", "name": "H100 SXM", "memory_gb": 80},)"
                     R"({"id": "a100-80gb-sxm", "name": "A100 80GB SXM", "memory_gb": )" +
                         std::to_string(a100) +
                         R"(},)"
                         R"({"id": "l40s", "name": "L40S", "memory_gb": 48}]})");
  };
  devices(80);
  test::write_file(book / "calculations" / "results" / "devices.md", "# devices\n");
  test::write_file(book / "calculations" / "scenarios" / "book.json",
                   R"({"schema_version": 1, "cards": []})");
  const std::string line =
      "The A100 carries 80 GB. The H100 SXM carries 80 GB too. Either card has 80 GB.[^d]";
  test::write_file(
      book / "book-en" / "chapter01.md",
      "# Chapter 1 Cards\n\n" + line + "\n\n[^d]: [results](../calculations/results/devices.md)\n");
  auto run = [&](const std::string& args) {
    return test::run_bookbuild("--book '" + book.string() + "' --out '" + (tmp.path / "out").string() + "' " +
                               args);
  };
  ASSERT_EQ(run("check numbers --lock").exit_code, 0);
  const std::string text = test::read_file(book / "numbers.lock");
  auto entry = [&](const std::string& at) {
    const auto from = text.find(at);
    return from == std::string::npos ? std::string() : text.substr(from, text.find("\n\n", from) - from);
  };
  EXPECT_NE(entry("carries \u27E680 GB\u27E7.").find("#/devices/1/memory_gb"), std::string::npos) << text;
  EXPECT_NE(entry("SXM carries \u27E680 GB\u27E7").find("#/devices/0/memory_gb"), std::string::npos) << text;
  const std::string either = entry("has \u27E680 GB\u27E7");
  EXPECT_NE(either.find("reason = \"ambiguous\""), std::string::npos) << text;
  EXPECT_NE(either.find("devices/0/memory_gb"), std::string::npos) << either;
  EXPECT_NE(either.find("devices/1/memory_gb"), std::string::npos) << either;
  devices(96);
  auto r = run("-q check numbers");
  EXPECT_NE(r.exit_code, 0);
  const auto col = [&](std::size_t at) { return "book-en/chapter01.md:3:" + std::to_string(at + 1); };
  const auto errors = error_places(r.err);
  EXPECT_TRUE(errors.count(col(line.find("80 GB")))) << r.err;
  EXPECT_FALSE(errors.count(col(line.find("80 GB too")))) << r.err;
}

// A number the sentence derives from fields it states: the share, ratio, difference or sum of two of
// them, checked only when exactly one derivation gives the digits shown.
TEST(DerivedNumbers, OnlyAUniqueDerivationChecks) {
  const book::NumberLocale locale;
  auto typed = [&](const std::string& t) { return *check::read_literal(t, {"x.md", 1, 1}, locale); };
  auto seconds = [](const char* pointer, double v) {
    return check::ResultField{pointer, v, check::Dim::Seconds, false, false, v, ""};
  };
  check::ResultFile file{"calculations/results/run.json",
                         "results/run.json",
                         {seconds("/first", 36.375),
                          seconds("/total", 76.510),
                          seconds("/after", 58.323),
                          {"/bytes", 40.135, check::Dim::Bytes, false, false, 40.135, ""}}};
  std::vector<check::FieldRef> f;
  for (const auto& x : file.fields) f.push_back({&file, &x});
  auto op_of = [&](const std::string& t) {
    const auto d = check::unique_derivation(typed(t), f);
    return d ? std::string(check::derive_name(d->op)) + " " + d->a.second->pointer + " " +
                   d->b.second->pointer
             : std::string("none");
  };
  EXPECT_EQ(op_of("47.5%"), "ratio /first /total");
  EXPECT_EQ(op_of("23.8%"), "complement /after /total");
  EXPECT_EQ(op_of("40.1 s"), "difference /total /first");
  EXPECT_EQ(op_of("112.9 s"), "sum /first /total");
  EXPECT_EQ(op_of("47.6%"), "none");  // a changed digit derives nothing
  EXPECT_EQ(op_of("40.2 s"), "none");
  EXPECT_EQ(op_of("2 s"), "none");  // one significant digit: too loose to mean a derivation
  // Bytes never combine with seconds: 76.510 s + 40.135 bytes is no sum.
  EXPECT_EQ(op_of("116.6 s"), "none");
  // Two derivations give 1.0 s: 3 - 2 and 2 - 1. Neither is taken.
  check::ResultFile even{"calculations/results/e.json",
                         "results/e.json",
                         {seconds("/a", 1), seconds("/b", 2), seconds("/c", 3)}};
  std::vector<check::FieldRef> g;
  for (const auto& x : even.fields) g.push_back({&even, &x});
  EXPECT_FALSE(check::unique_derivation(typed("1.0 s"), g));
  EXPECT_TRUE(check::unique_derivation(typed("4.0 s"), g));  // only 1 + 3
}

}  // namespace
}  // namespace bb
