// Code highlighting with GNU Source-highlight: language definitions from its data folder, one
// highlighter per language, tokens collected by a formatter per element name.
#include "highlight/highlight.hpp"

#include <srchilite/formatter.h>
#include <srchilite/formattermanager.h>
#include <srchilite/instances.h>
#include <srchilite/langdefmanager.h>
#include <srchilite/langmap.h>
#include <srchilite/sourcehighlighter.h>

#include <map>
#include <memory>
#include <mutex>

namespace bb::highlight {

namespace {

// Receives the text of one element and appends it to the current token list, merging runs of the
// same kind (Source-highlight reports a keyword and the space after it separately).
class Collector : public srchilite::Formatter {
 public:
  Collector(std::string kind, std::vector<Token>** sink) : kind_(std::move(kind)), sink_(sink) {}
  void format(const std::string& s, const srchilite::FormatterParams*) override {
    if (s.empty()) return;
    auto& out = **sink_;
    if (!out.empty() && out.back().kind == kind_)
      out.back().text += s;
    else
      out.push_back({kind_, s});
  }

 private:
  std::string kind_;
  std::vector<Token>** sink_;
};

// Element names used by Source-highlight's language definitions (its default.style); anything else
// is shown as plain text.
constexpr const char* kElements[] = {
    "keyword",  "type",     "usertype", "string",   "regexp",   "specialchar", "comment",     "number",
    "preproc",  "symbol",   "function", "cbracket", "todo",     "predef_var",  "predef_func", "classname",
    "variable", "property", "label",    "url",      "selector", "attribute",   "value",       "section"};

}  // namespace

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

// One highlighter per language, built on first use. Source-highlight's objects are not thread-safe
// and the site renders editions in parallel, so all use goes through one lock.
struct Engine {
  std::mutex mutex;
  std::vector<Token>* sink = nullptr;
  srchilite::FormatterManager formatters{srchilite::FormatterPtr(new Collector("", &sink))};
  std::map<std::string, std::unique_ptr<srchilite::SourceHighlighter>> by_lang_file;

  Engine() {
    for (const char* e : kElements)
      formatters.addFormatter(e, srchilite::FormatterPtr(new Collector(e, &sink)));
  }

  srchilite::SourceHighlighter* highlighter(const std::string& language) {
    std::string file = srchilite::Instances::getLangMap()->getMappedFileName(language);
    if (file.empty()) return nullptr;
    auto it = by_lang_file.find(file);
    if (it != by_lang_file.end()) return it->second.get();
    std::unique_ptr<srchilite::SourceHighlighter> h;
    try {
      h = std::make_unique<srchilite::SourceHighlighter>(
          srchilite::Instances::getLangDefManager()->getHighlightState(file));
      h->setFormatterManager(&formatters);
    } catch (const std::exception&) {
      h.reset();  // a broken or missing definition file: plain text, remembered
    }
    return by_lang_file.emplace(file, std::move(h)).first->second.get();
  }
};

Engine& engine() {
  static Engine e;
  return e;
}

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

}  // namespace

std::optional<std::vector<Token>> tokens(std::string_view language, std::string_view code) {
  std::string lang = first_word(language);
  if (lang.empty()) return std::nullopt;
  Engine& e = engine();
  std::lock_guard lock(e.mutex);
  srchilite::SourceHighlighter* h;
  try {
    h = e.highlighter(lang);
  } catch (const std::exception&) {
    return std::nullopt;  // no lang.map in Source-highlight's data folder
  }
  if (!h) return std::nullopt;
  std::vector<Token> out;
  e.sink = &out;
  // Each block starts in the language's initial state (an unclosed string in one block must not
  // colour the next).
  h->setCurrentState(h->getMainState());
  h->clearStateStack();
  std::size_t start = 0;
  while (start <= code.size()) {
    std::size_t end = code.find('\n', start);
    std::string line(
        code.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    h->highlightParagraph(line);
    if (end == std::string_view::npos) break;
    if (!out.empty() && out.back().kind.empty())
      out.back().text += '\n';
    else
      out.push_back({"", "\n"});
    start = end + 1;
  }
  e.sink = nullptr;
  return out;
}

}  // namespace bb::highlight
