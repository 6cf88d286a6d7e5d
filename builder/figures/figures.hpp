// Figures for the outputs: checks the images a manuscript references and converts what an output
// cannot show (PDF) into what it can (PNG), through a content-addressed cache shared by the site and
// the EPUB builder: <out>/.cache/figures/<sha256>.png, and what earlier runs learnt about each image file
// (memo.hpp), so that an unchanged file is neither checked nor hashed again.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "diag/diagnostics.hpp"
#include "figures/memo.hpp"
#include "figures/svg_clean.hpp"
#include "figures/validate.hpp"

namespace bb::figures {

// An image ready to be shipped in an output.
struct Prepared {
  std::filesystem::path source;  // the manuscript's image
  std::filesystem::path file;    // what to ship: the source itself, or the cached PNG of a PDF
  std::string media_type;        // image/png, image/jpeg, image/gif, image/svg+xml
  std::string extension;         // of `file`: ".png", ".svg", ...
  // `file`'s identity as prepare() took it, when `file` is the source itself (so that a caller need not
  // examine it again in this run); nullopt for a converted or cleaned copy.
  std::optional<FileId> file_id;
};

struct Request {
  std::filesystem::path source;  // absolute path of the image
  SourceLoc loc;                 // where the manuscript references it
  // An image drawn by bookbuild (a chart's SVG): shipped from the cache under the hash of these
  // bytes, named after `source` with the extension `.svg`.
  const std::string* generated = nullptr;
};

// Stores a drawn SVG in the cache folder `dir` as <sha256>.svg (written once, aside and renamed).
std::optional<Prepared> store_generated(const std::filesystem::path& dir, const Request& request,
                                        std::string& error);

// Width in pixels of the PNG a PDF figure is rendered to.
inline constexpr int kRenderWidth = 1400;

class FigureCache {
 public:
  // `root` is the book's folder: what an SVG figure may refer to (svg_clean.hpp); empty for the
  // SVG's own folder.
  explicit FigureCache(std::filesystem::path dir, std::filesystem::path root = {})
      : dir_(std::move(dir)), root_(std::move(root)) {}

  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }

  // Prepares one image. A missing file, a Git LFS pointer instead of the image, an unsupported format,
  // a file that is not what its extension says (empty, truncated: validate.hpp) or a PDF that cannot
  // be rendered is an error reported at `loc`; the result is then nullopt. An SVG is cleaned
  // (svg_clean.hpp): what was removed is a warning at `loc`, a refused SVG an error.
  // Thread-safe: cache entries are written to a temporary file and renamed into place.
  std::optional<Prepared> prepare(const Request& request, Diagnostics& diags) const;

  // Prepares many images, rendering uncached PDFs in parallel, then writes the memo back when it
  // learnt something. Results are in request order. With a `progress_label`, the status line counts
  // them ("[epub zh] figures 3/20").
  std::vector<std::optional<Prepared>> prepare_all(const std::vector<Request>& requests, Diagnostics& diags,
                                                   const std::string& progress_label = {}) const;

 private:
  std::optional<Prepared> prepare_uncached(const Request& request, const FileId& id, std::string& error,
                                           std::vector<SvgFinding>& findings) const;
  std::filesystem::path dir_;
  std::filesystem::path root_;
};

// The media type of an image file by its extension ("" when the format is not one outputs accept).
std::string media_type_of(const std::filesystem::path& file);

}  // namespace bb::figures
