// Builds search indexes outside the site builder, for the JavaScript test (fixture chapters) and for
// bench/search/compare.sh (the corpus). Beside each index it writes the C++ tokens of every section
// (`<edition>.tokens`), which the JavaScript test compares with its own tokeniser's.
//
//   search_index_tool fixtures <fixtures/book> <out>   one edition per folder (zh, en, ru), tiny shards
//   search_index_tool corpus <book root> <out>         every edition of a real book, resolved
//   search_index_tool time <book root> [rounds] [edition]   CPU time of building each edition's
//                                                      index in memory (median of the rounds; a benchmark)
#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "book/book.hpp"
#include "book/config.hpp"
#include "filters/pipeline.hpp"
#include "markdown/frontend.hpp"
#include "search/search_index.hpp"

namespace fs = std::filesystem;
using namespace bb;

namespace {

// Per section: the title's tokens, "|", the text's tokens, "--". One "kind<TAB>text" per line.
std::string token_dump(const std::vector<search::SearchSection>& sections) {
  std::string out;
  for (const auto& s : sections) {
    for (const auto& t : search::tokenize(s.title))
      out += std::string(search::token_kind_name(t.kind)) + '\t' + t.text + '\n';
    out += "|\n";
    for (const auto& t : search::tokenize(s.text))
      out += std::string(search::token_kind_name(t.kind)) + '\t' + t.text + '\n';
    out += "--\n";
  }
  return out;
}

void write_edition(const std::string& id, const std::string& lang,
                   const std::vector<search::SearchSection>& sections, const fs::path& out,
                   const search::SearchIndexOptions& options = {}) {
  fs::remove_all(out / id);
  auto stats = search::write_search_index(sections, lang, out / id, options);
  std::ofstream(out / (id + ".tokens"), std::ios::binary) << token_dump(sections);
  std::cout << "edition=" << id << " lang=" << lang << " sections=" << stats.sections
            << " files=" << stats.files << " index_bytes=" << stats.index_bytes
            << " largest_query_bytes=" << stats.largest_query_bytes << '\n';
}

int fixtures(const fs::path& book, const fs::path& out) {
  const std::map<std::string, std::string> langs{{"zh", "zh-Hans"}, {"en", "en"}, {"ru", "ru"}};
  for (const auto& [id, lang] : langs) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(book / id))
      if (e.path().extension() == ".md") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<search::SearchSection> sections;
    Diagnostics diags;
    for (const auto& f : files) {
      doc::Node root = markdown::parse_file(f, diags);
      std::string title;
      for (const auto& b : root.children)
        if (b.kind == doc::Kind::Heading && b.level() == 1) {
          title = doc::plain_text(b.children);
          break;
        }
      auto more = search::search_sections(root, f.stem().string() + ".html", title);
      sections.insert(sections.end(), more.begin(), more.end());
    }
    if (diags.has_errors()) {
      std::cerr << "fixture chapters have errors\n";
      return 1;
    }
    // Tiny files, so that the fixtures exercise several shards, split keys and several chunks.
    write_edition(id, lang, sections, out, {.shard_bytes = 160, .chunk_bytes = 300});
  }
  return 0;
}

struct Edition {
  std::string id, lang;
  std::vector<search::SearchSection> sections;
};

// The sections of every edition of a real book, resolved (stable ids; problems in the book do not
// matter here). Empty when the book cannot be loaded.
std::vector<Edition> load_editions(const fs::path& root) {
  Diagnostics diags;
  auto config = book::load_config(root, diags);
  if (!config) {
    std::cerr << "cannot load the book at " << root << '\n';
    return {};
  }
  auto loaded = book::load_book(std::move(*config), diags);
  filters::resolve(loaded, diags);
  std::vector<Edition> out;
  for (const auto& eb : loaded.editions) {
    Edition e{eb.edition.id, eb.edition.lang, {}};
    for (const auto& c : eb.chapters) {
      auto more = search::search_sections(c.root, c.key + ".html", c.title);
      e.sections.insert(e.sections.end(), more.begin(), more.end());
    }
    out.push_back(std::move(e));
  }
  return out;
}

int corpus(const fs::path& root, const fs::path& out) {
  auto editions = load_editions(root);
  if (editions.empty()) return 1;
  for (const auto& e : editions) write_edition(e.id, e.lang, e.sections, out);
  return 0;
}

double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// CPU time, not wall time: the machine this runs on is usually shared.
int timing(const fs::path& root, int rounds, const std::string& only) {
  auto editions = load_editions(root);
  if (editions.empty() || rounds < 1) return 1;
  for (const auto& e : editions) {
    if (!only.empty() && e.id != only) continue;
    std::vector<double> ms;
    std::size_t bytes = 0;
    for (int r = 0; r < rounds; ++r) {
      std::map<std::string, std::string> files;
      double start = cpu_ms();
      bytes = search::build_search_index(e.sections, e.lang, files).index_bytes;
      ms.push_back(cpu_ms() - start);
    }
    std::sort(ms.begin(), ms.end());
    std::cout << "edition=" << e.id << " sections=" << e.sections.size() << " index_bytes=" << bytes
              << " cpu_ms_median=" << ms[ms.size() / 2] << " cpu_ms_min=" << ms.front() << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 3 && args[0] == "fixtures") return fixtures(args[1], args[2]);
  if (args.size() == 3 && args[0] == "corpus") return corpus(args[1], args[2]);
  if (args.size() >= 2 && args.size() <= 4 && args[0] == "time")
    return timing(args[1], args.size() >= 3 ? std::stoi(args[2]) : 21, args.size() == 4 ? args[3] : "");
  std::cerr << "usage: search_index_tool fixtures|corpus <input> <out>\n"
               "       search_index_tool time <book root> [rounds] [edition]\n";
  return 2;
}
