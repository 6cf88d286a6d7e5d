// Image file checks by signature, header dimensions and end marker, per format.
#include "figures/validate.hpp"
#include "inputs/inputs.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>

namespace bb::figures {

namespace {

// Enough for every header below, and for an SVG's prolog, comments and doctype before `<svg`.
constexpr std::size_t kHeadBytes = 64 * 1024;
constexpr std::size_t kTailBytes = 1024;

std::uint32_t be32(std::string_view s, std::size_t at) {
  auto b = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + i])); };
  return (b(0) << 24) | (b(1) << 16) | (b(2) << 8) | b(3);
}

std::uint32_t le16(std::string_view s, std::size_t at) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(s[at])) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 8);
}

std::string png_problem(std::string_view head, std::string_view tail) {
  if (!head.starts_with("\x89PNG\r\n\x1A\n")) return "is not a PNG file (no PNG signature)";
  if (head.size() < 33 || head.substr(12, 4) != "IHDR") return "is not a valid PNG file (no header chunk)";
  if (be32(head, 16) == 0 || be32(head, 20) == 0) return "is a PNG image of zero width or height";
  if (tail.find(std::string_view("IEND\xAE\x42\x60\x82", 8)) == std::string_view::npos)
    return "is a truncated PNG file (it does not end with the IEND chunk)";
  return {};
}

std::string jpeg_problem(std::string_view head, std::string_view tail) {
  if (!head.starts_with("\xFF\xD8\xFF")) return "is not a JPEG file (no JPEG signature)";
  // Some writers pad after the end-of-image marker; it must still be there.
  if (tail.find("\xFF\xD9") == std::string_view::npos)
    return "is a truncated JPEG file (no end-of-image marker)";
  return {};
}

std::string gif_problem(std::string_view head, std::string_view tail) {
  if (!head.starts_with("GIF87a") && !head.starts_with("GIF89a"))
    return "is not a GIF file (no GIF signature)";
  if (head.size() < 10 || le16(head, 6) == 0 || le16(head, 8) == 0)
    return "is a GIF image of zero width or height";
  auto last = tail.find_last_not_of(std::string_view("\0\r\n ", 4));
  if (last == std::string_view::npos || tail[last] != ';') return "is a truncated GIF file (no trailer)";
  return {};
}

std::string svg_problem(std::string_view head) {
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
  auto first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || head[first] != '<' || head.find("<svg") == std::string_view::npos)
    return "is not an SVG file (no `<svg` element at its start)";
  if (head.find('\0') != std::string_view::npos) return "is not an SVG file (it holds NUL bytes)";
  return {};
}

std::string pdf_problem(std::string_view head, std::string_view tail) {
  // PDF readers accept the header within the first 1024 bytes.
  if (head.substr(0, 1024).find("%PDF-") == std::string_view::npos)
    return "is not a PDF file (no `%PDF-` header)";
  if (tail.find("%%EOF") == std::string_view::npos) return "is a truncated PDF file (no `%%EOF` at its end)";
  return {};
}

constexpr std::string_view kLfsProblem = "is a Git LFS pointer, not the image";

}  // namespace

bool is_lfs_pointer(std::string_view head) {
  return head.starts_with("version https://git-lfs.github.com/spec/v1");
}

std::string image_refusal(const std::filesystem::path& file, const std::filesystem::path& root) {
  std::string problem = image_problem(file);
  if (problem.empty()) return problem;
  std::string out = "image `" + file.filename().string() + "` " + problem;
  if (problem == kLfsProblem) {
    std::filesystem::path rel = root.empty() ? file.filename() : file.lexically_relative(root);
    if (rel.empty() || *rel.begin() == "..") rel = file.filename();
    out += ": run `git lfs pull --include=\"" + rel.generic_string() + "\"`";
  }
  return out;
}

const char* image_refusal_kind(std::string_view refusal) {
  return refusal.find(kLfsProblem) != std::string_view::npos ? "lfs-pointer" : "image";
}

std::string image_problem(std::string_view ext, std::string_view head, std::string_view tail,
                          std::uintmax_t size) {
  if (size == 0) return "is empty (0 bytes)";
  // Before the format's own checks: a pointer is "not a PNG file" too, but the cure is a fetch.
  if (is_lfs_pointer(head)) return std::string(kLfsProblem);
  if (ext == ".png") return png_problem(head, tail);
  if (ext == ".jpg" || ext == ".jpeg") return jpeg_problem(head, tail);
  if (ext == ".gif") return gif_problem(head, tail);
  if (ext == ".svg") return svg_problem(head);
  if (ext == ".pdf") return pdf_problem(head, tail);
  return {};
}

std::string image_problem(const std::filesystem::path& file) {
  inputs::note_file(file);
  std::ifstream in(file, std::ios::binary);
  if (!in) return "cannot be read";
  in.seekg(0, std::ios::end);
  auto size = static_cast<std::uintmax_t>(std::max<std::streamoff>(0, in.tellg()));
  in.seekg(0);
  std::string head(std::min<std::uintmax_t>(size, kHeadBytes), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  std::string tail(std::min<std::uintmax_t>(size, kTailBytes), '\0');
  in.seekg(static_cast<std::streamoff>(size - tail.size()));
  in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
  if (!in) return "cannot be read";
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return image_problem(ext, head, tail, size);
}

}  // namespace bb::figures
