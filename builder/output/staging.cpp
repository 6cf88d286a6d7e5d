// Staged output directories and atomic file writes.
#include "output/staging.hpp"

#include <unistd.h>

#include <fstream>
#include <system_error>

#include "diag/diagnostics.hpp"

namespace bb::output {

namespace fs = std::filesystem;

namespace {
fs::path sibling(const fs::path& target, std::string_view tag) {
  return target.parent_path() /
         ("." + target.filename().string() + "." + std::string(tag) + "-" + std::to_string(getpid()));
}
}  // namespace

StagedDir::StagedDir(fs::path target) : target_(std::move(target)), tmp_(sibling(target_, "tmp")) {
  std::error_code ec;
  fs::create_directories(target_.parent_path(), ec);
  fs::remove_all(tmp_, ec);
  if (!fs::create_directories(tmp_, ec) && ec)
    throw FatalError("cannot create " + tmp_.string() + ": " + ec.message());
}

StagedDir::~StagedDir() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(tmp_, ec);
}

void StagedDir::commit() {
  std::error_code ec;
  fs::path old = sibling(target_, "old");
  fs::remove_all(old, ec);
  bool had = fs::exists(target_);
  if (had) {
    fs::rename(target_, old, ec);
    if (ec) throw FatalError("cannot move aside " + target_.string() + ": " + ec.message());
  }
  fs::rename(tmp_, target_, ec);
  if (ec) {
    if (had) fs::rename(old, target_);  // put the previous output back
    throw FatalError("cannot move " + tmp_.string() + " into place: " + ec.message());
  }
  committed_ = true;
  if (had) fs::remove_all(old, ec);
}

void write_file(const fs::path& path, std::string_view content) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) throw FatalError("cannot write " + path.string());
}

void write_file_atomic(const fs::path& target, std::string_view content) {
  fs::path tmp = sibling(target, "tmp");
  write_file(tmp, content);
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw FatalError("cannot write " + target.string() + ": " + ec.message());
  }
}

}  // namespace bb::output
