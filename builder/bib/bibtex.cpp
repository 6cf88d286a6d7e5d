// The BibTeX reader (bibliography.hpp): entries, `@string` macros, `#` concatenation, braces and
// quotes nested at most kMaxBraceDepth deep. A syntax error is reported at its line and column and the
// reader goes on at the next `@`, so that one run shows every broken entry.
#include <cctype>
#include <map>
#include <optional>
#include <string>

#include "bib/bibliography.hpp"
#include "bib/latex_text.hpp"
#include "text/suggest.hpp"

namespace bb::bib {

namespace {

struct SyntaxError {
  std::size_t at;
  std::string message;
};

class Reader {
 public:
  Reader(std::string_view text, const std::filesystem::path& path, Diagnostics& diags)
      : s_(text), path_(path), diags_(diags) {
    // The month macros every BibTeX style defines.
    static const char* months[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                   "jul", "aug", "sep", "oct", "nov", "dec"};
    for (int m = 0; m < 12; ++m) macros_[months[m]] = std::to_string(m + 1);
  }

  std::vector<Entry> run() {
    while (true) {
      const std::size_t at = next_entry();
      if (at == std::string_view::npos) break;
      i_ = at + 1;
      if (entries_.size() >= kMaxEntries) {
        error(at, "more than " + std::to_string(kMaxEntries) + " entries: the rest of the file is not read");
        break;
      }
      try {
        item(at);
      } catch (const SyntaxError& e) {
        error(e.at, e.message);
        // Go on at the `@` opening a line that the error stopped at (the next entry), else after the
        // error's place.
        const bool entry_start = e.at < s_.size() && s_[e.at] == '@' && (e.at == 0 || s_[e.at - 1] == '\n');
        i_ = entry_start ? e.at : e.at + 1;
      }
    }
    return std::move(entries_);
  }

 private:
  SourceLoc loc(std::size_t at) {
    // Lines are counted forwards from the last place asked for: a file is read front to back.
    if (at < line_at_) line_ = 1, line_start_ = 0, line_at_ = 0;
    for (; line_at_ < at && line_at_ < s_.size(); ++line_at_)
      if (s_[line_at_] == '\n') ++line_, line_start_ = line_at_ + 1;
    return {path_, line_, static_cast<int>(at - line_start_) + 1};
  }
  void error(std::size_t at, const std::string& message) { diags_.error(loc(at), message); }
  [[noreturn]] void fail(std::size_t at, std::string message) { throw SyntaxError{at, std::move(message)}; }

  // The next `@` outside entries, skipping `%` comments to the end of their line (as biber does).
  std::size_t next_entry() {
    for (; i_ < s_.size(); ++i_) {
      if (s_[i_] == '@') return i_;
      if (s_[i_] == '%')
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
    }
    return std::string_view::npos;
  }

  void space() {
    while (i_ < s_.size()) {
      if (std::isspace(static_cast<unsigned char>(s_[i_]))) {
        ++i_;
      } else if (s_[i_] == '%') {  // a comment runs to the end of the line
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else {
        break;
      }
    }
  }

  static bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_-:./+'!?*&<>").find(c) != std::string_view::npos ||
           static_cast<unsigned char>(c) >= 0x80;
  }

  std::string identifier(const char* what) {
    space();
    const std::size_t start = i_;
    while (i_ < s_.size() && name_char(s_[i_])) ++i_;
    if (i_ == start) fail(start, std::string("expected ") + what);
    return std::string(s_.substr(start, i_ - start));
  }

  void expect(char c, const std::string& what) {
    space();
    if (i_ >= s_.size() || s_[i_] != c)
      fail(std::min(i_, s_.size()), std::string("expected `") + c + "` " + what);
    ++i_;
  }

