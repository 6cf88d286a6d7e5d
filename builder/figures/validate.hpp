// Image file checks shared by every output: an image the outputs would ship is checked for what its
// extension promises (signature, dimensions, end marker), so that an empty, truncated or mislabelled
// file is an error at the manuscript's reference rather than a broken picture in the output.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace bb::figures {

// What is wrong with the image file, in words for a diagnostic ("is empty (0 bytes)", "is not a PNG
// file (its first bytes are not a PNG signature)", "is a Git LFS pointer, not the image"), or "" when
// the file looks sound. The check reads the first and last bytes only; PNG, JPEG, GIF, SVG and PDF are
// known by their extension.
std::string image_problem(const std::filesystem::path& file);

// Why every output refuses the image file `file`, as the whole diagnostic ("image `a.png` is empty (0
// bytes)"), or "" when it looks sound: the one decision the site, the EPUB, LaTeX and `check` all
// report. A Git LFS pointer names the command that fetches exactly it, its path relative to `root`
// (the book's folder): run `git lfs pull --include="m/img/a.png"`.
std::string image_refusal(const std::filesystem::path& file, const std::filesystem::path& root);

// The kind of a figure's refusal (Diagnostic::kind): "lfs-pointer" for a Git LFS pointer, whose cure
// is a fetch, "image" for everything else wrong with an image file.
const char* image_refusal_kind(std::string_view refusal);

// True when the bytes are a Git LFS pointer file rather than the content it points to.
bool is_lfs_pointer(std::string_view head);

// The same on bytes already read: `head` is the start of the file, `tail` its end, `size` its length.
std::string image_problem(std::string_view extension, std::string_view head, std::string_view tail,
                          std::uintmax_t size);

}  // namespace bb::figures
