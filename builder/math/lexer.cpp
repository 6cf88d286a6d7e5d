// The TeX lexer: spaces, command names and `{name}` arguments of one formula.
#include "math/lexer.hpp"

#include "math/unicode.hpp"

namespace bb::math {

void Lexer::skip_spaces() {
  while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
}

std::string_view Lexer::command_at(std::size_t at) const {
  if (at >= src_.size() || src_[at] != '\\' || at + 1 >= src_.size()) return {};
  std::size_t end = at + 1;
  if (is_letter(src_[end])) {
    while (end < src_.size() && is_letter(src_[end])) ++end;
  } else {
    std::size_t length = 1;
    decode_utf8(src_, end, length);
    end += length;
  }
  return src_.substr(at + 1, end - at - 1);
}

std::string_view Lexer::take_command() {
  std::string_view name = command();
  pos_ += 1 + name.size();
  return name;
}

std::string Lexer::read_name() {
  skip_spaces();
  if (peek() != '{') return {};
  const std::size_t open = pos_++;
  const std::size_t close = src_.find('}', pos_);
  if (close == std::string_view::npos) {
    error(open, "missing } for this {");
    pos_ = src_.size();
    return {};
  }
  std::string name(src_.substr(pos_, close - pos_));
  pos_ = close + 1;
  return name;
}

}  // namespace bb::math
