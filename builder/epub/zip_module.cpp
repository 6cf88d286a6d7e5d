// The ZIP module (bookbuild_zip.so): libzip behind the C functions of zip_module.h. Every zip_t* and
// zip_source_t* is owned by exactly one object here; errors come back as messages, never exceptions.
#include "epub/zip_module.h"

#include <zip.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

// Fastest deflate: an EPUB is mostly images, which are stored as they are; level 1 makes the text
// ~20% larger than level 6 and takes a quarter of the time (docs/epub.md, "Speed").
constexpr zip_uint32_t kDeflateLevel = 1;

[[noreturn]] void fail(const std::string& what, zip_error_t* error) {
  std::string message = what + ": " + zip_error_strerror(error);
  zip_error_fini(error);
  throw std::runtime_error(message);
}

[[noreturn]] void fail(const std::string& what, zip_t* archive) {
  throw std::runtime_error(what + ": " + zip_strerror(archive));
}

// MS-DOS date and time (2-second resolution, years 1980-2107) of a UTC time, computed here rather
// than by libzip, which uses the local time zone and would make the bytes depend on it.
std::pair<zip_uint16_t, zip_uint16_t> dos_time(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  if (tm.tm_year < 80) {
    tm = std::tm{};
    tm.tm_year = 80;
    tm.tm_mday = 1;
  }
  if (tm.tm_year > 207) tm.tm_year = 207;
  auto time = static_cast<zip_uint16_t>((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
  auto date = static_cast<zip_uint16_t>(((tm.tm_year - 80) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday);
  return {time, date};
}

// Raw deflate (no zlib header), as ZIP entries hold it. The window and the hash table are sized to
// the entry: zlib allocates and clears them at every deflateInit2 (~130 k instructions with the
// default 32 KiB window and 8 of memLevel), which for the small entries an EPUB is full of (figures,
// package files) cost more than compressing them. A window at least as long as the input finds the
// same distances; the smaller hash table may find slightly different matches (zlib's manual,
// deflateInit2: windowBits 9..15, memLevel 1..9).
std::string deflate_raw(std::string_view in) {
  int window_bits = 9;
  while (window_bits < MAX_WBITS && (std::size_t{1} << window_bits) < in.size()) ++window_bits;
  const int mem_level = std::clamp(window_bits - 7, 1, 8);
  z_stream z{};
  if (deflateInit2(&z, static_cast<int>(kDeflateLevel), Z_DEFLATED, -window_bits, mem_level,
                   Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("cannot start deflate");
  std::string out(deflateBound(&z, in.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate failed");
  return out;
}

// The deflated entries of an earlier archive, found by name: their CRC-32, size and raw deflate
// stream. Read from the central directory with every offset checked against the bytes (APPNOTE.TXT
// 4.3.7, 4.3.12, 4.3.16: local header, central directory header, end of central directory); anything
// else (stored, encrypted or ZIP64 entries, an archive that does not parse) is simply not offered.
struct Earlier {
  zip_uint32_t crc = 0;
  zip_uint64_t size = 0;
  std::string_view raw;
};

std::uint32_t le(std::string_view b, std::size_t at, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i)
    v = v << 8 | static_cast<unsigned char>(b[at + static_cast<std::size_t>(i)]);
  return v;
}

std::map<std::string_view, Earlier> earlier_entries(std::string_view zip) {
  std::map<std::string_view, Earlier> out;
  constexpr std::size_t kEnd = 22, kCentral = 46, kLocal = 30;
  if (zip.size() < kEnd) return out;
  // The end record is the last one: its comment (at most 65535 bytes) follows it.
  std::size_t end = std::string_view::npos;
  const std::size_t lowest = zip.size() > kEnd + 0xFFFF ? zip.size() - kEnd - 0xFFFF : 0;
  for (std::size_t at = zip.size() - kEnd + 1; at-- > lowest;)
    if (le(zip, at, 4) == 0x06054b50 && at + kEnd + le(zip, at + 20, 2) == zip.size()) {
      end = at;
      break;
    }
  if (end == std::string_view::npos) return out;
  const std::size_t entries = le(zip, end + 10, 2);
  const std::size_t dir_size = le(zip, end + 12, 4), dir_offset = le(zip, end + 16, 4);
  if (dir_offset > end || dir_size > end - dir_offset) return out;
  std::size_t p = dir_offset;
  for (std::size_t k = 0; k < entries; ++k) {
    if (p + kCentral > dir_offset + dir_size || le(zip, p, 4) != 0x02014b50) return {};
    const std::uint32_t flags = le(zip, p + 8, 2), method = le(zip, p + 10, 2);
    const std::uint32_t crc = le(zip, p + 16, 4), comp = le(zip, p + 20, 4), size = le(zip, p + 24, 4);
    const std::size_t name_len = le(zip, p + 28, 2), extra = le(zip, p + 30, 2), comment = le(zip, p + 32, 2);
    const std::size_t local = le(zip, p + 42, 4);
    if (p + kCentral + name_len + extra + comment > dir_offset + dir_size) return {};
    std::string_view name = zip.substr(p + kCentral, name_len);
    p += kCentral + name_len + extra + comment;
    if (method != ZIP_CM_DEFLATE || (flags & 1) != 0 || comp == 0xFFFFFFFFu || size == 0xFFFFFFFFu) continue;
    if (local > dir_offset || dir_offset - local < kLocal || le(zip, local, 4) != 0x04034b50) continue;
    const std::size_t local_name = le(zip, local + 26, 2);
    const std::size_t data = local + kLocal + local_name + le(zip, local + 28, 2);
    if (data > dir_offset || comp > dir_offset - data) continue;
    // The local header must tell the same story (a damaged one would put the stream elsewhere);
    // without a data descriptor (flag bit 3) it repeats the CRC-32 and both sizes.
    if (le(zip, local + 8, 2) != method || zip.substr(local + kLocal, local_name) != name) continue;
    if ((le(zip, local + 6, 2) & 8) == 0 &&
        (le(zip, local + 14, 4) != crc || le(zip, local + 18, 4) != comp || le(zip, local + 22, 4) != size))
      continue;
    out[name] = {crc, size, zip.substr(data, comp)};
  }
  return out;
}

// An entry compressed before zip_close: libzip copies data whose stat names the entry's compression
// method as it is (the way it copies entries between archives), so the entries can be deflated in
// parallel rather than one after the other inside zip_close.
struct Precompressed {
  std::string deflated;
  zip_uint64_t size = 0;
  zip_uint32_t crc = 0;
  zip_uint64_t offset = 0;
  zip_error_t error{};

  static zip_int64_t callback(void* self, void* data, zip_uint64_t len, zip_source_cmd_t cmd) {
    auto* p = static_cast<Precompressed*>(self);
    switch (cmd) {
      case ZIP_SOURCE_OPEN: p->offset = 0; return 0;
      case ZIP_SOURCE_READ: {
        zip_uint64_t n = std::min<zip_uint64_t>(len, p->deflated.size() - p->offset);
        std::memcpy(data, p->deflated.data() + p->offset, n);
        p->offset += n;
        return static_cast<zip_int64_t>(n);
      }
      case ZIP_SOURCE_CLOSE: return 0;
      case ZIP_SOURCE_STAT: {
        auto* st = static_cast<zip_stat_t*>(data);
        zip_stat_init(st);
        st->valid = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD | ZIP_STAT_CRC;
        st->size = p->size;
        st->comp_size = p->deflated.size();
        st->comp_method = ZIP_CM_DEFLATE;
        st->crc = p->crc;
        return sizeof(zip_stat_t);
      }
      case ZIP_SOURCE_ERROR: return zip_error_to_data(&p->error, data, len);
      case ZIP_SOURCE_FREE: return 0;  // owned by the writer
      case ZIP_SOURCE_SUPPORTS: return ZIP_SOURCE_SUPPORTS_READABLE;
      default: zip_error_set(&p->error, ZIP_ER_OPNOTSUPP, 0); return -1;
    }
  }
};

std::string report(const std::string& message, char* error, std::size_t error_size) {
  if (error_size > 0) {
    std::strncpy(error, message.c_str(), error_size - 1);
    error[error_size - 1] = '\0';
  }
  return message;
}

// Builds the archive in memory and returns its bytes. Throws std::runtime_error.
std::string write_archive(const bookbuild_zip_entry* entries, std::size_t count, std::time_t mtime,
                          std::string_view earlier_archive) {
  // Deflate every compressed entry first, on every core; an entry the caller knows to be unchanged
  // keeps the earlier archive's deflate stream when that entry's size and CRC-32 agree too.
  const std::map<std::string_view, Earlier> earlier = earlier_entries(earlier_archive);
  std::vector<std::unique_ptr<Precompressed>> pre(count);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next++) < count;) {
      if (!entries[i].compress) continue;
      auto p = std::make_unique<Precompressed>();
      std::string_view d(entries[i].data, entries[i].size);
      p->size = d.size();
      p->crc = static_cast<zip_uint32_t>(
          crc32(0L, reinterpret_cast<const Bytef*>(d.data()), static_cast<uInt>(d.size())));
      auto e = entries[i].unchanged ? earlier.find(entries[i].name) : earlier.end();
      if (e != earlier.end() && e->second.crc == p->crc && e->second.size == p->size)
        p->deflated = std::string(e->second.raw);
      else
        p->deflated = deflate_raw(d);
      zip_error_init(&p->error);
      pre[i] = std::move(p);
    }
  };
  {
    // Asked once per process (glibc reads /sys for every call); the module includes nothing of
    // builder/ but its own interface, so not diag/parallel.hpp's core_count().
    static const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
    std::size_t n = std::min<std::size_t>(cores, count);
    std::vector<std::jthread> pool;
    for (std::size_t t = 1; t < n; ++t) pool.emplace_back(work);
    work();
  }

  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(nullptr, 0, 0, &error);
  if (!source) fail("cannot create an in-memory archive", &error);
  zip_source_keep(source);  // zip_close releases its reference; the bytes are read after it
  zip_t* archive = zip_open_from_source(source, ZIP_TRUNCATE, &error);
  if (!archive) {
    zip_source_free(source);
    zip_source_free(source);
    fail("cannot create an in-memory archive", &error);
  }
  zip_error_fini(&error);
  // Owns the archive until zip_close, and the source to the end.
  struct Owner {
    zip_t* archive;
    zip_source_t* source;
    ~Owner() {
      if (archive) zip_discard(archive);
      zip_source_free(source);
    }
  } own{archive, source};

  auto [time, date] = dos_time(mtime);
  for (std::size_t k = 0; k < count; ++k) {
    const bookbuild_zip_entry& e = entries[k];
    zip_source_t* src = pre[k] ? zip_source_function(archive, &Precompressed::callback, pre[k].get())
                               : zip_source_buffer(archive, e.data, e.size, 0);
    if (!src) fail(std::string("cannot add ") + e.name, archive);
    zip_int64_t index = zip_file_add(archive, e.name, src, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(src);
      fail(std::string("cannot add ") + e.name, archive);
    }
    auto i = static_cast<zip_uint64_t>(index);
    if (zip_set_file_compression(archive, i, pre[k] ? ZIP_CM_DEFLATE : ZIP_CM_STORE,
                                 pre[k] ? kDeflateLevel : 0) != 0)
      fail(std::string("cannot set the compression of ") + e.name, archive);
    // Regular file, rw-r--r--, made on Unix: fixed, so that the umask does not reach the bytes.
    if (zip_file_set_external_attributes(archive, i, 0, ZIP_OPSYS_UNIX, 0100644u << 16) != 0)
      fail(std::string("cannot set the attributes of ") + e.name, archive);
    if (zip_file_set_dostime(archive, i, time, date, 0) != 0) fail("cannot set a timestamp", archive);
  }
  if (zip_close(archive) != 0) fail("cannot write the archive", archive);
  own.archive = nullptr;

  std::string bytes;
  if (zip_source_open(source) != 0) fail("cannot read the archive back", zip_source_error(source));
  zip_source_seek(source, 0, SEEK_END);
  zip_int64_t size = zip_source_tell(source);
  zip_source_seek(source, 0, SEEK_SET);
  if (size > 0) {
    bytes.resize(static_cast<std::size_t>(size));
    if (zip_source_read(source, bytes.data(), static_cast<zip_uint64_t>(size)) != size)
      fail("cannot read the archive back", zip_source_error(source));
  }
  zip_source_close(source);
  return bytes;
}

int write(const bookbuild_zip_entry* entries, std::size_t count, long long mtime, const char* earlier,
          std::size_t earlier_size, bookbuild_zip_sink sink, void* context, char* error,
          std::size_t error_size) {
  try {
    std::string bytes = write_archive(entries, count, static_cast<std::time_t>(mtime),
                                      earlier ? std::string_view(earlier, earlier_size) : std::string_view());
    sink(context, bytes.data(), bytes.size());
    return 0;
  } catch (const std::exception& x) {
    report(x.what(), error, error_size);
    return 1;
  }
}

}  // namespace

struct bookbuild_zip_reader {
  zip_t* archive = nullptr;
  std::vector<zip_stat_t> entries;
};

namespace {

bookbuild_zip_reader* open(const char* data, std::size_t size, char* error_message, std::size_t error_size) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* src = zip_source_buffer_create(data, size, 0, &error);
  zip_t* archive = src ? zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &error) : nullptr;
  if (!archive) {
    report(zip_error_strerror(&error), error_message, error_size);
    zip_error_fini(&error);
    if (src) zip_source_free(src);
    return nullptr;
  }
  zip_error_fini(&error);
  auto r = std::make_unique<bookbuild_zip_reader>();
  r->archive = archive;
  zip_int64_t n = zip_get_num_entries(archive, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &st) != 0) continue;
    r->entries.push_back(st);
  }
  return r.release();
}

