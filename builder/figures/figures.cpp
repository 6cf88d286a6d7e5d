// Figure preparation: existence, Git LFS and file checks (validate.cpp), PDF → PNG with Poppler
// (pdf_render.cpp), and the content-hash cache.
#include "figures/figures.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "diag/parallel.hpp"
#include "diag/progress.hpp"
#include "figures/memo.hpp"
#include "figures/pdf_render.h"
#include "figures/validate.hpp"
#include "inputs/file_io.hpp"
#include "modules/modules.hpp"
#include "text/digest.hpp"

namespace bb::figures {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_file(const fs::path& p) {
  auto read = inputs::read_bounded(p, kMaxFigureBytes);
  if (!read.ok()) return std::nullopt;
  return std::move(read.bytes);
}

std::string lower_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

// The renderer in the PDF module (builder/figures/pdf_render.cpp), loaded on the first PDF that is
// not cached.
bookbuild_render_pdf_fn renderer(std::string& error) {
  return reinterpret_cast<bookbuild_render_pdf_fn>(
      modules::module_symbol(modules::Module::Pdf, "bookbuild_render_pdf", error));
}

// Renders the first page of a PDF to a PNG `width` pixels wide. Returns an error message, or "".
std::string render_pdf(const std::string& pdf, const fs::path& png, int width) {
  std::string error;
  bookbuild_render_pdf_fn render = renderer(error);
  if (!render) return error;
  // Written aside and renamed, so that a concurrent build never reads half a PNG.
  static std::atomic<unsigned> counter{0};
  fs::path tmp = png.parent_path() / ("." + png.filename().string() + ".tmp-" + std::to_string(getpid()) +
                                      "-" + std::to_string(counter++));
  char message[512] = "";
  if (render(pdf.data(), pdf.size(), tmp.c_str(), width, message, sizeof message) != 0) {
    std::error_code ec;
    fs::remove(tmp, ec);
    return message;
  }
  std::error_code ec;
  fs::rename(tmp, png, ec);
  if (ec) return "cannot write " + png.string() + ": " + ec.message();
  return {};
}

void report(const Request& request, const std::vector<SvgFinding>& findings, Diagnostics& diags) {
  for (const auto& f : findings) {
    if (f.error)
      diags.error(request.loc, svg_finding_text(request.source, f), "svg");
    else
      diags.warning(request.loc, svg_finding_text(request.source, f), "svg");
  }
}

void report(const Request& request, const std::string& error, Diagnostics& diags) {
  if (!error.empty()) diags.error(request.loc, error, image_refusal_kind(error));
}

}  // namespace

std::string media_type_of(const fs::path& file) {
  static const std::map<std::string, std::string> types = {
      {".png", "image/png"}, {".jpg", "image/jpeg"},    {".jpeg", "image/jpeg"},
      {".gif", "image/gif"}, {".svg", "image/svg+xml"},
  };
  auto it = types.find(lower_extension(file));
  return it == types.end() ? std::string() : it->second;
}

