// The real book's stored results recomputed by the calculations registry (calc/calculations.hpp): every
// sample result (../shared/corpus/*/calculations/results/*.json, skipped when absent) recomputes equal or is
// not recomputable for a reason that holds; every numeric field is compared; changing any numeric input
// of a scenario makes the result stale (or is refused cleanly).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include "calc/calculations.hpp"
#include "calc/command.hpp"
#include "calc/recompute.hpp"
#include "calc/recorded.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using bb::calc::Json;
using bb::calc::RecomputeStatus;

namespace {

const fs::path kCorpus = fs::path(BOOKBUILD_SOURCE_DIR) / ".." / "shared" / "corpus";

// The calculations folders of the samples that are present, then each again with the project's device
// catalog (calculations/configs/hardware.json, a port of the real book's, which the samples skip as too
// large), so that the results computed from a device are recomputed too.
// Removes the copies when the test program ends.
struct TempFolder {
  fs::path path;
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::vector<fs::path> corpus_calculations() {
  static const TempFolder copies_folder{fs::temp_directory_path() /
                                        ("bookbuild-samples-" + std::to_string(::getpid()))};
  static const std::vector<fs::path> folders = [] {
    std::vector<fs::path> out, with_hardware;
    const fs::path& copies = copies_folder.path;
    for (const char* edition : {"upstream", "zh-tw"}) {
      const fs::path calculations = kCorpus / edition / "calculations";
      if (!fs::is_directory(calculations / "results")) continue;
      out.push_back(calculations);
      const fs::path copy = copies / edition / "calculations";
      fs::create_directories(copy.parent_path());
      fs::copy(calculations, copy, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
      fs::copy_file(fs::path(calc_test::kDataDir) / "configs" / "hardware.json",
                    copy / "configs" / "hardware.json", fs::copy_options::overwrite_existing);
      with_hardware.push_back(copy);
    }
    out.insert(out.end(), with_hardware.begin(), with_hardware.end());
    return out;
  }();
  return folders;
}

std::vector<fs::path> result_files(const fs::path& calculations) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(calculations / "results"))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Every numeric leaf under `at` of `doc`, as JSON Pointers.
void numeric_leaves(const Json& doc, const std::string& at, std::vector<std::string>& out) {
  if (doc.is_object()) {
    for (const auto& [k, v] : doc.items()) numeric_leaves(v, at + "/" + k, out);
  } else if (doc.is_array()) {
    for (std::size_t i = 0; i < doc.size(); ++i) numeric_leaves(doc[i], at + "/" + std::to_string(i), out);
  } else if (doc.is_number()) {
    out.push_back(at);
  }
}

// A different value of the same JSON type: integers 2v + 1, floats × 1.5 (0.0 becomes 0.5).
Json changed(const Json& v) {
  if (v.is_number_float()) return v.get<double>() == 0 ? Json(0.5) : Json(v.get<double>() * 1.5);
  return Json(v.get<std::int64_t>() * 2 + 1);
}

// Scenario inputs that no output of that result reads, so changing them changes nothing but the echo
// (which the recompute rewrites): kept explicit, so that a new insensitive input fails the test.
bool unread(const std::string& calculation, const std::string& input, const Json& scenario) {
  // cache-sequence: recurrent state exists only for hybrid models (the Kimi K3 branch, not ported).
  if (calculation == "cache-sequence") return input == "/scenario/recurrent_bytes";
  // audio-chunk-timing: the control delay and device quantum only time an interruption.
  if (calculation == "audio-chunk-timing" && scenario["interrupt_ns"].is_null())
    return input == "/scenario/control_delay_ns" || input == "/scenario/device_quantum_ns";
  return false;
}

}  // namespace

TEST(RecordedResults, EveryRegisteredCalculationIsUnique) {
  // Commands share one namespace with bookbuild's own calc commands (a duplicate would stop the CLI).
  std::set<std::string> names, commands = {"reproduce", "verify-results"};
  for (const auto& spec : bb::calc::command_specs()) commands.insert(spec.name);
  for (const auto& c : bb::calc::calculations()) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_TRUE(commands.insert(c.command).second) << c.command;
    EXPECT_EQ(bb::calc::find_calculation(c.name), &c);
  }
  EXPECT_EQ(bb::calc::find_calculation("no-such-calculation"), nullptr);
}

