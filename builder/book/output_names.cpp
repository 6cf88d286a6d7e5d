// The output file names (see output_names.hpp).
#include "book/output_names.hpp"

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
  return output_name(config) + "-" + edition.id + std::string(ext);
}

}  // namespace bb::book
