// The TeX-math-subset parser: reads one formula into MathML nodes as it goes, collecting an error
// (with its byte offset) for everything outside the subset. Its parts live in parser.cpp (atoms,
// commands, scripts), fences.cpp (\left, \big), environments.cpp (\begin...\end) and text.cpp
// (\text, \operatorname).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "math/emit.hpp"
#include "math/lexer.hpp"
#include "math/symbols.hpp"
#include "math/unicode.hpp"

namespace bb::math {

// What an open construct waits for; decides which terminator ends the list being parsed.
enum class Frame { Group, Left, Table, OptionalArgument };

class Parser : Lexer {
 public:
  Parser(std::string_view tex, std::vector<MathError>& errors) : Lexer(tex, errors) {}

  // The MathML of the whole formula (without the <math> element), "" for an empty formula.
  std::string parse_formula(bool display);
  // The formula's `\tag`, after parse_formula.
  const std::optional<EquationTag>& tag() const { return tag_; }

 private:
  std::vector<Frame> frames_;
  std::optional<Alphabet> font_;  // nullopt: TeX's default math italic; Normal: \mathrm
  bool display_style_ = false;
  bool display_formula_ = false;  // a display formula, where \tag is allowed
  std::optional<EquationTag> tag_;
  int depth_ = 0;
  bool too_deep_ = false;

  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser) : p(parser) { ++p.depth_; }
    ~DepthGuard() { --p.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
  };

  // parser.cpp
  std::optional<Frame> terminator_frame() const;
  bool frame_open(Frame f) const;
  void skip_stray_terminator();
  std::vector<Node> parse_list();
  std::optional<Node> parse_argument(std::string_view owner, std::size_t owner_offset);
  std::optional<Node> parse_atom(bool single);
  Node letter(char32_t c) const;
  Node parse_group();
  Node parse_number(bool single);
  std::optional<Node> parse_unicode();
  Node symbol(const Symbol& s) const;
  std::optional<Node> parse_command();
  std::optional<Node> parse_font(std::string_view name, std::size_t start, std::optional<Alphabet> font);
  std::optional<Node> parse_accent(const Accent& a, std::size_t start);
  std::optional<Node> parse_fraction(std::string_view name, std::size_t start, bool binomial);
  // `[…]` after a command (\sqrt[3], \xrightarrow[below]), nullopt when there is none.
  std::optional<std::string> parse_optional_argument();
  std::optional<Node> parse_sqrt(std::size_t start);
  std::optional<Node> parse_extensible_arrow(std::string_view name, std::size_t start);
  std::optional<Node> parse_not(std::size_t start);
  std::optional<Node> parse_wrapper(std::string_view name, std::size_t start);
  std::optional<Node> parse_overset(std::string_view name, std::size_t start);
  Node parse_scripts(Node base);

  // fences.cpp
  std::optional<std::string> parse_delimiter(std::string_view owner);
  std::optional<Node> parse_left(std::size_t start);
  std::optional<Node> parse_big(std::string_view name);

  // environments.cpp
  std::optional<Node> parse_environment(std::size_t start);

  // text.cpp
  std::optional<Node> parse_text(std::string_view name, std::size_t start, Alphabet alphabet);
  std::optional<Node> parse_operatorname(std::size_t start);
  void parse_tag(std::size_t start);
};

}  // namespace bb::math
