// Fuzz target: the filtered-tree store's file (builder/bookfilters/filtered_store.hpp),
// <out>/.cache/filtered/*. Any bytes read back as a stored entry give a tree or a miss, never a crash;
// and any Markdown, once parsed, stored with the questions a filter asked and read back, gives the same
// tree while the book answers the same, and a miss once one answer differs.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bookfilters/filtered_store.hpp"
#include "doc/tree.hpp"
#include "fuzz_support.hpp"
#include "markdown/frontend.hpp"
#include "text/digest.hpp"

namespace {

using namespace bb;

const std::string kHeader = "bookbuild filtered-store fuzz header\n";
const std::filesystem::path kSource = "/book/manuscripts/ch01.md";

std::string with_checksum(std::string bytes) {
  const std::uint64_t sum = text::checksum64(bytes);
  for (int i = 0; i < 8; ++i) bytes += static_cast<char>((sum >> (8 * i)) & 0xFF);
  return bytes;
}

// A book that knows one label and one calc expression; answers depend on the subject only.
bookfilters::Lookups book_lookups(const std::string& known) {
  bookfilters::Lookups l;
  l.label = [known](const std::string& name) -> std::optional<bookfilters::LabelInfo> {
    if (name != known) return std::nullopt;
    return bookfilters::LabelInfo{"fig", "ch01", "fig-1-1", "1.1", "A figure"};
  };
  l.calc = [known](const std::string& expr, std::string& error) -> std::optional<bookfilters::CalcValue> {
    if (expr == known) return bookfilters::CalcValue{true, static_cast<long long>(known.size()), 0};
    error = "unknown: " + expr.substr(0, 40);
    return std::nullopt;
  };
  return l;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string first_line(input.substr(0, std::min<std::size_t>(input.find('\n'), 64)));
  const bookfilters::Lookups lookups = book_lookups(first_line);

  // The input as a whole file, and as the body after a valid header with a valid checksum (so that the
  // decoder behind the checks is explored too).
  // The tree it applies to: a few blocks (a stored result names input blocks by index).
  Diagnostics diags;
  const doc::Node small = markdown::parse("# A\n\nOne.\n\nTwo.\n", kSource, diags, markdown::Options{});
  doc::Node tree = small;
  (void)bookfilters::decode_filtered(input, kHeader, lookups, tree);
  tree = small;
  (void)bookfilters::decode_filtered(with_checksum(kHeader + std::string(input)), kHeader, lookups, tree);

  // The input as Markdown, stored with the questions a filter would have asked, and read back: whole,
  // and as the result of a filter that kept the input's blocks but its first, which it changed.
  const doc::Node root = markdown::parse(input, kSource, diags, markdown::Options{});
  std::vector<bookfilters::Question> questions;
  for (auto kind : {bookfilters::Question::Kind::Label, bookfilters::Question::Kind::Calc})
    for (const std::string& subject : {first_line, std::string("other")})
      questions.push_back({kind, subject, bookfilters::ask(lookups, kind, subject)});
  const std::string bytes = bookfilters::encode_filtered(kHeader, {}, root, questions);
  if (bytes.empty()) return 0;  // nested deeper than the store keeps
  doc::Node back(doc::Kind::Document);
  fuzz::check(bookfilters::decode_filtered(bytes, kHeader, lookups, back));
  fuzz::check(doc::dump(back) == doc::dump(root));
  doc::Node changed = root;
  if (!changed.children.empty()) changed.children.front().text += "!";
  const std::string patch =
      bookfilters::encode_filtered(kHeader, bookfilters::input_blocks(root), changed, questions);
  back = root;
  fuzz::check(!patch.empty() && bookfilters::decode_filtered(patch, kHeader, lookups, back));
  fuzz::check(doc::dump(back) == doc::dump(changed));
  // Another header (another executable, filter or chapter) is a miss; so is a book that answers one
  // question otherwise.
  fuzz::check(!bookfilters::decode_filtered(bytes, kHeader + "x", lookups, back));
  fuzz::check(!bookfilters::decode_filtered(bytes, kHeader, book_lookups(first_line + "?"), back));
  return 0;
}
