// The Markdown front end's entry: cmark-gfm (GFM tables, footnotes, strikethrough, autolinks, plus the
// TeX math extension) parses a manuscript and the converter (blocks.cpp, inlines.cpp, …) turns cmark's
// tree into the document tree with the Pandoc-style extras the book uses.
#include "markdown/frontend.hpp"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <vector>

#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"
#include "markdown/converter.hpp"
#include "markdown/footnotes.hpp"
#include "markdown/math_syntax.hpp"
#include "markdown/nesting.hpp"
#include "markdown/pandoc_inlines.hpp"
#include "markdown/parse_memory.hpp"
#include "markdown/size_limits.hpp"
#include "markdown/source_text.hpp"
#include "markdown/unsupported.hpp"

namespace bb::markdown {

namespace fs = std::filesystem;
using doc::Kind;
using doc::Node;

doc::Node parse(std::string_view source_in, const fs::path& path, Diagnostics& diags,
                const Options& options) {
  if (!within_size_limits(source_in, path, diags)) return Node(Kind::Document, {path, 0, 0});
  std::optional<std::string> checked = checked_utf8(source_in, path, diags);
  if (!checked) return Node(Kind::Document, {path, 0, 0});  // line 0: not parsed
  std::string source = std::move(*checked);
  FencedSource fenced = fence_display_math(source);
  if (fenced.unclosed_line > 0)
    diags.error({path, fenced.unclosed_line, 1}, "display math opened with `$$` is never closed");

  // cmark-gfm's objects live in `memory` and are freed with it, after the conversion.
  ParseMemory memory(parse_budget(fenced.text.size()));
  cmark_node* root = nullptr;
  {
    // cmark-gfm keeps the extensions' special inline characters in a process-wide table that each
    // parser edits when extensions are attached and when it finishes, so parsers must not overlap.
    // (Filling the table once per process and emptying the extensions' lists was tried: cmark-gfm
    // 0.29 then loops forever in cmark_parse_inlines on some inputs.) Chapters still convert to the
    // document tree in parallel.
    static std::mutex cmark_mutex;
    std::lock_guard lock(cmark_mutex);
    cmark_gfm_core_extensions_ensure_registered();
    cmark_parser* parser = cmark_parser_new_with_mem(CMARK_OPT_FOOTNOTES, memory.mem());
    for (const char* name : {"table", "strikethrough", "autolink", "tasklist"}) {
      if (cmark_syntax_extension* ext = cmark_find_syntax_extension(name))
        cmark_parser_attach_syntax_extension(parser, ext);
    }
    cmark_parser_attach_syntax_extension(parser, math_extension());
    reset_math_scan();  // paragraphs of an earlier document may share addresses with this one's
    root = memory.parse(parser, fenced.text);
  }
  if (root == nullptr) {
    over_parse_budget(memory.budget(), fenced.text.size(), path, diags);
    return Node(Kind::Document, {path, 0, 0});
  }
  if (!within_element_limit(root, fenced.text.size(), path, diags)) return Node(Kind::Document, {path, 0, 0});
  bound_nesting(root, path, diags);
  Converter conv(path, diags, options);
  Node doc = conv.document(root);
  bound_nesting(doc, diags);
  name_footnotes(doc, fenced.text);
  check_footnote_definitions(doc, source, path, diags);
  inline_notes(doc, diags);
  pandoc_scripts(doc, fenced.text, diags);
  warn_unsupported_syntax(doc, diags, options.citations);
  return doc;
}

doc::Node parse_file(const fs::path& path, Diagnostics& diags, const Options& options) {
  inputs::note_file(path);
  // Up to one byte over the limit is read, so that a file that grew past it while read is told apart.
  auto read = inputs::read_bounded(path, kMaxFileBytes);
  if (read.status == inputs::ReadStatus::TooLarge) {
    within_file_size(static_cast<std::size_t>(std::max<std::uint64_t>(read.size, kMaxFileBytes + 1)), path,
                     diags);
    return Node(Kind::Document, {path, 0, 0});  // not read (or not kept)
  }
  if (!read.ok()) {
    diags.error({path, 0, 0}, inputs::read_problem(read, kMaxFileBytes));
    return Node(Kind::Document, {path, 0, 0});
  }
  return parse(read.bytes, path, diags, options);
}

}  // namespace bb::markdown