// The done criterion of issue 45: each sample result is recomputed and equal, or not recomputable for a
// reason that holds (its calculation is not in the library; an input it needs is really absent).
TEST(RecordedResults, SampleResultsRecomputeEqualOrForAReasonThatHolds) {
  auto folders = corpus_calculations();
  if (folders.empty()) GTEST_SKIP() << "no ../shared/corpus";
  int equal = 0, catalog_differs = 0;
  std::set<std::string> equal_calculations;
  for (const auto& calculations : folders) {
    bb::calc::Data data(calculations);
    for (const auto& file : result_files(calculations)) {
      auto o = bb::calc::recompute_file(data, file);
      SCOPED_TRACE(file.string());
      switch (o.status) {
        case RecomputeStatus::Equal:
          ++equal;
          equal_calculations.insert(o.calculation);
          break;
        case RecomputeStatus::Stale:
          // The project's catalog lists one more source for the RTX 4090 than the real book's did when
          // these results were written: with it, the projection's numbers are equal and its sources differ.
          if (o.calculation == "q_projection_resource_bound" &&
              calculations.string().find("bookbuild-samples-") != std::string::npos) {
            for (const auto& d : o.diffs) EXPECT_TRUE(d.pointer.starts_with("/sources")) << d.pointer;
            ++catalog_differs;
            break;
          }
          ADD_FAILURE() << "stale: " << o.diffs.size() << " fields, first " << o.diffs[0].pointer
                        << " stored " << o.diffs[0].stored << " recomputed " << o.diffs[0].recomputed;
          break;
        case RecomputeStatus::NotRecomputed:
          if (o.reason == bb::calc::NotRecomputedReason::NoCalculation)
            EXPECT_EQ(bb::calc::find_calculation(o.calculation), nullptr);
          else if (o.reason == bb::calc::NotRecomputedReason::MissingInput)
            EXPECT_FALSE(fs::exists(calculations / o.missing)) << o.missing;
          else
            ADD_FAILURE() << bb::calc::reason_name(o.reason) << ": " << o.message;
          break;
      }
    }
  }
  // Every calculation whose inputs the samples hold is among those recomputed equal.
  for (const char* name :
       {"request-dag", "audio-chunk-timing", "qwen-dense-communication-path", "qwen3-dense-forward",
        "cache-sequence", "resource-basics", "nominal-decode-budget", "batch-reuse"})
    EXPECT_TRUE(equal_calculations.count(name)) << name;
  EXPECT_GE(equal, 26);  // 3 + 9 of the samples, 3 + 11 with the catalog (more as calculations are added)
  EXPECT_EQ(catalog_differs, 4);
}

// The ported calculations with measured or fixed inputs, whose changes are tested by their own tests
// (ported_invariants_test.cpp: every recorded input moves a computed field): here a changed stored field
// may move others (paired projection's measured times) or be an input read only to check the others.
bool own_staleness_tests(const Json& stored) {
  static const std::set<std::string> names = {
      "qwen-attention-input-pipeline", "qwen-rmsnorm-split-reduction", "qwen-pointwise-fusion-lifetimes",
      "qwen-persistent-tasks",         "qwen-matrix-vector-handoff",   "paired-projection-conditional-cost",
      "fa4-single-sm-resource-balance"};
  return names.count(stored.value("calculation", ""));
}

// Every numeric field of a recomputed result is compared: changing any one of them (outside the
// scenario it is computed from) makes the result stale at exactly that field.
TEST(RecordedResults, EveryStoredFieldIsCompared) {
  auto folders = corpus_calculations();
  if (folders.empty()) GTEST_SKIP() << "no ../shared/corpus";
  int mutated = 0;
  for (const auto& calculations : folders) {
    bb::calc::Data data(calculations);
    for (const auto& file : result_files(calculations)) {
      const Json stored = bb::calc::read_json_file(file);
      if (own_staleness_tests(stored)) continue;
      if (bb::calc::recompute_document(data, stored).status != RecomputeStatus::Equal) continue;
      std::vector<std::string> leaves;
      numeric_leaves(stored, "", leaves);
      for (const auto& p : leaves) {
        if (p.starts_with("/scenario/") || p.starts_with("/sources/")) continue;
        Json copy = stored;
        copy[Json::json_pointer(p)] = changed(copy[Json::json_pointer(p)]);
        auto o = bb::calc::recompute_document(data, copy);
        // A field the calculation also reads as a measured input (paired projection's rows) may make
        // the document one it refuses: never equal either way.
        if (o.status == RecomputeStatus::NotRecomputed && o.reason == bb::calc::NotRecomputedReason::Invalid)
          continue;
        ASSERT_EQ(o.status, RecomputeStatus::Stale) << file << " " << p;
        ASSERT_EQ(o.diffs.size(), 1u) << file << " " << p;
        EXPECT_EQ(o.diffs[0].pointer, p);
        ++mutated;
      }
    }
  }
  EXPECT_GT(mutated, 100);
}

