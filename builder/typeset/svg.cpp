// SVG figures for print, through the SVG module (builder/latex/svg_render.cpp) and the figure cache.
#include "typeset/svg.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include "figures/figures.hpp"
#include "figures/memo.hpp"
#include "figures/pdf_render.h"
#include "inputs/file_io.hpp"
#include "modules/modules.hpp"
#include "text/digest.hpp"

namespace bb::typeset {

namespace fs = std::filesystem;

std::string svg_to_pdf(const fs::path& svg, const fs::path& pdf) {
  std::string error;
  auto fn = reinterpret_cast<bookbuild_svg_to_pdf_fn>(
      modules::module_symbol(modules::Module::Svg, "bookbuild_svg_to_pdf", error));
  if (!fn) return error;
  char message[512] = {};
  if (fn(svg.c_str(), pdf.c_str(), message, sizeof message) != 0) return message;
  return "";
}

namespace {

// `pdf` becomes a hard link to the cache entry (a copy across file systems). The output folder is
// usually new, so the link is tried before anything is removed. False when the entry is missing.
bool place(const fs::path& entry, const fs::path& pdf, std::string& error) {
  std::error_code ec;
  fs::create_hard_link(entry, pdf, ec);
  if (ec == std::errc::file_exists) {
    fs::remove(pdf, ec);
    fs::create_hard_link(entry, pdf, ec);
  }
  if (ec == std::errc::no_such_file_or_directory && !fs::exists(entry)) return false;
  if (ec) fs::copy_file(entry, pdf, fs::copy_options::overwrite_existing, ec);
  if (ec) error = "cannot write " + pdf.string() + ": " + ec.message();
  return true;
}

}  // namespace

std::optional<fs::path> svg_pdf_entry(const fs::path& svg, const fs::path& cache, std::string& error,
                                      const figures::FileId* identity,
                                      std::optional<figures::FileId>* entry_id) {
  // The key covers the converter's settings (96 px per inch, PDF points, no creation date), so that changing
  // them never serves a stale PDF.
  static constexpr std::string_view kSettings = "svg-to-pdf 96dpi undated";
  std::error_code ec;
  // An SVG unchanged since an earlier run (its identity taken before it is read) is not read again.
  const auto id = identity ? std::optional<figures::FileId>(*identity) : figures::identify(svg);
  figures::Memo& memo = figures::Memo::of(cache);
  if (id) {
    if (auto key = memo.find(svg, kSettings, *id)) {
      fs::path entry = cache / (*key + ".pdf");
      // else: removed from the cache, converted again
      if (auto found = figures::identify(entry)) {
        if (entry_id) *entry_id = found;
        return entry;
      }
    }
  }
  auto read = inputs::read_bounded(svg, std::size_t{64} << 20);
  if (!read.ok()) {
    error = svg.string() + ": " + inputs::read_problem(read, std::size_t{64} << 20);
    return std::nullopt;
  }
  std::string key = text::sha256_hex(read.bytes + "\n" + std::string(kSettings));
  fs::path entry = cache / (key + ".pdf");
  if (auto found = figures::identify(entry)) {
    if (entry_id) *entry_id = found;
  } else {
    fs::create_directories(cache, ec);
    // Written aside and renamed, so that a concurrent build never reads half a PDF.
    static std::atomic<unsigned> counter{0};
    fs::path tmp = cache / ("." + entry.filename().string() + ".tmp-" + std::to_string(getpid()) + "-" +
                            std::to_string(counter++));
    if (std::string err = svg_to_pdf(svg, tmp); !err.empty()) {
      fs::remove(tmp, ec);
      error = err;
      return std::nullopt;
    }
    fs::rename(tmp, entry, ec);
    if (ec) {
      error = "cannot write " + entry.string() + ": " + ec.message();
      return std::nullopt;
    }
  }
  if (id) memo.put(svg, kSettings, *id, key);
  return entry;
}

std::string svg_to_pdf_cached(const fs::path& svg, const fs::path& pdf, const fs::path& cache) {
  if (cache.empty()) return svg_to_pdf(svg, pdf);
  std::string error;
  const auto entry = svg_pdf_entry(svg, cache, error);
  if (!entry) return error;
  if (!place(*entry, pdf, error))
    error = "cannot write " + pdf.string() + ": " + entry->string() + " is gone";
  return error;
}

}  // namespace bb::typeset
