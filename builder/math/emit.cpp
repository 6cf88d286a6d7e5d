// The MathML emitter: element text, escaping, rows with FUNCTION APPLICATION, fences, alttext.
#include "math/emit.hpp"

#include "math/unicode.hpp"
#include "text/escape.hpp"

namespace bb::math {

std::string element(std::string_view tag, std::string_view text, std::string_view attributes) {
  std::string inner;
  text::append_escaped_xml(inner, text);
  return wrap(tag, inner, attributes);
}

std::string wrap(std::string_view tag, std::string_view inner, std::string_view attributes) {
  std::string out = "<";
  out += tag;
  if (!attributes.empty()) {
    out += ' ';
    out += attributes;
  }
  out += '>';
  out += inner;
  out += "</";
  out += tag;
  out += '>';
  return out;
}

std::string upright_identifier(std::string_view letters) {
  return element("mi", letters, "mathvariant=\"normal\"");
}

std::string utf8(char32_t c) {
  std::string s;
  append_utf8(s, c);
  return s;
}

// Concatenates a row's nodes, inserting FUNCTION APPLICATION after a function name that is applied
// to something (`\sin\theta`, `\max(a,b)`), as MathML expects for speech and spacing.
std::string join(const std::vector<Node>& nodes) {
  std::string out;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    out += nodes[i].xml;
    const bool function = nodes[i].kind == Kind::Function || nodes[i].kind == Kind::LimitFunction;
    if (function && i + 1 < nodes.size()) {
      const Kind next = nodes[i + 1].kind;
      if (next == Kind::Ordinary || next == Kind::Open || next == Kind::Function ||
          next == Kind::LimitFunction || next == Kind::LargeOperator)
        out += "<mo>\u2061</mo>";
    }
  }
  return out;
}

// A row as one MathML element: a single node as it is, several inside <mrow>.
std::string row(const std::vector<Node>& nodes) {
  if (nodes.size() == 1) return nodes.front().xml;
  return wrap("mrow", join(nodes));
}

std::string fence(std::string_view text, std::string_view form) {
  if (text.empty()) return {};
  std::string attributes = "fence=\"true\" form=\"";
  attributes += form;
  attributes += "\" stretchy=\"true\"";
  return element("mo", text, attributes);
}

Node space(std::string_view width) {
  std::string attributes = "width=\"";
  attributes += width;
  attributes += '"';
  return Node{"<mspace " + attributes + "/>", Kind::Space, {}, 0};
}

std::string alttext(std::string_view tex) {
  std::string out;
  for (std::size_t i = 0; i < tex.size();) {
    std::size_t length = 1;
    const char32_t c = decode_utf8(tex, i, length);
    if (c == '\n') {
      out += "&#10;";
    } else if (c == '\t' || c == '\r') {
      out += ' ';
    } else if (c < 0x20 || c == 0xFFFE || c == 0xFFFF || (c == 0xFFFD && length == 1)) {
      out += "\uFFFD";
    } else {
      text::append_escaped_xml(out, tex.substr(i, length));
    }
    i += length;
  }
  return out;
}

}  // namespace bb::math
