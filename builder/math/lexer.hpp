// The TeX lexer of one formula: the read position, characters, command names and `{name}`
// arguments, and the error list every part of the converter reports into.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "math/mathml.hpp"

namespace bb::math {

inline bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
inline bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

class Lexer {
 public:
  Lexer(std::string_view tex, std::vector<MathError>& errors) : src_(tex), errors_(errors) {}

  void error(std::size_t offset, std::string message) { errors_.push_back({offset, std::move(message)}); }

  bool at_end() const { return pos_ >= src_.size(); }
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
  void skip_spaces();

  // The name of the command at `at` (without the backslash), or empty when not at a command.
  // A name is a run of letters, or one character (`\,` `\{` `\\`).
  std::string_view command_at(std::size_t at) const;
  std::string_view command() const { return command_at(pos_); }
  // Consumes the command at pos_ and returns its name.
  std::string_view take_command();

  // A `{name}` argument read as plain characters (environment names, array column specs).
  std::string read_name();

 protected:
  std::string_view src_;
  std::size_t pos_ = 0;
  std::vector<MathError>& errors_;
};

}  // namespace bb::math
