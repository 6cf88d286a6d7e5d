// ZipWriter and ZipReader over the ZIP module (zip_module.cpp), which is loaded on the first archive.
#include "epub/zip.hpp"

#include "diag/diagnostics.hpp"
#include "epub/zip_module.h"
#include "modules/modules.hpp"

namespace bb::epub {

namespace {

// The module's functions, or nullptr with the reason in `error`.
const bookbuild_zip_functions* functions(std::string& error) {
  auto fn = reinterpret_cast<bookbuild_zip_fn>(
      modules::module_symbol(modules::Module::Zip, "bookbuild_zip_v2", error));
  return fn ? fn() : nullptr;
}

void append(void* context, const char* data, std::size_t size) {
  static_cast<std::string*>(context)->append(data, size);
}

}  // namespace

void ZipWriter::add(const std::string& name, std::string data, bool compress, bool unchanged) {
  pending_.push_back({name, std::move(data), compress, unchanged});
}

std::string ZipWriter::finish(std::time_t mtime, std::string_view earlier) {
  std::string error;
  const bookbuild_zip_functions* zip = functions(error);
  if (!zip) throw FatalError(error);
  std::vector<bookbuild_zip_entry> entries;
  entries.reserve(pending_.size());
  for (const Pending& p : pending_)
    entries.push_back({p.name.c_str(), p.data.data(), p.data.size(), p.compress, p.unchanged});
  std::string bytes;
  char message[512] = "";
  if (zip->write(entries.data(), entries.size(), static_cast<long long>(mtime),
                 earlier.empty() ? nullptr : earlier.data(), earlier.size(), append, &bytes, message,
                 sizeof message) != 0)
    throw FatalError(message);
  pending_.clear();
  return bytes;
}

std::optional<ZipReader> ZipReader::open(std::string bytes, std::string& error_message) {
  const bookbuild_zip_functions* zip = functions(error_message);
  if (!zip) return std::nullopt;
  ZipReader r;
  r.zip_ = zip;
  r.bytes_ = std::make_unique<std::string>(std::move(bytes));
  char message[512] = "";
  r.archive_ = zip->open(r.bytes_->data(), r.bytes_->size(), message, sizeof message);
  if (!r.archive_) {
    error_message = message;
    return std::nullopt;
  }
  for (std::size_t i = 0, n = zip->count(r.archive_); i < n; ++i) {
    const char* name = nullptr;
    int stored = 0;
    std::uint64_t size = 0;
    if (zip->entry(r.archive_, i, &name, &stored, &size) == 0)
      r.entries_.push_back({name, stored != 0, size});
  }
  return r;
}

ZipReader::ZipReader(ZipReader&& other) noexcept
    : bytes_(std::move(other.bytes_)),
      zip_(other.zip_),
      archive_(other.archive_),
      entries_(std::move(other.entries_)) {
  other.archive_ = nullptr;
}

ZipReader::~ZipReader() {
  if (archive_) zip_->close(archive_);
}

bool ZipReader::contains(std::string_view name) const {
  return zip_->contains(archive_, std::string(name).c_str()) != 0;
}

std::optional<std::string> ZipReader::read(std::string_view name) const {
  std::string data;
  if (zip_->read(archive_, std::string(name).c_str(), append, &data) != 0) return std::nullopt;
  return data;
}

}  // namespace bb::epub
