// The converter from cmark's tree to the document tree, shared by the front end's files (blocks,
// inlines, captions, callouts, spans); internal to builder/markdown/.
#pragma once

#include <cmark-gfm.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"
#include "markdown/attributes.hpp"
#include "markdown/frontend.hpp"

namespace bb::markdown {

inline std::string type_string(cmark_node* n) {
  const char* s = cmark_node_get_type_string(n);
  return s ? s : "";
}

inline bool is_blank(std::string_view s) {
  return s.find_first_not_of(" \t\n\r") == std::string_view::npos;
}

inline std::string_view trim(std::string_view s) {
  auto b = s.find_first_not_of(" \t\n\r");
  if (b == std::string_view::npos) return {};
  auto e = s.find_last_not_of(" \t\n\r");
  return s.substr(b, e - b + 1);
}

class Converter {
 public:
  Converter(std::filesystem::path path, Diagnostics& diags, const Options& options)
      : path_(std::move(path)), diags_(diags), opt_(options) {}

  doc::Node document(cmark_node* root);

 private:
  SourceLoc loc(cmark_node* n) const;
  SourceLoc at(const doc::Node& n, std::size_t offset) const;

  // blocks.cpp
  void blocks(cmark_node* parent, std::vector<doc::Node>& out);
  // A node of `kind` holding the converted blocks of `n` (block quotes, list items).
  doc::Node container(doc::Kind kind, cmark_node* n);
  doc::Node block(cmark_node* n);
  doc::Node code_block(cmark_node* n);
  doc::Node html_block(cmark_node* n);
  static std::size_t parse_anchor(std::string_view s, std::string& id);
  doc::Node table(cmark_node* n);
  void group(std::vector<doc::Node>& v);
  // fenced_divs.cpp
  void fenced_divs(std::vector<doc::Node>& v);
  // definitions.cpp
  void definition_lists(std::vector<doc::Node>& v);
  void split_display_math(std::vector<doc::Node>& v);

  // captions.cpp
  void make_figure(doc::Node& p);
  bool take_caption(doc::Node& target, doc::Node& para, const std::vector<std::string>& words);
  void caption_from_alt(doc::Node& fig);
  bool table_caption(doc::Node& table, doc::Node& para);
  std::size_t table_title(std::vector<doc::Node>& v, std::size_t table);
  bool is_table_caption(doc::Node& para);
  bool titles_next_table(std::vector<doc::Node>& v, std::size_t line, std::optional<bool> above);
  void mark_table_title(doc::Node& p);

  // callouts.cpp
  void make_callout(doc::Node& q);
  bool make_alert(doc::Node& q);
  void make_div_callout(doc::Node& div, const Attributes& attrs, const std::string& written);
  void mark_lead_paragraph(doc::Node& p);

  // inlines.cpp
  void inlines(cmark_node* parent, std::vector<doc::Node>& out);
  doc::Node inline_node(cmark_node* n);
  void finish(std::vector<doc::Node>& v);
  void merge_text(std::vector<doc::Node>& v);
  void warn_unrendered_links(const std::vector<doc::Node>& v);
  static doc::Node text_node(std::string text, SourceLoc at, int offset);
  void split_text(std::vector<doc::Node>& v);

  // spans.cpp
  void bracketed_spans(std::vector<doc::Node>& v);
  static void apply(doc::Node& n, const Attributes& a);
  static void apply_trailing_attributes(doc::Node& target, std::vector<doc::Node>& inl);

  SourcePath path_;  // interned once: every node's SourceLoc shares it
  Diagnostics& diags_;
  const Options& opt_;
};

}  // namespace bb::markdown
