// The highlighting module (bookbuild_highlighter.so): GNU Source-highlight behind the C function of
// highlight_module.h. Language definitions from its data folder, one highlighter per language, tokens
// collected by a formatter per element name; no exception leaves the module.
#include "highlight/highlight_module.h"

#include <srchilite/formatter.h>
#include <srchilite/formattermanager.h>
#include <srchilite/instances.h>
#include <srchilite/langdefmanager.h>
#include <srchilite/langmap.h>
#include <srchilite/sourcehighlighter.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Token {
  std::string kind;
  std::string text;
};

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

std::vector<Token> highlight(srchilite::SourceHighlighter& h, std::vector<Token>*& sink,
                             std::string_view code) {
  std::vector<Token> out;
  sink = &out;
  // Each block starts in the language's initial state (an unclosed string in one block must not
  // colour the next).
  h.setCurrentState(h.getMainState());
  h.clearStateStack();
  std::size_t start = 0;
  while (start <= code.size()) {
    std::size_t end = code.find('\n', start);
    std::string line(
        code.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    h.highlightParagraph(line);
    if (end == std::string_view::npos) break;
    if (!out.empty() && out.back().kind.empty())
      out.back().text += '\n';
    else
      out.push_back({"", "\n"});
    start = end + 1;
  }
  sink = nullptr;
  return out;
}

}  // namespace

extern "C" int bookbuild_highlight(const char* language, const char* code, size_t size,
                                   bookbuild_highlight_token_fn token, void* context) {
  std::vector<Token> out;
  try {
    Engine& e = engine();
    std::lock_guard lock(e.mutex);
    srchilite::SourceHighlighter* h = e.highlighter(language);  // throws without lang.map
    if (!h) return 1;
    try {
      out = highlight(*h, e.sink, std::string_view(code, size));
    } catch (...) {
      e.sink = nullptr;
      throw;
    }
  } catch (...) {
    return 1;
  }
  for (const Token& t : out) token(context, t.kind.c_str(), t.text.data(), t.text.size());
  return 0;
}

extern "C" long bookbuild_highlight_definition(const char* language, char* out, size_t size) {
  try {
    Engine& e = engine();
    std::lock_guard lock(e.mutex);
    const std::string file = srchilite::Instances::getLangMap()->getMappedFileName(language);
    if (file.size() >= size) return -1;
    file.copy(out, file.size());
    out[file.size()] = '\0';
    return static_cast<long>(file.size());
  } catch (...) {
    return -1;
  }
}
