// Loading languages/*.toml (toml++) once per process, and matching BCP 47 tags to them.
#include "lang/language.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <mutex>
#include <optional>

#include "assets/assets.hpp"
#include "diag/diagnostics.hpp"
#include "inputs/inputs.hpp"
#include "text/binary.hpp"
#include "text/digest.hpp"
#include "text/unicode.hpp"
#include "tomlfile/parse.hpp"

namespace bb::lang {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

// How many leading subtags of `tag` equal `pattern`'s (all of them, or 0).
std::size_t match_length(const std::string& tag, const std::string& pattern) {
  if (tag == pattern) return pattern.size() + 1;
  if (tag.starts_with(pattern) && tag[pattern.size()] == '-') return pattern.size();
  return 0;
}

std::vector<std::string> strings(const toml::node* n, const fs::path& file, std::string_view key) {
  std::vector<std::string> out;
  if (!n) return out;
  const auto* arr = n->as_array();
  if (!arr) throw FatalError(file.string() + ": `" + std::string(key) + "` must be a list of strings");
  for (const auto& v : *arr) {
    auto s = v.value<std::string>();
    if (!s) throw FatalError(file.string() + ": `" + std::string(key) + "` must be a list of strings");
    out.push_back(*s);
  }
  return out;
}

void read_words(const toml::table& t, const std::string& prefix, Language& l, const fs::path& file) {
  for (const auto& [k, v] : t) {
    std::string key = prefix + std::string(k.str());
    if (const auto* sub = v.as_table())
      read_words(*sub, key + ".", l, file);
    else if (auto s = v.value<std::string>())
      l.words[key] = *s;
  }
}

Language load(const fs::path& file) {
  const std::string text = assets::read_data_file(file);
  auto parsed = tomlfile::parse(text, file);
  if (!parsed.error.empty())
    throw FatalError(file.string() + ":" + std::to_string(parsed.line) + ":" + std::to_string(parsed.col) +
                     ": " + parsed.error);
  const toml::table& t = parsed.table;
  Language l;
  l.family = file.stem().string();
  l.name = t["name"].value_or(l.family);
  l.tags = strings(t.get("tags"), file, "tags");
  for (auto& tag : l.tags) tag = lower(tag);
  l.spaced = t["spaced"].value_or(true);
  bool stems = t["stems"].value_or(false);
  if (const auto* endings = t.get("stem-endings")) l.stem_endings = strings(endings, file, "stem-endings");
  if (const auto* labels = t["labels"].as_table())
    for (const auto& [k, v] : *labels) l.labels[std::string(k.str())] = v.value_or(std::string());
  l.decimal = t["numbers"]["decimal"].value_or(std::string("."));
  l.group = t["numbers"]["group"].value_or(std::string(","));
  l.group_min_digits = t["numbers"]["group-min-digits"].value_or(4);
  if (const auto* words = t["numbers"]["words"].as_table()) {
    for (const auto& [k, v] : *words) {
      const auto n = v.value<long long>();
      if (!n)
        throw FatalError(file.string() + ": [numbers] words: `" + std::string(k.str()) +
                         "` must be an integer");
      l.number_words[text::lower(k.str())] = *n;
    }
  }
  if (const auto* lead = t["lead-words"].as_table())
    for (const auto& [k, v] : *lead) l.lead_words[std::string(k.str())] = strings(&v, file, k.str());
  if (const auto* refs = t["references"].as_table()) {
    for (const auto& [k, v] : *refs) {
      for (const auto& form : strings(&v, file, k.str())) {
        ReferenceForm f{std::string(k.str()), form, "", stems};
        if (auto gap = form.find(" … "); gap != std::string::npos) {
          f.prefix = form.substr(0, gap);
          f.suffix = form.substr(gap + std::string(" … ").size());
        }
        l.references.push_back(std::move(f));
      }
    }
    // "Figures" before "Figure", "例题" before "例": the longest word that matches is the one meant.
    std::stable_sort(
        l.references.begin(), l.references.end(),
        [](const ReferenceForm& a, const ReferenceForm& b) { return a.prefix.size() > b.prefix.size(); });
  }
  for (const char* section : {"site", "epub", "chart", "callout", "cite"})
    if (const auto* words = t[section].as_table()) read_words(*words, std::string(section) + ".", l, file);
  l.latex_setup = t["latex"]["setup"].value_or(std::string());
  return l;
}

struct Registry {
  std::vector<Language> languages;
  const Language* english = nullptr;
};

// --- The parsed files kept between runs (use_cache) ---

std::mutex g_cache_mutex;
fs::path g_cache_file;

constexpr std::size_t kMaxCacheBytes = std::size_t{4} << 20;

// What the cache must have been written from: the format, this executable and each file, by identity.
// "" when any of them cannot be examined (no cache is then used).
std::string cache_stamp(const std::vector<fs::path>& files) {
  auto identity = [](const fs::path& p) -> std::string {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) return {};
    return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) +
           ":" + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
  };
  std::string stamp = "bookbuild languages 1\nexe " + identity("/proc/self/exe") + "\n";
  if (stamp.ends_with("exe \n")) return {};
  // A file changed in the last two seconds could change again within one tick of the file system's
  // clock keeping its size and time: no cache is used until it has settled (as for the figure memo).
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const auto settled = std::chrono::duration_cast<std::chrono::seconds>(now).count() - 2;
  for (const auto& f : files) {
    const fs::path file = assets::data_dir() / f;
    inputs::note_file(file);
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0 || st.st_mtim.tv_sec >= settled) return {};
    stamp += f.generic_string() + " " + identity(file) + "\n";
  }
  return stamp;
}

