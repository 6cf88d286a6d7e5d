// Run records (record.hpp): what a successful run looked at, wrote and printed, and the check that
// all of it is still so.
#include "inputs/record.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <streambuf>
#include <string_view>

#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"

extern char** environ;

namespace bb::inputs {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMagic = "bookbuild run record 1\n";

struct RunState {
  std::string key;         // empty: no record for this run
  std::int64_t start = 0;  // when the run started, ns since the epoch
  std::string refusal;
};

RunState& state() {
  static RunState s;
  return s;
}

void put_u64(std::string& out, std::uint64_t v) {
  char bytes[8];  // little-endian, appended at once (a byte at a time was a quarter of a replay)
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  out.append(bytes, 8);
}

void put_bytes(std::string& out, std::string_view s) {
  put_u64(out, s.size());
  out += s;
}

struct Reader {
  std::string_view in;
  bool ok = true;
  std::uint64_t u64() {
    if (in.size() < 8) return ok = false, 0;
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t(static_cast<unsigned char>(in[i])) << (8 * i);
    in.remove_prefix(8);
    return v;
  }
  std::string_view bytes() {
    std::uint64_t n = u64();
    if (!ok || n > in.size()) return ok = false, std::string_view();
    std::string_view s = in.substr(0, n);
    in.remove_prefix(n);
    return s;
  }
};

std::int64_t ns(const timespec& t) {
  return std::int64_t(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

// A file's identity as a record keeps it: device, inode, size, both times (see below) and the mode;
// a path that cannot be examined is all zeros. `newest` gets the later of its two times.
void put_identity(std::string& out, const struct stat* st, std::int64_t* newest) {
  if (!st) {
    for (int i = 0; i < 6; ++i) put_u64(out, 0);
    return;
  }
  put_u64(out, st->st_dev);
  put_u64(out, st->st_ino);
  if (S_ISDIR(st->st_mode)) {
    // A folder is the same folder while it is the same inode: its size and times change with its
    // entries, which the record looks at only where the run listed them (note_folder).
    for (int i = 0; i < 3; ++i) put_u64(out, 0);
    put_u64(out, st->st_mode);
    return;
  }
  put_u64(out, static_cast<std::uint64_t>(st->st_size));
  put_u64(out, static_cast<std::uint64_t>(ns(st->st_mtim)));
  // The change time gives away an edit that kept the size and the modification time. A file with
  // other hard links (a figure that an output folder links to) is compared without it: every link
  // made or removed anywhere, by any build, changes it.
  put_u64(out, st->st_nlink == 1 ? static_cast<std::uint64_t>(ns(st->st_ctim)) : 0);
  put_u64(out, st->st_mode);
  if (newest) *newest = std::max(*newest, ns(st->st_mtim));
}

std::string describe_file(const std::string& path, std::int64_t* newest) {
  std::string out;
  struct stat st {};
  put_identity(out, ::stat(path.c_str(), &st) == 0 ? &st : nullptr, newest);
  return out;
}

// A folder's entries in name order: each name, then `d` for a folder (through symbolic links) or `f`
// and the identity for anything else. A folder that cannot be listed is described as "-". The
// sub-folders' paths go to `subfolders` when given.
std::string describe_folder(const std::string& path, std::int64_t* newest,
                            std::vector<std::string>* subfolders) {
  DIR* dir = ::opendir(path.c_str());
  if (!dir) return "-";
  struct Entry {
    std::string name;
    unsigned char type;
  };
  std::vector<Entry> entries;
  while (const dirent* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    entries.push_back({e->d_name, e->d_type});
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  std::string out;
  put_u64(out, entries.size());
  for (const auto& e : entries) {
    put_bytes(out, e.name);
    struct stat st {};
    bool is_dir = e.type == DT_DIR;
    bool known = e.type == DT_DIR;
    if (!known) {
      const bool found = ::fstatat(::dirfd(dir), e.name.c_str(), &st, 0) == 0;
      is_dir = found && S_ISDIR(st.st_mode);
      if (!is_dir) {
        out += 'f';
        put_identity(out, found ? &st : nullptr, newest);
        continue;
      }
    }
    out += 'd';
    if (subfolders) subfolders->push_back(path + (path.ends_with('/') ? "" : "/") + e.name);
  }
  ::closedir(dir);
  return out;
}

// FNV-1a, for the record's file name; the key itself is compared in full.
std::string hex_hash(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  static const char* digits = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[i] = digits[h & 15];
  return out;
}

fs::path record_path(const fs::path& out) {
  return out / ".cache" / "runs" / (hex_hash(state().key) + ".rec");
}

// The streams a capture wraps, with what went through them.
struct Tee : std::streambuf {
  Tee(std::streambuf* to, int stream, std::vector<Capture::Chunk>* chunks)
      : to(to), stream(stream), chunks(chunks) {}
  std::streambuf* to;
  int stream;
  std::vector<Capture::Chunk>* chunks;
  void keep(const char* s, std::streamsize n) {
    static std::mutex mutex;  // both streams, from any thread
    std::lock_guard lock(mutex);
    if (chunks->empty() || chunks->back().stream != stream) chunks->push_back({stream, {}});
    chunks->back().bytes.append(s, static_cast<std::size_t>(n));
  }
  int overflow(int c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    char ch = static_cast<char>(c);
    keep(&ch, 1);
    return to->sputc(ch);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    keep(s, n);
    return to->sputn(s, n);
  }
  int sync() override { return to->pubsync(); }
};

// One record per command line, environment and folder: a folder that ran many keeps the most recent
// kKeep, by time of writing.
void prune(const fs::path& runs) {
  constexpr std::size_t kKeep = 32;
  std::vector<std::pair<fs::file_time_type, fs::path>> records;
  std::error_code ec;
  for (fs::directory_iterator it(runs, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e;
    records.emplace_back(it->last_write_time(e), it->path());
  }
  if (records.size() <= kKeep) return;
  std::sort(records.begin(), records.end());
  for (std::size_t i = 0; i + kKeep < records.size(); ++i) fs::remove(records[i].second, ec);
}

// BOOKBUILD_RUN_RECORD=explain: say on stderr why a record was not used or not written.
bool explain() {
  const char* v = std::getenv("BOOKBUILD_RUN_RECORD");
  return v && std::strcmp(v, "explain") == 0;
}

}  // namespace

void begin_run(int argc, char** argv) {
  start();
  RunState& s = state();
  s.start = now_ns();
  std::string key(kMagic);
  // The executable, by identity: a rebuilt bookbuild builds again.
  put_bytes(key, describe_file("/proc/self/exe", nullptr));
  char cwd[4096];
  put_bytes(key, ::getcwd(cwd, sizeof cwd) ? cwd : "");
  for (int i = 0; i < argc; ++i) put_bytes(key, argv[i]);
  key += '\0';
  // The whole environment but what a shell changes between two identical commands.
  std::vector<std::string_view> env;
  for (char** e = environ; e && *e; ++e) {
    std::string_view v = *e;
    if (v.starts_with("_=") || v.starts_with("OLDPWD=") || v.starts_with("SHLVL=") ||
        v.starts_with("BOOKBUILD_RUN_RECORD="))
      continue;
    env.push_back(v);
  }
  std::sort(env.begin(), env.end());
  for (auto v : env) put_bytes(key, v);
  for (int fd = 0; fd <= 2; ++fd) key += ::isatty(fd) == 1 ? 't' : '-';
  s.key = std::move(key);
}

bool records_wanted() {
  if (state().key.empty()) return false;
  if (const char* v = std::getenv("BOOKBUILD_RUN_RECORD");
      v && (std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0))
    return false;
  if (std::getenv("BOOKBUILD_TIMINGS")) return false;
  return true;
}

struct Capture::Impl {
  std::vector<Chunk> chunks;
  Tee out{std::cout.rdbuf(), 1, &chunks};
  Tee err{std::cerr.rdbuf(), 2, &chunks};
};

Capture::Capture() : impl_(std::make_unique<Impl>()) {
  std::cout.rdbuf(&impl_->out);
  std::cerr.rdbuf(&impl_->err);
}

Capture::~Capture() {
  std::cout.flush();
  std::cout.rdbuf(impl_->out.to);
  std::cerr.rdbuf(impl_->err.to);
}

const std::vector<Capture::Chunk>& Capture::chunks() const {
  return impl_->chunks;
}

bool replay(const fs::path& out) {
  if (!records_wanted()) return false;
  const std::string bytes = read_bounded(record_path(out), std::size_t{1} << 28).bytes;
  Reader r{bytes};
  if (bytes.empty() || r.bytes() != state().key || !r.ok) {
    if (explain()) std::cerr << "run record: none for this command line; building\n";
    return false;
  }
  std::vector<std::string_view> printed;
  std::vector<int> streams;
  for (;;) {
    const std::uint64_t kind = r.u64();
    if (!r.ok) return false;
    if (kind == 'E') break;
    const std::string path(r.bytes());
    const std::string_view was = r.bytes();
    if (!r.ok) return false;
    if (kind == 'F' || kind == 'D') {
      const std::string now =
          kind == 'F' ? describe_file(path, nullptr) : describe_folder(path, nullptr, nullptr);
      if (now != was) {
        if (explain()) std::cerr << "run record: " << path << " changed; building\n";
        return false;
      }
    } else if (kind == 'W') {
      streams.push_back(path == "1" ? 1 : 2);
      printed.push_back(was);
    } else {
      return false;
    }
  }
  if (explain()) std::cerr << "run record: nothing changed since the last run of this command\n";
  for (std::size_t i = 0; i < printed.size(); ++i) {
    std::ostream& to = streams[i] == 1 ? std::cout : std::cerr;
    to.write(printed[i].data(), static_cast<std::streamsize>(printed[i].size()));
  }
  std::cout.flush();
  return true;
}

void forget(const fs::path& out) {
  if (state().key.empty()) return;
  std::error_code ec;
  fs::remove(record_path(out), ec);
}

const std::string& last_refusal() {
  return state().refusal;
}

void save(const fs::path& out, const std::vector<fs::path>& outputs, const Capture& capture) {
  RunState& s = state();
  s.refusal.clear();
  if (!records_wanted()) return;
  auto refuse = [&](std::string why) {
    s.refusal = std::move(why);
    if (explain()) std::cerr << "run record: not written: " << s.refusal << '\n';
    forget(out);
  };
  if (spoiled()) return refuse("the run did something a record cannot repeat");
  std::string rec;
  put_bytes(rec, s.key);
  auto entry = [&](char kind, const std::string& path, const std::string& what) {
    put_u64(rec, static_cast<unsigned char>(kind));
    put_bytes(rec, path);
    put_bytes(rec, what);
  };
  // Outputs first: a run whose outputs were touched is found out before its inputs are looked at.
  for (const auto& o : outputs) {
    std::vector<std::string> pending{o.string()};
    while (!pending.empty()) {
      std::string p = std::move(pending.back());
      pending.pop_back();
      struct stat st {};
      if (::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        entry('D', p, describe_folder(p, nullptr, &pending));
      else
        entry('F', p, describe_file(p, nullptr));
    }
  }
  const Noted n = noted();
  std::int64_t newest = 0;
  std::string newest_path;
  auto track = [&](const std::string& path, std::int64_t before) {
    if (newest != before) newest_path = path;
  };
  for (const auto& f : n.files) {
    const std::int64_t before = newest;
    entry('F', f, describe_file(f, &newest));
    track(f, before);
  }
  for (const auto& d : n.folders) {
    const std::int64_t before = newest;
    entry('D', d, describe_folder(d, &newest, nullptr));
    track(d, before);
  }
  for (const auto& t : n.trees) {
    std::vector<std::string> pending{t};
    while (!pending.empty()) {
      std::string p = std::move(pending.back());
      pending.pop_back();
      const std::int64_t before = newest;
      entry('D', p, describe_folder(p, &newest, &pending));
      track(p, before);
    }
  }
  if (newest >= s.start - kSettledNs)
    return refuse(newest_path + " (or a file in it) changed less than two seconds before the run");
  for (const auto& c : capture.chunks()) entry('W', c.stream == 1 ? "1" : "2", c.bytes);
  put_u64(rec, 'E');
  if (!write_atomic(record_path(out), rec)) return refuse("the record could not be written");
  prune(record_path(out).parent_path());
}

}  // namespace bb::inputs
