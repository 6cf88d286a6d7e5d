// Fuzz target: the parse store's file (builder/book/parse_store.hpp), <out>/.cache/parsed/*.bin. Any
// bytes read back as a stored parse give a tree or a miss, never a crash; and any Markdown, once parsed,
// stored and read back, gives the same tree, diagnostics and converted formulas.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "book/parse_store.hpp"
#include "doc/tree.hpp"
#include "fuzz_support.hpp"
#include "markdown/frontend.hpp"
#include "math/mathml.hpp"

namespace {

using namespace bb;

constexpr std::string_view kStamp = "stamp 1";
const std::filesystem::path kSource = "/book/manuscripts/ch01.md";
constexpr book::SourceId kId{1, 2, 3, 4};

std::string with_checksum(std::string bytes) {
  const std::uint64_t sum = book::parse_store_checksum(bytes);
  for (int i = 0; i < 8; ++i) bytes += static_cast<char>((sum >> (8 * i)) & 0xFF);
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const markdown::Options options;
  static const std::string header = book::parse_store_header(kStamp, kSource, kId, options);
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  // The input as a whole file, and as the body after a valid header with a valid checksum (so that the
  // decoder behind the checks is explored too).
  (void)book::decode_parse(input, kStamp, kSource, kId, options);
  (void)book::decode_parse(with_checksum(header + std::string(input)), kStamp, kSource, kId, options);

  // The input as Markdown: stored and read back, the same tree and diagnostics.
  Diagnostics diags;
  book::StoredParse parse;
  parse.root = markdown::parse(input, kSource, diags, options);
  parse.diags = diags.all();
  doc::walk(parse.root, [&](const doc::Node& n) {
    if ((n.kind == doc::Kind::InlineMath || n.kind == doc::Kind::DisplayMath) && parse.formulas.size() < 16)
      parse.formulas.push_back({n.text, n.kind == doc::Kind::DisplayMath,
                                math::to_mathml(n.text, n.kind == doc::Kind::DisplayMath)});
  });
  const std::string bytes = book::encode_parse(kStamp, kSource, kId, options, parse);
  if (bytes.empty()) return 0;  // nested deeper than the store keeps
  auto back = book::decode_parse(bytes, kStamp, kSource, kId, options);
  fuzz::check(back.has_value());
  fuzz::check(doc::dump(back->root) == doc::dump(parse.root));
  fuzz::check(back->diags.size() == parse.diags.size());
  for (std::size_t i = 0; i < parse.diags.size(); ++i)
    fuzz::check(back->diags[i].message == parse.diags[i].message &&
                back->diags[i].loc.line == parse.diags[i].loc.line &&
                back->diags[i].loc.col == parse.diags[i].loc.col);
  fuzz::check(back->formulas.size() == parse.formulas.size());
  for (std::size_t i = 0; i < parse.formulas.size(); ++i)
    fuzz::check(back->formulas[i].tex == parse.formulas[i].tex &&
                back->formulas[i].result.mathml == parse.formulas[i].result.mathml &&
                back->formulas[i].result.errors.size() == parse.formulas[i].result.errors.size() &&
                back->formulas[i].result.tag.has_value() == parse.formulas[i].result.tag.has_value());
  // A stored parse is only good for its own file id, executable and source.
  fuzz::check(!book::decode_parse(bytes, "stamp 2", kSource, kId, options));
  fuzz::check(!book::decode_parse(bytes, kStamp, kSource, book::SourceId{1, 2, 3, 5}, options));
  return 0;
}