// Changing any numeric input of a scenario makes the result stale (a field other than the scenario's
// echo differs), or the calculation refuses the input; never equal, unless the input is listed as one
// its calculation does not read.
TEST(RecordedResults, EveryScenarioInputChangeMakesTheResultStale) {
  auto folders = corpus_calculations();
  if (folders.empty()) GTEST_SKIP() << "no ../shared/corpus";
  int stale = 0, refused = 0;
  for (const auto& calculations : folders) {
    bb::calc::Data data(calculations);
    for (const auto& file : result_files(calculations)) {
      const Json stored = bb::calc::read_json_file(file);
      if (own_staleness_tests(stored)) continue;
      if (bb::calc::recompute_document(data, stored).status != RecomputeStatus::Equal) continue;
      const std::string name = stored["calculation"];
      // Its inputs: the `scenario` (or, for calculations that record several, `scenarios`).
      const std::string key = stored.contains("scenario") ? "scenario" : "scenarios";
      std::vector<std::string> inputs;
      if (stored.contains(key)) numeric_leaves(stored[key], "/" + key, inputs);
      ASSERT_FALSE(inputs.empty()) << file;
      for (const auto& p : inputs) {
        Json copy = stored;
        copy[Json::json_pointer(p)] = changed(copy[Json::json_pointer(p)]);
        auto o = bb::calc::recompute_document(data, copy);
        SCOPED_TRACE(file.string() + " " + p);
        if (unread(name, p, stored["scenario"])) {
          EXPECT_EQ(o.status, RecomputeStatus::Equal);
          continue;
        }
        if (o.status == RecomputeStatus::NotRecomputed) {
          EXPECT_EQ(o.reason, bb::calc::NotRecomputedReason::Invalid) << o.message;
          EXPECT_FALSE(o.message.empty());
          ++refused;
          continue;
        }
        ASSERT_EQ(o.status, RecomputeStatus::Stale);
        bool beyond_echo = false;
        // A field other than the input itself (and, for one `scenario`, than its echo).
        for (const auto& d : o.diffs)
          beyond_echo =
              beyond_echo || (d.pointer != p && !(key == "scenario" && d.pointer.starts_with("/scenario/")));
        // A calculation that records a fixed list of `scenarios` (fa4-single-sm-resource-balance)
        // recomputes them as the library defines them: the changed input is itself the stale field.
        EXPECT_TRUE(beyond_echo || key == "scenarios");
        ++stale;
      }
    }
  }
  EXPECT_GT(stale, 30);
  std::cout << "scenario inputs changed: " << stale << " stale, " << refused << " refused\n";
}

// The comparison itself: integers exact, floats as Python writes them (2 and 2.0 differ), lists by
// length and item, objects by key, prose (assumptions) never.
TEST(RecordedResults, ComparisonRules) {
  const Json a = Json::parse(R"({"x": 2, "y": 0.1, "l": [1, 2], "o": {"k": 1}, "assumptions": ["a"]})");
  EXPECT_TRUE(bb::calc::compare_documents(a, a).empty());
  Json b = a;
  b["x"] = 2.0;
  ASSERT_EQ(bb::calc::compare_documents(a, b).size(), 1u);
  EXPECT_EQ(bb::calc::compare_documents(a, b)[0].stored, "2");
  EXPECT_EQ(bb::calc::compare_documents(a, b)[0].recomputed, "2.0");
  b = a;
  b["y"] = 0.30000000000000004;
  EXPECT_EQ(bb::calc::compare_documents(a, b)[0].pointer, "/y");
  b = a;
  b["l"].push_back(3);
  EXPECT_EQ(bb::calc::compare_documents(a, b)[0].pointer, "/l");
  b = a;
  b["o"].erase("k");
  EXPECT_EQ(bb::calc::compare_documents(a, b)[0].recomputed, "(absent)");
  b = a;
  b["assumptions"] = Json::array({"other words"});
  EXPECT_TRUE(bb::calc::compare_documents(a, b).empty());
  // A record's note is prose too; a field merely containing "note" in its name is not.
  const Json ops = Json::parse(R"({"ops": [{"notes": "x", "note": "y", "notes_bytes": 1}]})");
  Json other = ops;
  other["ops"][0]["notes"] = "z";
  other["ops"][0]["note"] = "w";
  EXPECT_TRUE(bb::calc::compare_documents(ops, other).empty());
  other["ops"][0]["notes_bytes"] = 2;
  EXPECT_EQ(bb::calc::compare_documents(ops, other).size(), 1u);
}

