// The parse store: parsed chapters kept on disk between runs, in the output folder's cache
// (<out>/.cache/parsed). A manuscript whose file is unchanged (same device, inode, size and
// modification time), parsed by the same bookbuild executable with the same front-end options, is
// read back from its stored tree instead of being parsed again; its parse diagnostics come back with
// it. The in-memory ParseCache of `site --serve` sits in front of it.
//
// A stored file is the output folder's, not the book's, but it is read as untrusted bytes all the
// same: every field is bounds-checked, the nesting depth is limited, and the bytes carry a checksum;
// anything unexpected is a miss (the chapter is parsed), never an error.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"
#include "markdown/frontend.hpp"
#include "math/mathml.hpp"

namespace bb::book {

// What identifies a manuscript file's contents without reading it.
struct SourceId {
  std::uint64_t device = 0, inode = 0, size = 0;
  std::int64_t mtime_ns = 0;
  bool operator==(const SourceId&) const = default;
};

// The id of a regular file, or nullopt (missing, not a regular file).
std::optional<SourceId> source_id(const std::filesystem::path& file);

// The executable that is running, as the caches on disk key their entries: a rebuilt or upgraded
// bookbuild (whose front end, filters or writers may have changed) starts afresh. "" when it cannot
// be examined: nothing is then stored or read.
const std::string& executable_stamp();

// A formula of the chapter and its conversion to MathML, which the formula check and the writers of
// every later run would otherwise compute again (math/mathml.hpp: remember_mathml).
struct StoredFormula {
  std::string tex;
  bool display = false;
  math::MathResult result;
};

struct StoredParse {
  doc::Node root;
  std::vector<Diagnostic> diags;
  std::vector<StoredFormula> formulas;
};

// Uses `dir` for the rest of the process (bookbuild epub, latex, pdf, site and check call it with
// their output folder's cache); an empty path turns the store off. Not called: no store.
void use_parse_store(const std::filesystem::path& dir);

// Whether a store is in use.
bool parse_store_in_use();

// The stored parse of `source` if it was stored for this exact file, executable and options.
std::optional<StoredParse> load_parse(const std::filesystem::path& source, const SourceId& id,
                                      const markdown::Options& options);

// Stores a parse of `source` (a file modified in the last two seconds is not stored: it could change
// again within the file system's timestamp granularity, keeping its size and time). A full or
// read-only disk is not an error: the next run parses again.
void store_parse(const std::filesystem::path& source, const SourceId& id, const markdown::Options& options,
                 const StoredParse& parse);

// The bytes store_parse writes and load_parse reads (for tests). `stamp` names the executable;
// decode returns nullopt for anything but bytes encode made with the same stamp, source, id and options.
std::string encode_parse(std::string_view stamp, const std::filesystem::path& source, const SourceId& id,
                         const markdown::Options& options, const StoredParse& parse);
std::optional<StoredParse> decode_parse(std::string_view bytes, std::string_view stamp,
                                        const std::filesystem::path& source, const SourceId& id,
                                        const markdown::Options& options);

// For the fuzz harness: the bytes every stored parse of `source` starts with, and the checksum of all
// but the last eight bytes that those eight bytes hold (little-endian).
std::string parse_store_header(std::string_view stamp, const std::filesystem::path& source,
                               const SourceId& id, const markdown::Options& options);
std::uint64_t parse_store_checksum(std::string_view bytes);

}  // namespace bb::book