void put_strings(std::string& out, const std::vector<std::string>& v) {
  text::put_u32(out, static_cast<std::uint32_t>(v.size()));
  for (const auto& s : v) text::put_text(out, s);
}

void put_map(std::string& out, const std::map<std::string, std::string>& m) {
  text::put_u32(out, static_cast<std::uint32_t>(m.size()));
  for (const auto& [k, v] : m) text::put_text(out, k), text::put_text(out, v);
}

std::string encode(const std::vector<Language>& languages) {
  std::string out;
  text::put_u32(out, static_cast<std::uint32_t>(languages.size()));
  for (const auto& l : languages) {
    text::put_text(out, l.family), text::put_text(out, l.name);
    put_strings(out, l.tags);
    text::put_u32(out, l.spaced ? 1 : 0);
    put_map(out, l.labels);
    text::put_text(out, l.decimal), text::put_text(out, l.group);
    text::put_u32(out, static_cast<std::uint32_t>(l.group_min_digits));
    text::put_u32(out, static_cast<std::uint32_t>(l.number_words.size()));
    for (const auto& [k, v] : l.number_words)
      text::put_text(out, k), text::put_u64(out, static_cast<std::uint64_t>(v));
    text::put_u32(out, static_cast<std::uint32_t>(l.lead_words.size()));
    for (const auto& [k, v] : l.lead_words) text::put_text(out, k), put_strings(out, v);
    text::put_u32(out, static_cast<std::uint32_t>(l.references.size()));
    for (const auto& r : l.references) {
      text::put_text(out, r.kind), text::put_text(out, r.prefix), text::put_text(out, r.suffix);
      text::put_u32(out, r.stem ? 1 : 0);
    }
    put_strings(out, l.stem_endings);
    put_map(out, l.words);
    text::put_text(out, l.latex_setup);
  }
  return out;
}

class Decoder {
 public:
  explicit Decoder(std::string_view bytes) : in_(bytes) {}

  bool languages(std::vector<Language>& out) {
    std::uint32_t n = 0;
    if (!count(n)) return false;
    out.resize(n);
    for (auto& l : out)
      if (!language(l)) return false;
    return in_.left() == 0;
  }

 private:
  // A count no bigger than the bytes left could hold (each item takes at least 4 bytes).
  bool count(std::uint32_t& n) { return in_.u32(n) && n <= in_.left() / 4; }
  bool str(std::string& s) {
    std::string_view v;
    if (!in_.text(v)) return false;
    s.assign(v);
    return true;
  }
  bool flag(bool& b) {
    std::uint32_t v = 0;
    if (!in_.u32(v) || v > 1) return false;
    b = v == 1;
    return true;
  }
  bool strings(std::vector<std::string>& v) {
    std::uint32_t n = 0;
    if (!count(n)) return false;
    v.resize(n);
    for (auto& s : v)
      if (!str(s)) return false;
    return true;
  }
  bool map(std::map<std::string, std::string>& m) {
    std::uint32_t n = 0;
    if (!count(n)) return false;
    for (std::uint32_t i = 0; i < n; ++i) {
      std::string k, v;
      if (!str(k) || !str(v)) return false;
      m.emplace(std::move(k), std::move(v));
    }
    return true;
  }
  bool language(Language& l) {
    std::uint32_t n = 0, digits = 0;
    if (!str(l.family) || !str(l.name) || !strings(l.tags) || !flag(l.spaced) || !map(l.labels) ||
        !str(l.decimal) || !str(l.group) || !in_.u32(digits) || !count(n))
      return false;
    l.group_min_digits = static_cast<int>(digits);
    for (std::uint32_t i = 0; i < n; ++i) {
      std::string k;
      std::uint64_t v = 0;
      if (!str(k) || !in_.u64(v)) return false;
      l.number_words.emplace(std::move(k), static_cast<long long>(v));
    }
    if (!count(n)) return false;
    for (std::uint32_t i = 0; i < n; ++i) {
      std::string k;
      std::vector<std::string> v;
      if (!str(k) || !strings(v)) return false;
      l.lead_words.emplace(std::move(k), std::move(v));
    }
    if (!count(n)) return false;
    l.references.resize(n);
    for (auto& r : l.references)
      if (!str(r.kind) || !str(r.prefix) || !str(r.suffix) || !flag(r.stem)) return false;
    return strings(l.stem_endings) && map(l.words) && str(l.latex_setup);
  }

