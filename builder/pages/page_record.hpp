// The print page record of an edition: on which page of its PDF each top-level block landed, read
// from the XeLaTeX run's .aux, kept in <out>/.cache/pdf/<edition>.pages and trusted only for the PDF
// and the blocks it was made from. The EPUB's page list is drawn from it (docs/epub.md, "Print pages").
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "doc/tree.hpp"

namespace bb::pages {

// The id the LaTeX writer marks a top-level block with, and the EPUB writer looks up:
// "<chapter>.<index of the block among the chapter's top-level blocks>" ("ch04.12").
std::string block_id(std::string_view chapter, std::size_t index);

// Block id → printed page label ("iii", "12"), in the order the blocks were shipped out.
using BlockPages = std::vector<std::pair<std::string, std::string>>;

// The `\bbblockpage{<block id>}{<page>}` lines of an .aux file (templates/latex/preamble.tex writes
// them); other lines are ignored, and so is a block met twice after its first page.
BlockPages parse_aux(std::string_view aux);

// What the blocks of an edition are: their chapters, their kinds and their text. A record made from
// other blocks (an edited manuscript) does not match.
std::uint64_t blocks_digest(const std::vector<std::pair<std::string, const doc::Node*>>& chapters);

struct PageRecord {
  std::uint64_t pdf = 0;     // text::checksum64 of the PDF's bytes
  std::uint64_t blocks = 0;  // blocks_digest of the edition typeset
  BlockPages pages;
};

// The record as a file: "bookbuild pages 1", "pdf <hex>", "blocks <hex>", then "<block id> <page>"
// lines. parse_record returns nullopt for anything else (a damaged or foreign file).
std::string format_record(const PageRecord& record);
std::optional<PageRecord> parse_record(std::string_view text);

// <cache>/pdf/<edition>.pages
std::filesystem::path record_path(const std::filesystem::path& cache, std::string_view edition);

// Writes the record atomically.
void save_record(const std::filesystem::path& file, const PageRecord& record);

// The record at `file` when it was made from the PDF at `pdf` as that file is now and from blocks
// with the digest `blocks`; nullopt when there is none, or it is stale or damaged.
std::optional<PageRecord> valid_record(const std::filesystem::path& file, const std::filesystem::path& pdf,
                                       std::uint64_t blocks);
// The same for the blocks of `chapters`, whose digest is computed only when there is a record to
// compare it with (an EPUB built without a PDF beside it does not walk every block for nothing).
std::optional<PageRecord> valid_record(const std::filesystem::path& file, const std::filesystem::path& pdf,
                                       const std::vector<std::pair<std::string, const doc::Node*>>& chapters);

}  // namespace bb::pages
