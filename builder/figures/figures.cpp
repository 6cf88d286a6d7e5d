// Figure preparation: existence and Git LFS checks, PDF → PNG with Poppler, and the content-hash cache.
#include "figures/figures.hpp"

#include <openssl/evp.h>
#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-image.h>
#include <poppler-page-renderer.h>
#include <poppler-page.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

namespace bb::figures {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string lower_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

// Poppler prints syntax warnings of slightly broken PDFs to stderr; a figure that cannot be rendered
// is reported as a diagnostic instead.
void quiet_poppler() {
  static std::once_flag once;
  std::call_once(once, [] { poppler::set_debug_error_function([](const std::string&, void*) {}, nullptr); });
}

// Renders the first page of a PDF to a PNG `width` pixels wide. Returns an error message, or "".
std::string render_pdf(const std::string& pdf, const fs::path& png, int width) {
  quiet_poppler();
  std::unique_ptr<poppler::document> doc(
      poppler::document::load_from_raw_data(pdf.data(), static_cast<int>(pdf.size())));
  if (!doc || doc->is_locked()) return "cannot open the PDF";
  if (doc->pages() < 1) return "the PDF has no pages";
  std::unique_ptr<poppler::page> page(doc->create_page(0));
  if (!page) return "cannot read the PDF's first page";
  double points = page->page_rect(poppler::media_box).width();
  if (page->orientation() == poppler::page::landscape || page->orientation() == poppler::page::seascape)
    points = page->page_rect(poppler::media_box).height();
  if (points <= 0) return "the PDF's first page has no width";
  double dpi = width * 72.0 / points;
  poppler::page_renderer renderer;
  renderer.set_render_hint(poppler::page_renderer::antialiasing, true);
  renderer.set_render_hint(poppler::page_renderer::text_antialiasing, true);
  renderer.set_render_hint(poppler::page_renderer::text_hinting, true);
  poppler::image image = renderer.render_page(page.get(), dpi, dpi);
  if (!image.is_valid()) return "Poppler could not render the PDF";
  // Written aside and renamed, so that a concurrent build never reads half a PNG.
  static std::atomic<unsigned> counter{0};
  fs::path tmp = png.parent_path() / ("." + png.filename().string() + ".tmp-" + std::to_string(getpid()) +
                                      "-" + std::to_string(counter++));
  if (!image.save(tmp.string(), "png")) {
    std::error_code ec;
    fs::remove(tmp, ec);
    return "cannot write " + tmp.string();
  }
  std::error_code ec;
  fs::rename(tmp, png, ec);
  if (ec) return "cannot write " + png.string() + ": " + ec.message();
  return {};
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

bool is_lfs_pointer(std::string_view head) {
  return head.starts_with("version https://git-lfs.github.com/spec/v1");
}

std::string sha256_hex(std::string_view data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

std::optional<Prepared> FigureCache::prepare(const Request& request, Diagnostics& diags) const {
  const fs::path& src = request.source;
  std::error_code ec;
  if (!fs::is_regular_file(src, ec)) {
    diags.error(request.loc, "image `" + src.filename().string() + "` does not exist (" + src.string() + ")");
    return std::nullopt;
  }
  std::string ext = lower_extension(src);
  bool pdf = ext == ".pdf";
  if (!pdf && media_type_of(src).empty()) {
    diags.error(request.loc, "image `" + src.filename().string() +
                                 "` is not in a format the outputs accept (PNG, JPEG, GIF, SVG or PDF)");
    return std::nullopt;
  }
  // Only the first bytes are needed to spot an LFS pointer; a PDF is read whole for its hash.
  std::string head;
  {
    std::ifstream in(src, std::ios::binary);
    head.resize(64);
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
  }
  if (is_lfs_pointer(head)) {
    diags.error(request.loc, "image `" + src.filename().string() +
                                 "` is a Git LFS pointer, not the image: run `git lfs pull`");
    return std::nullopt;
  }
  if (!pdf) return Prepared{src, src, media_type_of(src), ext};

  auto content = read_file(src);
  if (!content) {
    diags.error(request.loc, "cannot read image `" + src.string() + "`");
    return std::nullopt;
  }
  // The key covers the renderer's settings, so that changing them never serves a stale PNG.
  std::string key = sha256_hex(*content + "\npdf-to-png width=" + std::to_string(kRenderWidth));
  fs::path png = dir_ / (key + ".png");
  if (!fs::is_regular_file(png, ec)) {
    fs::create_directories(dir_, ec);
    std::string error = render_pdf(*content, png, kRenderWidth);
    if (!error.empty()) {
      diags.error(request.loc, "figure `" + src.filename().string() + "`: " + error);
      return std::nullopt;
    }
  }
  return Prepared{src, png, "image/png", ".png"};
}

std::vector<std::optional<Prepared>> FigureCache::prepare_all(const std::vector<Request>& requests,
                                                              Diagnostics& diags) const {
  std::vector<std::optional<Prepared>> out(requests.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next++) < requests.size();) out[i] = prepare(requests[i], diags);
  };
  unsigned n = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), requests.size());
  std::vector<std::jthread> threads;
  for (unsigned t = 1; t < n; ++t) threads.emplace_back(work);
  work();
  return out;
}

}  // namespace bb::figures
