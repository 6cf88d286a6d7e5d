// Code highlighting: a fence's language name mapped to Source-highlight's, the tokens from the
// highlighting module (highlight_module.cpp, loaded on the first code block), and the shared palette.
#include "highlight/highlight.hpp"

#include "figures/modules.hpp"
#include "highlight/highlight_module.h"

#include <cstdio>
#include <map>
#include <mutex>

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
  if (lang == "c++") return "cpp";
  if (lang == "shell" || lang == "bash" || lang == "console") return "sh";
  if (lang == "js") return "javascript";
  if (lang == "py") return "python";
  return lang;
}

void append(void* context, const char* kind, const char* text, std::size_t size) {
  static_cast<std::vector<Token>*>(context)->push_back({kind, std::string(text, size)});
}

}  // namespace

std::optional<std::vector<Token>> tokens(std::string_view language, std::string_view code) {
  std::string lang = first_word(language);
  if (lang.empty()) return std::nullopt;
  std::string error;
  auto highlight = reinterpret_cast<bookbuild_highlight_fn>(
      figures::module_symbol(figures::Module::Highlight, "bookbuild_highlight", error));
  if (!highlight) {
    // Chapters are rendered on worker threads, where an exception cannot be reported: the code is
    // shown as plain text, as when Source-highlight's data folder is missing, and the reason is said
    // once.
    static std::once_flag said;
    std::call_once(
        said, [&] { std::fprintf(stderr, "warning: code blocks are not highlighted: %s\n", error.c_str()); });
    return std::nullopt;
  }
  std::vector<Token> out;
  if (highlight(lang.c_str(), code.data(), code.size(), append, &out) != 0) return std::nullopt;
  return out;
}

}  // namespace bb::highlight
