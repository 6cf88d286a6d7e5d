// The highlight cache's store and file format: the tokens of code blocks kept between runs in one file per
// output folder (<out>/.cache/highlight.bin), valid only for the Source-highlight installation that made
// them, so that a run whose code blocks did not change never loads the highlighting module.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "highlight/highlight.hpp"

namespace bb::highlight::cache {

// What highlighting one block gave: its tokens, or nullopt when Source-highlight has no usable definition
// for its language (plain text, remembered too).
using Result = std::optional<std::vector<Token>>;

// The identity of everything a block's tokens depend on besides the block itself. Its first part: the
// cache format, the highlighting module, Source-highlight's shared libraries, the data folder it uses
// (SOURCE_HIGHLIGHT_DATADIR, ~/.source-highlight/source-highlight.conf, or the installed one) and that
// folder's lang.map. Then one section per language the cache holds (language_section), re-examined here
// from `stored`, the stamp of the cache file read: a section is the list of the language's definition
// files, so the current stamp equals the stored one exactly when none of them changed. nullopt when the
// first part cannot be examined: no cache is then used.
std::optional<std::string> stamp(std::string_view stored = {});

// The stamp section of `language` (a normalised lang.map name) whose definition file lang.map names
// `definition` ("" for none): that file and every file it includes, transitively, each by identity
// (device, inode, size, modification time, mode) or as missing, taken before the file is read. Only these
// files and lang.map are read when Source-highlight builds the language's highlighter (its include
// directive is the one way a definition reads another file), so while they and the first part are
// unchanged the language's tokens are too. nullopt when the language cannot be covered soundly: a file
// named with a folder (Source-highlight looks it up elsewhere), or one modified in the last two seconds
// (it could change again within one tick of the file system's clock, unseen).
std::optional<std::string> language_section(const std::string& language, const std::string& definition);

// `section` when it equals the one `language` had the first time this process covered it, else nullopt.
// The module keeps each language's highlighter for the life of the process (the dev server's too), built
// from the definition as it was then: a later run whose section differs would keep the old definition's
// tokens under the new definition's stamp, so it keeps none of that language. Thread-safe.
std::optional<std::string> as_first_read(const std::string& language,
                                         const std::optional<std::string>& section);

// The stamp a cache file's bytes were written under ("" when they are not a cache file's), for stamp().
std::string_view stored_stamp(std::string_view bytes);

// The folder Source-highlight reads its language definitions and lang.map from.
std::string data_folder();

// Blocks older than this many writes of the file, not looked up since, are dropped: the file holds what
// recent runs used (an edition built alone does not evict the other's blocks), not every block ever seen.
inline constexpr std::uint32_t kKeepWrites = 8;

// The blocks of one cache file, looked up and added to by the writers' threads.
class Store {
 public:
  // The blocks of `bytes` (a cache file's content) when it is well-formed and was written under `stamp`;
  // otherwise none: a damaged, truncated, foreign or outdated file is ignored, never an error.
  Store(std::string stamp, std::string_view bytes);

  // The cached result for `code` in `language` (a normalised lang.map name); nullopt on a miss.
  std::optional<Result> find(const std::string& language, std::string_view code);
  void put(const std::string& language, std::string_view code, Result result);

  // The file to write back, or nullopt when the one read is still right (every block was found and
  // none is about to be dropped). Starts the next period of use (`site --serve` saves after each build).
  std::optional<std::string> save();

  [[nodiscard]] std::size_t size() const;

  // Whether blocks of `language` may be put: true when the stamp has its section, false when it could not
  // be covered (cover with nullopt), nullopt when not tried yet.
  std::optional<bool> covers(const std::string& language) const;
  // Adds `language`'s section (language_section) to the stamp, taken before the language's definition
  // was loaded for this run; nullopt: its blocks are not kept.
  void cover(const std::string& language, const std::optional<std::string>& section);
  [[nodiscard]] std::string stamp() const;

 private:
  struct Entry {
    std::uint32_t written = 0;  // the file generation that last saw it used
    bool used = false;          // looked up or added since the last save
    Result result;
  };
  bool parse(std::string_view bytes);
  std::string serialize() const;

  mutable std::mutex mutex_;
  std::string stamp_;
  std::uint32_t generation_ = 0;  // of the file read (0: none)
  bool dirty_ = false;
  std::unordered_map<std::string, Entry> entries_;
  std::unordered_map<std::string, bool> covered_;  // language → its section is in the stamp
};

}  // namespace bb::highlight::cache
