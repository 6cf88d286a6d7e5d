// The output file names (see output_names.hpp).
#include "book/output_names.hpp"

#include <algorithm>
#include <cctype>

#include "repo/repository.hpp"

namespace bb::book {

std::string output_name(const Config& config) {
  std::string raw = repo::normalize_repository_url(config.repository);
  raw = raw.empty() ? config.root.filename().string() : raw.substr(raw.find_last_of('/') + 1);
  std::string name;
  for (char c : raw) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x80 && std::isalnum(u) != 0)
      name += static_cast<char>(std::tolower(u));
    else if (!name.empty() && name.back() != '-')
      name += '-';
  }
  while (!name.empty() && name.back() == '-') name.pop_back();
  return name.empty() ? "book" : name;
}

std::string output_file(const Config& config, const Edition& edition, std::string_view ext) {
  if (!edition.download_name.empty()) return edition.download_name + std::string(ext);
  return output_name(config) + "-" + edition.id + std::string(ext);
}

bool is_download_name(std::string_view name) {
  if (name.empty() || name.size() > 200 || name.front() == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x80 && (std::isalnum(u) != 0 || c == '-' || c == '_' || c == '.');
  });
}

std::string real_book_download_name(const Edition& edition) {
  std::string name = "AI-Infra-Book";
  if (edition.id == "zh") return name;
  name += '-';
  for (char c : edition.id) name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

}  // namespace bb::book
