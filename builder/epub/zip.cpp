// libzip behind RAII: every zip_t* and zip_source_t* is owned by exactly one object.
#include "epub/zip.hpp"

#include <zip.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

#include "diag/diagnostics.hpp"

namespace bb::epub {

namespace {

// Fastest deflate: an EPUB is mostly images, which are stored as they are; level 1 makes the text
// ~20% larger than level 6 and takes a quarter of the time (docs/epub.md, "Speed").
constexpr zip_uint32_t kDeflateLevel = 1;

[[noreturn]] void fail(const std::string& what, zip_error_t* error) {
  std::string message = what + ": " + zip_error_strerror(error);
  zip_error_fini(error);
  throw FatalError(message);
}

[[noreturn]] void fail(const std::string& what, zip_t* archive) {
  throw FatalError(what + ": " + zip_strerror(archive));
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

// Raw deflate (no zlib header), as ZIP entries hold it.
std::string deflate_raw(const std::string& in) {
  z_stream z{};
  if (deflateInit2(&z, static_cast<int>(kDeflateLevel), Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK)
    throw FatalError("cannot start deflate");
  std::string out(deflateBound(&z, in.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw FatalError("deflate failed");
  return out;
}

}  // namespace

// An entry compressed before zip_close: libzip copies data whose stat names the entry's compression
// method as it is (the way it copies entries between archives), so the entries can be deflated in
// parallel rather than one after the other inside zip_close.
struct ZipWriter::Precompressed {
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

ZipWriter::ZipWriter() {
  zip_error_t error;
  zip_error_init(&error);
  source_ = zip_source_buffer_create(nullptr, 0, 0, &error);
  if (!source_) fail("cannot create an in-memory archive", &error);
  zip_source_keep(source_);  // zip_close releases its reference; the bytes are read after it
  archive_ = zip_open_from_source(source_, ZIP_TRUNCATE, &error);
  if (!archive_) {
    zip_source_free(source_);
    zip_source_free(source_);
    source_ = nullptr;
    fail("cannot create an in-memory archive", &error);
  }
  zip_error_fini(&error);
}

ZipWriter::~ZipWriter() {
  if (archive_) zip_discard(archive_);
  if (source_) zip_source_free(source_);
}

void ZipWriter::add(const std::string& name, std::string data, bool compress) {
  pending_.push_back({name, std::move(data), compress});
}

std::string ZipWriter::finish(std::time_t mtime) {
  // Deflate every compressed entry first, on every core.
  std::vector<std::unique_ptr<Precompressed>> pre(pending_.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next++) < pending_.size();) {
      if (!pending_[i].compress) continue;
      auto p = std::make_unique<Precompressed>();
      const std::string& d = pending_[i].data;
      p->deflated = deflate_raw(d);
      p->size = d.size();
      p->crc = static_cast<zip_uint32_t>(
          crc32(0L, reinterpret_cast<const Bytef*>(d.data()), static_cast<uInt>(d.size())));
      zip_error_init(&p->error);
      pre[i] = std::move(p);
    }
  };
  {
    std::size_t n = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), pending_.size());
    std::vector<std::jthread> pool;
    for (std::size_t t = 1; t < n; ++t) pool.emplace_back(work);
    work();
  }

  auto [time, date] = dos_time(mtime);
  for (std::size_t k = 0; k < pending_.size(); ++k) {
    const Pending& e = pending_[k];
    zip_source_t* src = pre[k] ? zip_source_function(archive_, &Precompressed::callback, pre[k].get())
                               : zip_source_buffer(archive_, e.data.data(), e.data.size(), 0);
    if (!src) fail("cannot add " + e.name, archive_);
    zip_int64_t index = zip_file_add(archive_, e.name.c_str(), src, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(src);
      fail("cannot add " + e.name, archive_);
    }
    auto i = static_cast<zip_uint64_t>(index);
    if (zip_set_file_compression(archive_, i, pre[k] ? ZIP_CM_DEFLATE : ZIP_CM_STORE,
                                 pre[k] ? kDeflateLevel : 0) != 0)
      fail("cannot set the compression of " + e.name, archive_);
    // Regular file, rw-r--r--, made on Unix: fixed, so that the umask does not reach the bytes.
    if (zip_file_set_external_attributes(archive_, i, 0, ZIP_OPSYS_UNIX, 0100644u << 16) != 0)
      fail("cannot set the attributes of " + e.name, archive_);
    if (zip_file_set_dostime(archive_, i, time, date, 0) != 0) fail("cannot set a timestamp", archive_);
  }
  if (zip_close(archive_) != 0) fail("cannot write the archive", archive_);
  archive_ = nullptr;

  std::string bytes;
  if (zip_source_open(source_) != 0) fail("cannot read the archive back", zip_source_error(source_));
  zip_source_seek(source_, 0, SEEK_END);
  zip_int64_t size = zip_source_tell(source_);
  zip_source_seek(source_, 0, SEEK_SET);
  if (size > 0) {
    bytes.resize(static_cast<std::size_t>(size));
    if (zip_source_read(source_, bytes.data(), static_cast<zip_uint64_t>(size)) != size)
      fail("cannot read the archive back", zip_source_error(source_));
  }
  zip_source_close(source_);
  pending_.clear();
  return bytes;
}

std::optional<ZipReader> ZipReader::open(std::string bytes, std::string& error_message) {
  ZipReader r;
  r.bytes_ = std::make_unique<std::string>(std::move(bytes));
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* src = zip_source_buffer_create(r.bytes_->data(), r.bytes_->size(), 0, &error);
  if (src) r.archive_ = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &error);
  if (!r.archive_) {
    error_message = zip_error_strerror(&error);
    zip_error_fini(&error);
    if (src) zip_source_free(src);
    return std::nullopt;
  }
  zip_error_fini(&error);
  zip_int64_t n = zip_get_num_entries(r.archive_, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(r.archive_, static_cast<zip_uint64_t>(i), 0, &st) != 0) continue;
    r.entries_.push_back({st.name ? st.name : "", st.comp_method == ZIP_CM_STORE, st.size});
  }
  return r;
}

ZipReader::ZipReader(ZipReader&& other) noexcept
    : bytes_(std::move(other.bytes_)), archive_(other.archive_), entries_(std::move(other.entries_)) {
  other.archive_ = nullptr;
}

ZipReader::~ZipReader() {
  if (archive_) zip_discard(archive_);
}

bool ZipReader::contains(std::string_view name) const {
  return zip_name_locate(archive_, std::string(name).c_str(), ZIP_FL_ENC_UTF_8) >= 0;
}

std::optional<std::string> ZipReader::read(std::string_view name) const {
  zip_int64_t index = zip_name_locate(archive_, std::string(name).c_str(), ZIP_FL_ENC_UTF_8);
  if (index < 0) return std::nullopt;
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(archive_, static_cast<zip_uint64_t>(index), 0, &st) != 0) return std::nullopt;
  zip_file_t* f = zip_fopen_index(archive_, static_cast<zip_uint64_t>(index), 0);
  if (!f) return std::nullopt;
  std::string data(static_cast<std::size_t>(st.size), '\0');
  zip_int64_t got = data.empty() ? 0 : zip_fread(f, data.data(), st.size);
  zip_fclose(f);
  if (got != static_cast<zip_int64_t>(st.size)) return std::nullopt;
  return data;
}

}  // namespace bb::epub
