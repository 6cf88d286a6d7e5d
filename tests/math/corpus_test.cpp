// Corpus test: every formula of the real book's chapters (../shared/corpus/upstream and
// ../shared/corpus/zh-tw, or $BOOKBUILD_CORPUS) converts without errors to well-formed MathML that
// agrees with pandoc.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

#include "corpus_formulas.hpp"
#include "fixtures.hpp"
#include "math/mathml.hpp"
#include "pandoc_peer.hpp"
#include "tokens.hpp"

namespace bb::math::test {
namespace {

// The corpus folders present: $BOOKBUILD_CORPUS, or the real book's chapters in ../shared/corpus.
std::vector<std::filesystem::path> corpus_dirs() {
  std::vector<std::filesystem::path> dirs;
  if (const char* env = std::getenv("BOOKBUILD_CORPUS"); env && *env) {
    dirs.emplace_back(env);
  } else {
    for (const char* part : {"upstream", "zh-tw"})
      dirs.push_back(std::filesystem::path(BOOKBUILD_CORPUS_DIR) / part);
  }
  std::erase_if(dirs, [](const std::filesystem::path& d) { return !std::filesystem::is_directory(d); });
  return dirs;
}

struct Located {
  std::string where;  // path:line:col of the formula's first TeX byte
  Formula formula;
};

std::vector<Located> corpus_formulas() {
  std::vector<Located> out;
  for (const auto& dir : corpus_dirs()) {
    for (const auto& file : markdown_files(dir)) {
      for (const FoundFormula& f : find_formulas(read_file(file))) {
        out.push_back({file.string() + ":" + std::to_string(f.line) + ":" + std::to_string(f.column),
                       {f.tex, f.display}});
      }
    }
  }
  return out;
}

#define SKIP_WITHOUT_CORPUS()                                      \
  if (corpus_dirs().empty())                                       \
  GTEST_SKIP() << "corpus not present at " << BOOKBUILD_CORPUS_DIR \
               << " (it is only in the development checkout; set BOOKBUILD_CORPUS to use another)"

TEST(Corpus, EveryFormulaConvertsWithoutErrors) {
  SKIP_WITHOUT_CORPUS();
  const std::vector<Located> formulas = corpus_formulas();
  ASSERT_FALSE(formulas.empty()) << "no formulas found in the corpus";
  std::size_t clean = 0;
  for (const Located& f : formulas) {
    const MathResult r = to_mathml(f.formula.tex, f.formula.display);
    for (const MathError& e : r.errors) {
      const TexPosition p = position_in(f.formula.tex, e.offset);
      ADD_FAILURE() << f.where << " (+" << p.line_delta << " lines, column +" << p.column
                    << "): " << e.message;
    }
    bool ok = false;
    tokens_of(r.mathml, ok);
    EXPECT_TRUE(ok) << f.where << ": not well-formed XML: " << r.mathml;
    if (r.errors.empty() && ok) ++clean;
  }
  std::cout << "[ corpus   ] " << clean << " of " << formulas.size() << " formulas convert cleanly\n";
}

TEST(Corpus, EveryFormulaAgreesWithPandoc) {
  SKIP_WITHOUT_CORPUS();
  const std::optional<std::string> pandoc = pandoc_executable();
  if (!pandoc) GTEST_SKIP() << "pandoc not found (install Debian's pandoc or set BOOKBUILD_PANDOC)";
  // The chapters repeat formulas (the same display in two languages); convert each once.
  std::map<std::pair<std::string, bool>, std::string> unique;  // formula -> first place
  for (const Located& f : corpus_formulas())
    unique.emplace(std::make_pair(f.formula.tex, f.formula.display), f.where);
  std::vector<Formula> formulas;
  std::vector<std::string> places;
  for (const auto& [key, where] : unique) {
    formulas.push_back({key.first, key.second});
    places.push_back(where);
  }
  const std::vector<std::string> theirs = pandoc_mathml(*pandoc, formulas);
  std::size_t agree = 0, unconverted = 0;
  for (std::size_t i = 0; i < formulas.size(); ++i) {
    if (theirs[i].empty()) {
      ++unconverted;
      ADD_FAILURE() << places[i] << ": pandoc could not convert " << formulas[i].tex;
      continue;
    }
    bool ours_ok = false, theirs_ok = false;
    const TokenStream a = tokens_of(to_mathml(formulas[i].tex, formulas[i].display).mathml, ours_ok);
    const TokenStream b = tokens_of(theirs[i], theirs_ok);
    if (ours_ok && theirs_ok && a == b) {
      ++agree;
      continue;
    }
    ADD_FAILURE() << places[i] << ": " << formulas[i].tex << "\n  ours:   " << describe(a)
                  << "\n  pandoc: " << describe(b);
  }
  std::cout << "[ corpus   ] " << agree << " of " << formulas.size()
            << " distinct formulas agree with pandoc (" << unconverted << " pandoc could not convert)\n";
}

}  // namespace
}  // namespace bb::math::test
