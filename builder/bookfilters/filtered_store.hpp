// The filtered-tree store: each chapter's tree as the book's Lua filters of one stage left it, kept in
// the output folder's cache (<out>/.cache/filtered) so that a build whose chapter, filters and answers
// are unchanged runs no filter (docs/filters.md, "Cost and caching").
//
// An entry is keyed on everything a filter can see: the executable, the filters' names, options and
// text, the sandbox's limits, the output format, the edition, the stage, the chapter's globals and its
// tree as the filters got it. That is not enough: a filter also asks the book (`bookbuild.label`,
// `bookbuild.calc`), and the glossary's result depends on labels other chapters define. So the
// questions asked during a run are written down with their answers and kept with the result; a later
// build asks them again, and takes the result only if every answer is the same.
//
// A stored file is the output folder's, but it is read as untrusted bytes all the same (bounded read,
// checksum, every field checked by doc::codec); anything unexpected is a miss, never an error.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bookfilters/book_filters.hpp"
#include "doc/tree.hpp"

namespace bb::bookfilters {

// Uses `dir` for the rest of the process (the commands that build into --out call it with their output
// folder's cache); an empty path turns the store off. Not called: no store.
void use_filtered_store(const std::filesystem::path& dir);

// A question a filter asked the book, and the answer it got, as bytes that compare equal exactly when
// the filter saw the same thing.
struct Question {
  enum class Kind : std::uint8_t { Label, Calc };
  Kind kind = Kind::Label;
  std::string subject;  // the label, or the calc expression
  std::string answer;
};

// The answer `lookups` gives to a question now, in Question::answer's bytes.
std::string ask(const Lookups& lookups, Question::Kind kind, const std::string& subject);

// Lookups that answer as `inner` does, and write down each distinct question and its answer.
class Recorder {
 public:
  explicit Recorder(const Lookups& inner);
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;
  [[nodiscard]] const Lookups& lookups() const { return recording_; }
  [[nodiscard]] const std::vector<Question>& questions() const { return questions_; }

 private:
  void note(Question::Kind kind, const std::string& subject, std::string answer);
  Lookups recording_;
  std::vector<Question> questions_;
};

// Where a chapter's filtered tree is kept, and the bytes a stored entry must start with.
struct StoreKey {
  std::filesystem::path file;
  std::string header;
};

// The key of running `due` (the programs that apply, in order) over `chapter` at `place`; nullopt when
// no store is in use (or the tree is too deep to be written).
std::optional<StoreKey> store_key(const std::vector<const Program*>& due, const book::Chapter& chapter,
                                  const Place& place, const Lookups& lookups, const Limits& limits);

// A chapter's top-level blocks as the filters got them, each as bytes of its own (doc::codec, with a
// path table of its own). A stored result names each block the filters left as it was by its index
// instead of holding it again: reading the result back decodes only what the filters made, and keeps
// the rest of the tree the build already has (the key holds the digest of that whole tree, so the
// blocks an entry names are the ones it was stored with).
struct InputBlocks {
  std::vector<std::string> bytes;  // "" for a block too deep to be written (never named)
};
InputBlocks input_blocks(const doc::Node& root);

// Replaces `root` (the tree the filters would get, of which `key` holds the digest) with the stored
// result for `key`, if there is one and every question it was stored with gets the same answer from
// `lookups` now. False, with `root` unchanged, otherwise.
bool load_filtered(const StoreKey& key, const Lookups& lookups, doc::Node& root);

// Keeps `root` (the filters' result of the tree whose blocks were `input`) with the questions asked on
// the way. A full or read-only disk is not an error: the next build runs the filters again.
void store_filtered(const StoreKey& key, const InputBlocks& input, const doc::Node& root,
                    const std::vector<Question>& questions);

// The bytes store_filtered writes and load_filtered reads (for tests and the fuzz harness).
std::string encode_filtered(const std::string& header, const InputBlocks& input, const doc::Node& root,
                            const std::vector<Question>& questions);
bool decode_filtered(std::string_view bytes, const std::string& header, const Lookups& lookups,
                     doc::Node& root);

// Since the process started: chapter passes (a chapter at one stage) whose filters ran, and those
// taken from the store. For tests, and for BOOKBUILD_TIMINGS.
struct RunCounts {
  std::uint64_t ran = 0, reused = 0;
};
RunCounts run_counts();
void count_run(bool reused);

}  // namespace bb::bookfilters