namespace {

struct CommandRun {
  int status;
  std::string out;
};

CommandRun run(const std::string& args) {
  CommandRun r{0, ""};
  FILE* p = popen((std::string(BOOKBUILD_EXE) + " " + args + " 2>&1").c_str(), "r");
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

}  // namespace

// End to end: a book citing a request-dag result written by `bookbuild calc request-dag` passes `check
// numbers`; after one scenario input of the result file changes, the result is stale and `check numbers`
// fails with an error at every place that cites it (the footnote reference, the direct link, the
// footnote's link), naming the field with both values.
TEST(RecordedResults, StaleResultIsAnErrorAtEveryCitingPlace) {
  const fs::path book = fs::temp_directory_path() / ("bookbuild-recompute-" + std::to_string(::getpid()));
  fs::remove_all(book);
  fs::copy(fs::path(calc_test::kFixtures) / "recompute-book", book, fs::copy_options::recursive);
  fs::create_directories(book / "calculations" / "results");
  const fs::path result = book / "calculations" / "results" / "request-dag-demo.json";
  CommandRun made = run("calc --calculations " + (book / "calculations").string() + " request-dag --output " +
                        result.string());
  ASSERT_EQ(made.status, 0) << made.out;
  CommandRun ok = run("--book " + book.string() + " check numbers");
  EXPECT_EQ(ok.out.find("is stale"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("recomputed cited results: 1 (1 equal, 0 stale)"), std::string::npos) << ok.out;

  Json doc = bb::calc::read_json_file(result);
  doc["scenario"]["duration_overrides"]["hotspot"] = 55000;
  std::ofstream(result, std::ios::trunc) << bb::calc::dump_json(doc);
  CommandRun stale = run("--book " + book.string() + " check numbers");
  EXPECT_NE(stale.status, 0) << stale.out;
  for (const char* place : {"01-dag.md:3:", "01-dag.md:5:", "01-dag.md:7:"})
    EXPECT_NE(stale.out.find(std::string(place)), std::string::npos) << place << "\n" << stale.out;
  EXPECT_NE(stale.out.find("/request_schedules/modified/tasks/1/end_ns stored 25000, recomputed 65000"),
            std::string::npos)
      << stale.out;
  EXPECT_NE(stale.out.find("recomputed cited results: 1 (0 equal, 1 stale)"), std::string::npos) << stale.out;
  fs::remove_all(book);
}

// Results are untrusted input: a malformed one is refused with a message (never a crash), and a path it
// records is read only inside the book.
TEST(RecordedResults, HostileResultsAreRefusedCleanly) {
  const fs::path book = fs::temp_directory_path() / ("bookbuild-hostile-" + std::to_string(::getpid()));
  fs::remove_all(book);
  fs::create_directories(book / "calculations" / "configs" / "models");
  std::ofstream(book / "secret.json") << "{}";
  bb::calc::Data data(book / "calculations");
  struct Case {
    const char* doc;
    bb::calc::NotRecomputedReason reason;
  } cases[] = {
      {R"({"calculation": null})", bb::calc::NotRecomputedReason::NoCalculation},
      {R"({"calculation": 7, "scenario": {}})", bb::calc::NotRecomputedReason::NoCalculation},
      {R"({"calculation": "request-dag"})", bb::calc::NotRecomputedReason::Invalid},
      {R"({"calculation": "request-dag", "scenario": {"tasks": "x"}})",
       bb::calc::NotRecomputedReason::Invalid},
      {R"({"calculation": "request-dag", "scenario": {"tasks": [{"id": "a", "duration_ns": 1, "deps": ["a"]}]}})",
       bb::calc::NotRecomputedReason::Invalid},
      {R"({"calculation": "request-dag", "scenario": {"tasks": [{"id": "a", "duration_ns": 1.5, "deps": []}]}})",
       bb::calc::NotRecomputedReason::Invalid},
      {R"({"calculation": "audio-chunk-timing", "scenario": {"frame_ns": 9223372036854775807}})",
       bb::calc::NotRecomputedReason::Invalid},
      {R"({"calculation": "qwen3-dense-forward", "model": "../../../../secret", "scenario": {}})",
       bb::calc::NotRecomputedReason::Invalid},
      {R"({"calculation": "qwen3-dense-forward", "model": "absent", "scenario": {}})",
       bb::calc::NotRecomputedReason::MissingInput},
      {R"({"calculation": "measured-agent-trace-accounting", "scenario": {"trace": "x"}})",
       bb::calc::NotRecomputedReason::MissingInput},
  };
  for (const auto& c : cases) {
    auto o = bb::calc::recompute_document(data, Json::parse(c.doc));
    EXPECT_EQ(o.status, RecomputeStatus::NotRecomputed) << c.doc;
    EXPECT_EQ(o.reason, c.reason) << c.doc << ": " << o.message;
    EXPECT_FALSE(o.message.empty()) << c.doc;
  }
  // A result file that is a Git LFS pointer never fetched, and one that is not JSON.
  std::ofstream(book / "lfs.json") << "version https://git-lfs.github.com/spec/v1\noid sha256:"
                                   << std::string(64, 'a') << "\nsize 12\n";
  EXPECT_EQ(bb::calc::recompute_file(data, book / "lfs.json").reason,
            bb::calc::NotRecomputedReason::LfsPointer);
  std::ofstream(book / "bad.json") << "{not json";
  EXPECT_EQ(bb::calc::recompute_file(data, book / "bad.json").reason, bb::calc::NotRecomputedReason::Invalid);
  // A recorded source outside the book keeps its recorded hash: nothing outside the book is read.
  const Json rows = bb::calc::rehashed_sources(
      data,
      Json::parse(
          R"([{"file": "../../secret.json", "sha256": "x"}, {"file": "../secret.json", "sha256": "y"}])"));
  EXPECT_EQ(rows[0]["sha256"], "x");
  EXPECT_NE(rows[1]["sha256"], "y");  // inside the book (the book root): re-hashed
  fs::remove_all(book);
}

// A result computed from measurements names the pinned trace files it needs: absent, the missing path is
// reported (never equal); present but not the pinned bytes, the checksum mismatch is an error.
TEST(RecordedResults, MeasuredTraceInputsAreCheckedBeforeUse) {
  const fs::path book = fs::temp_directory_path() / ("bookbuild-trace-" + std::to_string(::getpid()));
  fs::remove_all(book);
  const fs::path calculations = book / "calculations";
  fs::create_directories(calculations / "configs" / "models" / "qwen3-8b");
  fs::copy_file(fs::path(calc_test::kDataDir) / "configs" / "models" / "qwen3-8b" / "config.json",
                calculations / "configs" / "models" / "qwen3-8b" / "config.json");
  std::ofstream(calculations / "configs" / "agent-traces.lock.json")
      << R"({"t": [{"file": "sources/agent-traces/t/rounds.jsonl", "sha256": ")" << std::string(64, '0')
      << R"("}]})";
  bb::calc::Data data(calculations);
  const Json stored = Json::parse(
      R"({"calculation": "measured-agent-trace-accounting", "scenario": {"trace": "t", "model_speedup": 2,
          "selected_turn": null}})");
  auto absent = bb::calc::recompute_document(data, stored);
  EXPECT_EQ(absent.reason, bb::calc::NotRecomputedReason::MissingInput) << absent.message;
  EXPECT_EQ(absent.missing, "sources/agent-traces/t/rounds.jsonl");
  fs::create_directories(calculations / "sources" / "agent-traces" / "t");
  std::ofstream(calculations / "sources" / "agent-traces" / "t" / "rounds.jsonl") << "{}\n";
  auto altered = bb::calc::recompute_document(data, stored);
  EXPECT_EQ(altered.reason, bb::calc::NotRecomputedReason::Invalid);
  EXPECT_NE(altered.message.find("checksum mismatch"), std::string::npos) << altered.message;
  fs::remove_all(book);
}
