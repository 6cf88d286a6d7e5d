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

// The identity of everything a block's tokens depend on besides the block itself: the cache format, the
// highlighting module, Source-highlight's shared libraries and its data folder (the one Source-highlight
// itself would use: SOURCE_HIGHLIGHT_DATADIR, ~/.source-highlight/source-highlight.conf, or the installed
// one), each file by name, size and modification time. A package upgrade, a rebuilt module or an edited
// language definition changes it. nullopt when any of them cannot be examined: no cache is then used.
std::optional<std::string> stamp();

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
};

}  // namespace bb::highlight::cache