std::size_t count(const bookbuild_zip_reader* r) {
  return r->entries.size();
}

int entry(const bookbuild_zip_reader* r, std::size_t i, const char** name, int* stored, std::uint64_t* size) {
  if (i >= r->entries.size()) return 1;
  const zip_stat_t& st = r->entries[i];
  *name = st.name ? st.name : "";
  *stored = st.comp_method == ZIP_CM_STORE;
  *size = st.size;
  return 0;
}

int contains(const bookbuild_zip_reader* r, const char* name) {
  return zip_name_locate(r->archive, name, ZIP_FL_ENC_UTF_8) >= 0;
}

int read(const bookbuild_zip_reader* r, const char* name, bookbuild_zip_sink sink, void* context) {
  zip_int64_t index = zip_name_locate(r->archive, name, ZIP_FL_ENC_UTF_8);
  if (index < 0) return 1;
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(r->archive, static_cast<zip_uint64_t>(index), 0, &st) != 0) return 1;
  zip_file_t* f = zip_fopen_index(r->archive, static_cast<zip_uint64_t>(index), 0);
  if (!f) return 1;
  std::string data;
  try {
    data.assign(static_cast<std::size_t>(st.size), '\0');
  } catch (const std::exception&) {  // a size no archive of ours could have
    zip_fclose(f);
    return 1;
  }
  zip_int64_t got = data.empty() ? 0 : zip_fread(f, data.data(), st.size);
  zip_fclose(f);
  if (got != static_cast<zip_int64_t>(st.size)) return 1;
  sink(context, data.data(), data.size());
  return 0;
}

void close(bookbuild_zip_reader* r) {
  if (!r) return;
  if (r->archive) zip_discard(r->archive);
  delete r;
}

constexpr bookbuild_zip_functions kFunctions = {write, open, count, entry, contains, read, close};

}  // namespace

extern "C" const bookbuild_zip_functions* bookbuild_zip_v2(void) {
  return &kFunctions;
}