  text::ByteReader in_;
};

// The cache's bytes: the stamp, the encoded languages, and text::checksum64 of both.
std::optional<std::vector<Language>> read_cache(const fs::path& file, const std::string& stamp) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec || size > kMaxCacheBytes || size < stamp.size() + 8) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())) || !bytes.starts_with(stamp))
    return std::nullopt;
  const std::string_view body = std::string_view(bytes).substr(0, bytes.size() - 8);
  text::ByteReader sum(std::string_view(bytes).substr(body.size()));
  std::uint64_t expected = 0;
  if (!sum.u64(expected) || expected != text::checksum64(body)) return std::nullopt;
  std::vector<Language> languages;
  if (!Decoder(body.substr(stamp.size())).languages(languages)) return std::nullopt;
  return languages;
}

void write_cache(const fs::path& file, const std::string& stamp, const std::vector<Language>& languages) {
  std::string bytes = stamp + encode(languages);
  text::put_u64(bytes, text::checksum64(bytes));
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  // Aside and renamed: a concurrent build reads the old file or the new one, never half of one.
  const fs::path tmp =
      file.parent_path() / ("." + file.filename().string() + ".tmp-" + std::to_string(::getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
}

const Registry& registry() {
  static const Registry r = [] {
    Registry reg;
    std::error_code ec;
    std::vector<fs::path> files;
    inputs::note_folder(assets::data_dir() / "languages");
    for (const auto& e : fs::directory_iterator(assets::data_dir() / "languages", ec))
      if (e.path().extension() == ".toml") files.push_back(fs::path("languages") / e.path().filename());
    std::sort(files.begin(), files.end());
    fs::path cache;
    {
      std::lock_guard lock(g_cache_mutex);
      cache = g_cache_file;
    }
    const std::string stamp = cache.empty() ? std::string() : cache_stamp(files);
    std::optional<std::vector<Language>> cached;
    if (!stamp.empty()) cached = read_cache(cache, stamp);
    if (cached && cached->size() == files.size()) {
      reg.languages = std::move(*cached);
    } else {
      for (const auto& f : files) reg.languages.push_back(load(f));
      if (!stamp.empty()) write_cache(cache, stamp, reg.languages);
    }
    for (const auto& l : reg.languages)
      if (l.family == "en") reg.english = &l;
    if (!reg.english) throw FatalError("bookbuild's data folder has no languages/en.toml");
    return reg;
  }();
  return r;
}

}  // namespace

const std::string& Language::word(std::string_view key) const {
  if (auto it = words.find(std::string(key)); it != words.end()) return it->second;
  const Language& en = *registry().english;
  if (auto it = en.words.find(std::string(key)); it != en.words.end()) return it->second;
  throw FatalError("no language file defines the interface word `" + std::string(key) + "`");
}

const std::string& Language::label(std::string_view kind) const {
  if (auto it = labels.find(std::string(kind)); it != labels.end()) return it->second;
  const Language& en = *registry().english;
  if (auto it = en.labels.find(std::string(kind)); it != en.labels.end()) return it->second;
  throw FatalError("no language file defines the label `" + std::string(kind) + "`");
}

const Language& language(std::string_view bcp47) {
  const Registry& r = registry();
  std::string tag = lower(bcp47);
  const Language* best = r.english;
  std::size_t best_len = 0;
  for (const auto& l : r.languages)
    for (const auto& pattern : l.tags)
      if (std::size_t n = match_length(tag, pattern); n > best_len) {
        best_len = n;
        best = &l;
      }
  return *best;
}

const std::vector<Language>& all_languages() {
  return registry().languages;
}

void use_cache(const fs::path& file) {
  std::lock_guard lock(g_cache_mutex);
  if (g_cache_file.empty()) g_cache_file = file;
}

}  // namespace bb::lang
