// Shared by the tests of the real book's ported calculations: the stored sample results in
// ../shared/corpus/*/calculations/results (skipped when that folder is absent) and their recomputation.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "calc/calculations.hpp"
#include "calc/data.hpp"
#include "calc/json.hpp"

namespace ported_test {

namespace fs = std::filesystem;

struct Sample {
  fs::path file;          // results/<id>.json
  fs::path calculations;  // the calculations folder it belongs to
  std::string bytes;
  bb::calc::Json doc;
};

inline std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline const fs::path& corpus_root() {
  static const fs::path root = CALC_CORPUS_DIR;
  return root;
}

// Every stored result of `calculation` in the corpus editions (upstream, zh-tw, ...), sorted by path.
inline std::vector<Sample> samples(const std::string& calculation) {
  std::vector<Sample> out;
  if (!fs::is_directory(corpus_root())) return out;
  std::vector<fs::path> files;
  for (const auto& edition : fs::directory_iterator(corpus_root())) {
    fs::path results = edition.path() / "calculations" / "results";
    if (!fs::is_directory(results)) continue;
    for (const auto& f : fs::directory_iterator(results))
      if (f.path().extension() == ".json") files.push_back(f.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::string bytes = read_bytes(f);
    bb::calc::Json doc = bb::calc::Json::parse(bytes, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || doc.value("calculation", "") != calculation) continue;
    out.push_back({f, f.parent_path().parent_path(), std::move(bytes), std::move(doc)});
  }
  return out;
}

#define SKIP_WITHOUT_SAMPLES(list)                                         \
  if ((list).empty())                                                      \
  GTEST_SKIP() << "no stored samples under " << ported_test::corpus_root() \
               << " (the real book's results are only in the development checkout)"

inline bb::calc::Json recompute(const bb::calc::Data& data, const bb::calc::Json& stored) {
  const auto* c = bb::calc::find_calculation(stored.value("calculation", ""));
  if (!c) throw std::runtime_error("no calculation " + stored.value("calculation", ""));
  return c->recompute(data, stored);
}

// Recomputes every sample and compares bytes with the stored file. A file whose JSON the reader cannot
// hold exactly (an integer beyond 64 bits becomes a double) is compared as the library reads it.
inline size_t expect_samples_reproduced(const std::string& calculation) {
  size_t n = 0;
  for (const auto& s : samples(calculation)) {
    SCOPED_TRACE(s.file.string());
    bb::calc::Data data(s.calculations);
    const std::string fresh = bb::calc::dump_json(recompute(data, s.doc));
    const std::string as_read = bb::calc::dump_json(s.doc);
    EXPECT_EQ(fresh, as_read == s.bytes ? s.bytes : as_read);
    ++n;
  }
  return n;
}

// The recomputation of `stored` after `mutate` changed it.
template <typename F>
bb::calc::Json recompute_changed(const Sample& s, F mutate) {
  bb::calc::Json doc = s.doc;
  mutate(doc);
  bb::calc::Data data(s.calculations);
  return recompute(data, doc);
}

}  // namespace ported_test