  void item(std::size_t at) {
    std::string type = identifier("an entry type after `@`");
    for (auto& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    space();
    if (i_ >= s_.size() || (s_[i_] != '{' && s_[i_] != '(')) fail(i_, "expected `{` after `@" + type + "`");
    const char close = s_[i_] == '{' ? '}' : ')';
    const std::size_t open = i_++;
    if (type == "comment" || type == "preamble") {
      if (close == '}') {
        i_ = open;
        (void)braced();
      }
      return;
    }
    if (type == "string") {
      const std::string name = lower(identifier("a macro name"));
      expect('=', "after the macro name");
      macros_[name] = value();
      expect(close, "to close @string");
      return;
    }
    entry(at, std::move(type), close);
  }

  static std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  void entry(std::size_t at, std::string type, char close) {
    Entry e;
    e.type = std::move(type);
    e.loc = loc(at);
    space();
    const std::size_t key_at = i_;
    while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != close &&
           !std::isspace(static_cast<unsigned char>(s_[i_])))
      ++i_;
    e.key = std::string(s_.substr(key_at, i_ - key_at));
    if (e.key.empty()) fail(key_at, "expected the entry's key after `@" + e.type + "{`");
    std::map<std::string, std::pair<std::string, std::size_t>> raw;
    while (true) {
      space();
      if (i_ < s_.size() && s_[i_] == close) {
        ++i_;
        break;
      }
      if (i_ < s_.size() && s_[i_] == '@')
        fail(i_,
             "entry `" + e.key + "` is not closed before the next entry (a `{` or `\"` left open in it?)");
      expect(',', "between fields (or `" + std::string(1, close) + "` to end the entry)");
      space();
      if (i_ < s_.size() && s_[i_] == close) {
        ++i_;
        break;
      }
      const std::size_t field_at = i_;
      const std::string name = lower(identifier("a field name"));
      expect('=', "after field `" + name + "`");
      std::string v = value();
      if (raw.count(name))
        error(field_at, "field `" + name + "` is given twice in entry `" + e.key + "`; the first is kept");
      else
        raw.emplace(name, std::pair(std::move(v), field_at));
    }
    for (auto& [name, v] : raw) {
      if (name == "author" || name == "editor") {
        bool more = false;
        auto names = split_names(v.first, more);
        if (name == "author") {
          e.authors = std::move(names);
          e.more_authors = more;
        } else {
          e.editors = std::move(names);
        }
      } else {
        e.fields[name] = latex_to_text(v.first);
      }
    }
    entries_.push_back(std::move(e));
  }

  // A field's value: pieces joined by `#`, each `{…}`, `"…"`, a number or a macro name. Braces are
  // kept inside the value (they protect names and case); the outer delimiters are not.
  std::string value() {
    std::string out;
    while (true) {
      space();
      if (i_ >= s_.size()) fail(s_.size(), "the file ends inside a field's value");
      const char c = s_[i_];
      if (c == '{') {
        out += braced();
      } else if (c == '"') {
        out += quoted();
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        const std::size_t start = i_;
        while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
        out += s_.substr(start, i_ - start);
      } else if (name_char(c)) {
        const std::size_t start = i_;
        const std::string name = lower(identifier("a value"));
        auto m = macros_.find(name);
        if (m == macros_.end()) {
          std::vector<std::string> known;
          for (const auto& [k, v] : macros_) known.push_back(k);
          fail(start, "unknown @string macro `" + name + "`" + text::did_you_mean(name, known) +
                          " (a value in braces or quotes is text)");
        }
        out += m->second;
      } else {
        fail(i_, "expected a value: `{…}`, `\"…\"`, a number or an @string name");
      }
      // `@string{b = a # a}` doubles with each macro: the value's length is bounded like the file's.
      if (out.size() > kMaxBibliographyBytes)
        fail(i_, "a value longer than the file may be (macros repeated)");
      space();
      if (i_ < s_.size() && s_[i_] == '#') {
        ++i_;
        continue;
      }
      return out;
    }
  }

  // `{…}` with balanced braces; returns what is inside, inner braces kept.
  std::string braced() {
    const std::size_t open = i_++;
    int depth = 1;
    const std::size_t start = i_;
    for (; i_ < s_.size(); ++i_) {
      const char c = s_[i_];
      if (c == '\\' && i_ + 1 < s_.size()) {
        ++i_;  // `\{` and `\}` are characters, not braces
      } else if (c == '{') {
        if (++depth > kMaxBraceDepth)
          fail(i_, "braces nested more than " + std::to_string(kMaxBraceDepth) + " deep");
      } else if (c == '}' && --depth == 0) {
        return std::string(s_.substr(start, i_++ - start));
      }
    }
    fail(open, "this `{` is never closed");
  }

  // `"…"`: ends at a quote outside braces.
  std::string quoted() {
    const std::size_t open = i_++;
    int depth = 0;
    const std::size_t start = i_;
    for (; i_ < s_.size(); ++i_) {
      const char c = s_[i_];
      if (c == '\\' && i_ + 1 < s_.size()) {
        ++i_;
      } else if (c == '{') {
        if (++depth > kMaxBraceDepth)
          fail(i_, "braces nested more than " + std::to_string(kMaxBraceDepth) + " deep");
      } else if (c == '}') {
        if (depth == 0) fail(i_, "a `}` closes no `{` inside this quoted value");
        --depth;
      } else if (c == '"' && depth == 0) {
        return std::string(s_.substr(start, i_++ - start));
      }
    }
    fail(open, "this `\"` is never closed");
  }

  std::string_view s_;
  std::filesystem::path path_;
  Diagnostics& diags_;
  std::size_t i_ = 0;
  int line_ = 1;
  std::size_t line_start_ = 0, line_at_ = 0;
  std::map<std::string, std::string> macros_;
  std::vector<Entry> entries_;
};

}  // namespace

std::vector<Entry> parse_bibtex(std::string_view text, const std::filesystem::path& path,
                                Diagnostics& diags) {
  return Reader(text, path, diags).run();
}

}  // namespace bb::bib
