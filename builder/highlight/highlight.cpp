// Code highlighting: a fence's language name mapped to Source-highlight's, the tokens from the cache
// (cache.cpp) or else from the highlighting module (highlight_module.cpp, loaded on the first block not
// cached), and the shared palette.
#include "highlight/highlight.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

#include "highlight/cache.hpp"
#include "highlight/highlight_module.h"
#include "inputs/inputs.hpp"
#include "modules/modules.hpp"
#include "output/staging.hpp"

namespace bb::highlight {

const char* style_of(const std::string& kind) {
  static const std::map<std::string, const char*> map{
      {"keyword", "keyword"},     {"type", "type"},         {"usertype", "type"},
      {"classname", "classname"}, {"string", "string"},     {"regexp", "regexp"},
      {"specialchar", "string"},  {"comment", "comment"},   {"todo", "comment"},
      {"number", "number"},       {"preproc", "preproc"},   {"symbol", "symbol"},
      {"cbracket", "cbracket"},   {"function", "function"}, {"predef_func", "function"},
      {"predef_var", "variable"}, {"variable", "variable"}, {"property", "property"},
      {"label", "preproc"},       {"selector", "keyword"},  {"attribute", "property"},
      {"value", "string"},        {"section", "keyword"},   {"url", "string"}};
  auto it = map.find(kind);
  return it == map.end() ? nullptr : it->second;
}

namespace {

std::string first_word(std::string_view info) {
  std::string lang;
  for (char c : info) {
    if (c == ' ' || c == '\t' || c == '{' || c == ',') break;
    lang += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  // Names authors use that lang.map lacks: C-family dialects read as C++, plain text as no highlighting.
  for (const char* cpp :
       {"c++", "cxx", "hxx", "cuda", "cu", "cuh", "hip", "metal", "opencl", "objc", "objcpp"})
    if (lang == cpp) return "cpp";
  if (lang == "shell" || lang == "bash" || lang == "console") return "sh";
  if (lang == "js") return "javascript";
  if (lang == "py") return "python";
  if (lang == "rust") return "rs";
  if (lang == "text" || lang == "plain" || lang == "plaintext" || lang == "output" || lang == "none")
    return "txt";
  return lang;
}

// The names lang.map gives (`name = file.lang`), read once; empty when it cannot be read.
const std::set<std::string>& mapped_names() {
  static const std::set<std::string> names = [] {
    std::set<std::string> out;
    std::ifstream in(cache::data_folder() + "/lang.map");
    std::string line;
    while (std::getline(in, line)) {
      const auto eq = line.find('=');
      if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
      const auto end = line.find_last_not_of(" \t", eq == 0 ? 0 : eq - 1);
      const auto begin = line.find_first_not_of(" \t");
      if (end != std::string::npos && begin <= end) out.insert(line.substr(begin, end - begin + 1));
    }
    return out;
  }();
  return names;
}

void append(void* context, const char* kind, const char* text, std::size_t size) {
  static_cast<std::vector<Token>*>(context)->push_back({kind, std::string(text, size)});
}

// The cache in use, opened on the first block that needs it.
struct CacheInUse {
  std::mutex mutex;
  std::filesystem::path file;  // empty: none
  bool opened = false;
  std::shared_ptr<cache::Store> store;  // null until opened, or when the installation cannot be identified
};

CacheInUse& cache_in_use() {
  static CacheInUse c;
  return c;
}

// A cache file bigger than this is not one bookbuild wrote for a book: ignored unread.
constexpr std::uintmax_t kMaxCacheFile = 256u << 20;

std::shared_ptr<cache::Store> open_cache() {
  CacheInUse& c = cache_in_use();
  std::lock_guard lock(c.mutex);
  if (c.file.empty() || c.opened) return c.store;
  c.opened = true;
  std::string bytes;
  std::error_code ec;
  auto size = std::filesystem::file_size(c.file, ec);
  if (!ec && size <= kMaxCacheFile) {
    std::ifstream in(c.file, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    bytes = std::move(ss).str();
  }
  // The stamp re-examines the definition files of the languages the file holds, and those only.
  auto stamp = cache::stamp(cache::stored_stamp(bytes));
  if (!stamp) return nullptr;
  c.store = std::make_shared<cache::Store>(std::move(*stamp), bytes);
  return c.store;
}

// From the module; `known` is false when the module itself is missing (not a property of the block).
std::optional<std::vector<Token>> from_module(const std::string& lang, std::string_view code, bool& known) {
  known = false;
  std::string error;
  auto highlight = reinterpret_cast<bookbuild_highlight_fn>(
      modules::module_symbol(modules::Module::Highlight, "bookbuild_highlight", error));
  if (!highlight) {
    // Chapters are rendered on worker threads, where an exception cannot be reported: the code is
    // shown as plain text, as when Source-highlight's data folder is missing, and the reason is said
    // once.
    static std::once_flag said;
    std::call_once(said, [&] {
      inputs::spoil();  // printed outside std::cerr
      std::fprintf(stderr, "warning: code blocks are not highlighted: %s\n", error.c_str());
    });
    return std::nullopt;
  }
  known = true;
  std::vector<Token> out;
  if (highlight(lang.c_str(), code.data(), code.size(), append, &out) != 0) return std::nullopt;
  return out;
}

// Whether blocks of `lang` may be kept in `store`: its section (cache::language_section) is added to the
// stamp the first time, before the module builds the language's highlighter in this run.
bool covered(cache::Store& store, const std::string& lang) {
  if (auto known = store.covers(lang)) return *known;
  std::string error;
  auto definition = reinterpret_cast<bookbuild_highlight_definition_fn>(
      modules::module_symbol(modules::Module::Highlight, "bookbuild_highlight_definition", error));
  char file[4096];
  const long length = definition ? definition(lang.c_str(), file, sizeof file) : -1;
  store.cover(
      lang, cache::as_first_read(
                lang, length < 0 ? std::nullopt : cache::language_section(lang, std::string(file, length))));
  return store.covers(lang).value_or(false);
}

}  // namespace

std::optional<std::vector<Token>> tokens(std::string_view language, std::string_view code) {
  std::string lang = first_word(language);
  if (lang.empty()) return std::nullopt;
  auto store = open_cache();
  if (store)
    if (auto hit = store->find(lang, code)) return std::move(*hit);
  const bool keep = store && covered(*store, lang);
  bool known = false;
  auto result = from_module(lang, code, known);
  if (keep && known) store->put(lang, code, result);
  return result;
}

bool known_language(std::string_view language) {
  const std::string lang = first_word(language);
  const auto& names = mapped_names();
  return lang.empty() || names.empty() || names.count(lang) > 0;
}

void use_cache(const std::filesystem::path& file) {
  CacheInUse& c = cache_in_use();
  std::lock_guard lock(c.mutex);
  c.file = file;
  c.opened = false;
  c.store.reset();
}

void save_cache() {
  CacheInUse& c = cache_in_use();
  std::lock_guard lock(c.mutex);
  if (!c.store) return;
  auto bytes = c.store->save();
  if (!bytes) return;
  try {
    output::write_file_atomic(c.file, *bytes);
  } catch (const std::exception&) {
    // A read-only or full disk: the next run highlights again, as without a cache.
  }
}

}  // namespace bb::highlight