std::optional<Prepared> FigureCache::prepare_uncached(const Request& request, const FileId& id,
                                                      std::string& error,
                                                      std::vector<SvgFinding>& findings) const {
  const fs::path& src = request.source;
  std::error_code ec;
  std::string ext = lower_extension(src);
  bool pdf = ext == ".pdf";
  if (!pdf && media_type_of(src).empty()) {
    error = "image `" + src.filename().string() +
            "` is not in a format the outputs accept (PNG, JPEG, GIF, SVG or PDF)";
    return std::nullopt;
  }
  // What an earlier run learnt about this very file (the identity was taken before reading it).
  Memo& memo = Memo::of(dir_);
  if (!memo.find(src, Memo::kValid, id)) {
    // The same refusal LaTeX and `check` make (validate.hpp): a Git LFS pointer, an empty, truncated
    // or mislabelled file.
    if (std::string refusal = image_refusal(src, root_); !refusal.empty()) {
      error = std::move(refusal);
      return std::nullopt;
    }
    memo.put(src, Memo::kValid, id, "");
  }
  if (ext == ".svg") {
    auto shipped = cleaned_svg_file(src, root_, dir_, findings, &id);
    if (!shipped) return std::nullopt;
    return Prepared{src, *shipped, media_type_of(src), ext, std::nullopt};
  }
  if (!pdf) return Prepared{src, src, media_type_of(src), ext, std::nullopt};

  // The key covers the renderer's settings, so that changing them never serves a stale PNG.
  const std::string settings = "pdf-to-png width=" + std::to_string(kRenderWidth);
  if (auto key = memo.find(src, settings, id)) {
    fs::path png = dir_ / (*key + ".png");
    if (fs::is_regular_file(png, ec)) return Prepared{src, png, "image/png", ".png", std::nullopt};
  }
  // A PDF is read whole for its hash.
  auto content = read_file(src);
  if (!content) {
    error = "cannot read image `" + src.string() + "`";
    return std::nullopt;
  }
  std::string key = text::sha256_hex(*content + "\n" + settings);
  fs::path png = dir_ / (key + ".png");
  if (!fs::is_regular_file(png, ec)) {
    fs::create_directories(dir_, ec);
    if (std::string problem = render_pdf(*content, png, kRenderWidth); !problem.empty()) {
      error = "figure `" + src.filename().string() + "`: " + problem;
      return std::nullopt;
    }
  }
  memo.put(src, settings, id, key);
  return Prepared{src, png, "image/png", ".png", std::nullopt};
}

std::optional<Prepared> FigureCache::prepare(const Request& request, Diagnostics& diags) const {
  const fs::path& src = request.source;
  if (request.generated) {
    std::string error;
    auto stored = store_generated(dir_, request, error);
    report(request, error, diags);
    return stored;
  }
  const std::optional<FileId> id = identify(src);
  if (!id) {
    report(request, "image `" + src.filename().string() + "` does not exist (" + src.string() + ")", diags);
    return std::nullopt;
  }
  // What an image gave is remembered for the process while the file keeps its identity: the dev
  // server prepares a chapter's figures on every save, and the errors are reported again.
  struct Seen {
    FileId id;
    std::optional<Prepared> result;
    std::string error;
    std::vector<SvgFinding> findings;
  };
  static std::mutex mutex;
  // Keyed by the two paths' bytes (NUL cannot occur in a path): fs::path compares component by
  // component, and with the cache folder first in every key that was ~4 M instructions a site build.
  static std::unordered_map<std::string, Seen> memo;
  std::string key = dir_.native();
  key += '\0';
  key += src.native();
  {
    std::unique_lock lock(mutex);
    auto it = memo.find(key);
    if (it != memo.end() && it->second.id == *id) {
      Seen hit = it->second;
      lock.unlock();
      std::error_code gone;
      if (!hit.result || hit.result->file == src || fs::is_regular_file(hit.result->file, gone)) {
        report(request, hit.error, diags);
        report(request, hit.findings, diags);
        return hit.result;
      }
    }
  }
  std::string error;
  std::vector<SvgFinding> findings;
  auto result = prepare_uncached(request, *id, error, findings);
  if (result && result->file == src) result->file_id = *id;
  report(request, error, diags);
  report(request, findings, diags);
  std::lock_guard lock(mutex);
  memo[std::move(key)] = Seen{*id, result, error, std::move(findings)};
  return result;
}

std::vector<std::optional<Prepared>> FigureCache::prepare_all(const std::vector<Request>& requests,
                                                              Diagnostics& diags,
                                                              const std::string& progress_label) const {
  std::vector<std::optional<Prepared>> out(requests.size());
  std::atomic<std::size_t> next{0};
  std::optional<ProgressCount> shown;
  if (!progress_label.empty()) shown.emplace(progress_label, "figures", requests.size());
  auto work = [&] {
    for (std::size_t i; (i = next++) < requests.size();) {
      out[i] = prepare(requests[i], diags);
      if (shown) shown->step();
    }
  };
  unsigned n = std::min<std::size_t>(core_count(), requests.size());
  std::vector<std::jthread> threads;
  for (unsigned t = 1; t < n; ++t) threads.emplace_back(work);
  work();
  threads.clear();
  figures::Memo::of(dir_).save();
  return out;
}

}  // namespace bb::figures
