// Reading a git repository's HEAD, refs and commit objects (loose or packed, with deltas) with zlib.
// Formats: gitrepository-layout(5), gitformat-pack(5) ("pack-*.idx" version 2, object entries,
// OFS_DELTA/REF_DELTA instructions), git-commit-tree(1) for the committer line.
#include "repo/repository.hpp"

#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "inputs/inputs.hpp"
#include "text/url.hpp"

namespace bb::repo {

namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& p) {
  inputs::note_file(p);
  std::ifstream in(p, std::ios::binary);
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string first_line(const fs::path& p) {
  std::string s = read_file(p);
  s = s.substr(0, s.find('\n'));
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

bool is_sha(std::string_view s) {
  return s.size() == 40 && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// The two folders a work tree's git data lives in: its own (HEAD) and the common one (objects, refs).
struct GitDirs {
  fs::path work_tree, git_dir, common_dir;
};

std::optional<GitDirs> find_git(const fs::path& start) {
  std::error_code ec;
  for (fs::path dir = start; !dir.empty(); dir = dir.parent_path()) {
    fs::path dot = dir / ".git";
    inputs::note_file(dot);
    if (fs::is_directory(dot, ec)) return GitDirs{dir, dot, dot};
    if (fs::is_regular_file(dot, ec)) {  // a linked work tree or submodule: "gitdir: <path>"
      std::string line = first_line(dot);
      if (!line.starts_with("gitdir: ")) return std::nullopt;
      fs::path git_dir = line.substr(8);
      if (git_dir.is_relative()) git_dir = dir / git_dir;
      fs::path common = git_dir;
      if (std::string c = first_line(git_dir / "commondir"); !c.empty())
        common = fs::path(c).is_relative() ? git_dir / c : fs::path(c);
      return GitDirs{dir, git_dir.lexically_normal(), common.lexically_normal()};
    }
    if (dir == dir.parent_path()) break;
  }
  return std::nullopt;
}

std::string resolve_ref(const GitDirs& g, std::string ref, int depth = 0) {
  if (depth > 8) return {};
  for (const fs::path& base : {g.git_dir, g.common_dir}) {
    std::string value = first_line(base / ref);
    if (is_sha(value)) return value;
    if (value.starts_with("ref: ")) return resolve_ref(g, value.substr(5), depth + 1);
  }
  std::istringstream packed(read_file(g.common_dir / "packed-refs"));
  for (std::string line; std::getline(packed, line);)
    if (line.size() > 41 && line.compare(41, std::string::npos, ref) == 0 && is_sha(line.substr(0, 40)))
      return line.substr(0, 40);
  return {};
}

std::optional<std::string> inflate_loose(const std::string& compressed) {
  // Loose objects carry their own size in the header; inflate with a growing buffer.
  std::string out;
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return std::nullopt;
  z.next_in = reinterpret_cast<unsigned char*>(const_cast<char*>(compressed.data()));
  z.avail_in = static_cast<uInt>(compressed.size());
  int rc = Z_OK;
  char buf[16384];
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<unsigned char*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
    if (out.size() > (64u << 20)) break;
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) return std::nullopt;
  return out;
}

// Packs, read on demand: the index maps a commit id to its offset in the pack.
class ObjectStore {
 public:
  explicit ObjectStore(fs::path objects) : objects_(std::move(objects)) {}

  std::optional<std::string> commit(const std::string& sha) {
    if (auto loose = read_file(objects_ / sha.substr(0, 2) / sha.substr(2)); !loose.empty()) {
      auto raw = inflate_loose(loose);
      if (!raw) return std::nullopt;
      std::size_t nul = raw->find('\0');
      if (nul == std::string::npos || !raw->starts_with("commit ")) return std::nullopt;
      return raw->substr(nul + 1);
    }
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(objects_ / "pack", ec)) {
      if (entry.path().extension() != ".idx") continue;
      auto offset = find_in_index(read_file(entry.path()), sha);
      if (!offset) continue;
      fs::path pack_path = entry.path();
      pack_path.replace_extension(".pack");
      std::ifstream pack(pack_path, std::ios::binary);
      int type = 0;
      auto body = object_at(pack, *offset, type, 0);
      if (body && type == 1) return body;
      return std::nullopt;
    }
    return std::nullopt;
  }

 private:
  static std::uint32_t be32(const std::string& s, std::size_t at) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data() + at);
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
  }

  static std::optional<std::uint64_t> find_in_index(const std::string& idx, const std::string& sha) {
    // Version 2: magic, version, 256 fan-out entries, N ids, N CRCs, N offsets, large offsets.
    if (idx.size() < 8 + 256 * 4 || idx.compare(0, 4, "\377tOc") != 0 || be32(idx, 4) != 2)
      return std::nullopt;
    unsigned char id[20];
    for (int i = 0; i < 20; ++i)
      id[i] = static_cast<unsigned char>(std::stoi(sha.substr(2 * i, 2), nullptr, 16));
    const std::size_t fan = 8;
    std::uint32_t n = be32(idx, fan + 255 * 4);
    std::uint32_t lo = id[0] ? be32(idx, fan + (id[0] - 1) * 4) : 0, hi = be32(idx, fan + id[0] * 4);
    const std::size_t ids = fan + 256 * 4, crcs = ids + std::size_t{n} * 20, offs = crcs + std::size_t{n} * 4;
    if (idx.size() < offs + std::size_t{n} * 4 || hi > n || lo > hi) return std::nullopt;
    while (lo < hi) {
      std::uint32_t mid = lo + (hi - lo) / 2;
      int cmp = std::memcmp(idx.data() + ids + std::size_t{mid} * 20, id, 20);
      if (cmp == 0) {
        std::uint32_t off = be32(idx, offs + std::size_t{mid} * 4);
        if (!(off & 0x80000000u)) return off;
        std::size_t large = offs + std::size_t{n} * 4 + std::size_t{off & 0x7fffffffu} * 8;
        if (idx.size() < large + 8) return std::nullopt;
        return (std::uint64_t{be32(idx, large)} << 32) | be32(idx, large + 4);
      }
      if (cmp < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
    return std::nullopt;
  }

  // The object at `offset` of a pack (read piecewise: packs can be far larger than the memory a build
  // should take), with deltas applied; `type` receives the base type (1 = commit).
  std::optional<std::string> object_at(std::ifstream& pack, std::uint64_t offset, int& type, int depth) {
    if (depth > 50) return std::nullopt;
    pack.clear();
    pack.seekg(static_cast<std::streamoff>(offset));
    auto byte = [&]() -> int {
      char ch = 0;
      return pack.get(ch) ? static_cast<unsigned char>(ch) : -1;
    };
    int c = byte();
    if (c < 0) return std::nullopt;
    type = (c >> 4) & 7;
    std::uint64_t size = c & 15;
    for (int shift = 4; c & 0x80; shift += 7) {
      if ((c = byte()) < 0 || shift > 56) return std::nullopt;
      size |= std::uint64_t(c & 0x7f) << shift;
    }
    if (size > (64u << 20)) return std::nullopt;
    std::optional<std::string> base;
    std::optional<std::uint64_t> base_offset;
    std::string base_sha;
    if (type == 6) {  // OFS_DELTA: the base is a negative offset away
      c = byte();
      if (c < 0) return std::nullopt;
      std::uint64_t back = c & 0x7f;
      while (c & 0x80) {
        if ((c = byte()) < 0 || back > (std::uint64_t{1} << 56)) return std::nullopt;
        back = ((back + 1) << 7) | (c & 0x7f);
      }
      if (back > offset) return std::nullopt;
      base_offset = offset - back;
    } else if (type == 7) {  // REF_DELTA: the base is named by its id
      static const char* hex = "0123456789abcdef";
      for (int i = 0; i < 20; ++i) {
        if ((c = byte()) < 0) return std::nullopt;
        base_sha += hex[c >> 4];
        base_sha += hex[c & 15];
      }
    }
    auto data = inflate_stream(pack, static_cast<std::size_t>(size));
    if (!data) return std::nullopt;
    if (base_offset)
      base = object_at(pack, *base_offset, type, depth + 1);
    else if (!base_sha.empty()) {
      base = commit(base_sha);
      type = 1;
    } else if (type >= 1 && type <= 4)
      return data;
    if (!base) return std::nullopt;
    return apply_delta(*base, *data);
  }

  static std::optional<std::string> inflate_stream(std::ifstream& in, std::size_t expected) {
    std::string out(expected, '\0');
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return std::nullopt;
    z.next_out = reinterpret_cast<unsigned char*>(out.data());
    z.avail_out = static_cast<uInt>(expected);
    char buf[16384];
    int rc = Z_OK;
    while (rc == Z_OK) {
      if (z.avail_in == 0) {
        in.read(buf, sizeof buf);
        if (in.gcount() <= 0) break;
        z.next_in = reinterpret_cast<unsigned char*>(buf);
        z.avail_in = static_cast<uInt>(in.gcount());
      }
      rc = ::inflate(&z, Z_NO_FLUSH);
      if (rc == Z_BUF_ERROR && z.avail_out == 0) break;
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END || z.total_out != expected) return std::nullopt;
    return out;
  }

  static std::optional<std::string> apply_delta(const std::string& base, const std::string& delta) {
    std::size_t at = 0;
    auto varint = [&]() -> std::optional<std::uint64_t> {
      std::uint64_t v = 0;
      for (int shift = 0; at < delta.size() && shift < 64; shift += 7) {
        auto c = static_cast<unsigned char>(delta[at++]);
        v |= std::uint64_t(c & 0x7f) << shift;
        if (!(c & 0x80)) return v;
      }
      return std::nullopt;
    };
    auto src = varint(), dst = varint();
    if (!src || !dst || *src != base.size() || *dst > (64u << 20)) return std::nullopt;
    std::string out;
    out.reserve(static_cast<std::size_t>(*dst));
    while (at < delta.size()) {
      auto op = static_cast<unsigned char>(delta[at++]);
      if (op & 0x80) {  // copy from the base
        std::uint64_t off = 0, len = 0;
        for (int i = 0; i < 4; ++i)
          if (op & (1 << i)) {
            if (at >= delta.size()) return std::nullopt;
            off |= std::uint64_t(static_cast<unsigned char>(delta[at++])) << (8 * i);
          }
        for (int i = 0; i < 3; ++i)
          if (op & (0x10 << i)) {
            if (at >= delta.size()) return std::nullopt;
            len |= std::uint64_t(static_cast<unsigned char>(delta[at++])) << (8 * i);
          }
        if (len == 0) len = 0x10000;
        if (off + len > base.size()) return std::nullopt;
        out.append(base, static_cast<std::size_t>(off), static_cast<std::size_t>(len));
      } else if (op) {  // insert literal bytes
        if (at + op > delta.size()) return std::nullopt;
        out.append(delta, at, op);
        at += op;
      } else {
        return std::nullopt;
      }
    }
    if (out.size() != *dst) return std::nullopt;
    return out;
  }

  fs::path objects_;
};

std::optional<std::time_t> committer_time(const std::string& commit) {
  std::istringstream in(commit);
  for (std::string line; std::getline(in, line) && !line.empty();) {
    if (!line.starts_with("committer ")) continue;
    // "committer Name <email> 1700000000 +0100"
    std::size_t gt = line.rfind('>');
    if (gt == std::string::npos) return std::nullopt;
    std::istringstream rest(line.substr(gt + 1));
    long long t = 0;
    if (rest >> t && t >= 0) return static_cast<std::time_t>(t);
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::string Repository::file_url(const std::string& relative, bool directory,
                                 const std::string& fragment) const {
  if (web_url.empty()) return {};
  return web_url + (directory ? "/tree/" : "/blob/") + revision() + "/" +
         text::percent_encode_path(relative) + (fragment.empty() ? "" : "#" + fragment);
}

Repository find_repository(const fs::path& book_root, const std::string& configured_url) {
  Repository r;
  r.web_url = normalize_repository_url(configured_url);
  r.toplevel = book_root;
  auto git = find_git(book_root);
  if (!git) return r;
  r.toplevel = git->work_tree;
  std::string head = first_line(git->git_dir / "HEAD");
  if (is_sha(head))
    r.commit = head;
  else if (head.starts_with("ref: "))
    r.commit = resolve_ref(*git, head.substr(5));
  if (!r.commit.empty()) {
    ObjectStore store(git->common_dir / "objects");
    if (auto c = store.commit(r.commit)) r.commit_time = committer_time(*c);
  }
  return r;
}

std::string normalize_repository_url(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (url.ends_with(".git")) url.resize(url.size() - 4);
  if (url.starts_with("git@")) {
    auto colon = url.find(':');
    if (colon != std::string::npos) url = "https://" + url.substr(4, colon - 4) + "/" + url.substr(colon + 1);
  }
  return url;
}

std::optional<std::time_t> source_date_epoch() {
  const char* env = std::getenv("SOURCE_DATE_EPOCH");
  if (!env || !*env || std::strlen(env) > 18 ||
      std::string_view(env).find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  return static_cast<std::time_t>(std::stoll(env));
}

std::time_t source_time(const Repository& repo, const std::vector<fs::path>& files) {
  if (auto t = source_date_epoch()) return *t;
  if (repo.commit_time) return *repo.commit_time;
  std::time_t newest = 0;
  for (const auto& f : files) {
    std::error_code ec;
    auto t = fs::last_write_time(f, ec);
    if (ec) continue;
    auto sys =
        std::chrono::time_point_cast<std::chrono::system_clock::duration>(std::chrono::file_clock::to_sys(t));
    newest = std::max(newest, std::chrono::system_clock::to_time_t(sys));
  }
  return newest;
}

}  // namespace bb::repo
