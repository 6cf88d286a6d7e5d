// The typesetting stamps (see typeset_stamp.hpp). A stamp is "<key>\n<pdf checksum>\n" then the log.
#include "typeset/typeset_stamp.hpp"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "output/staging.hpp"
#include "text/digest.hpp"

namespace bb::typeset {

namespace fs = std::filesystem;

namespace {

std::string file_identity(const fs::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return "missing";
  return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

std::string read_all(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path stamp_file(const TypesetStamp& stamp) {
  return stamp.cache / (stamp.edition + ".stamp");
}

std::string pdf_checksum(std::string_view bytes) {
  return std::to_string(bytes.size()) + ":" + std::to_string(text::checksum64(bytes));
}

}  // namespace

std::string typeset_key(const LatexFolder& folder, const fs::path& xelatex) {
  text::Sha256 h;
  h.field(folder.tex).field(folder.srcmap);
  for (const auto& link : folder.links)
    h.field(link.name).field(link.from.native()).field(file_identity(link.from));
  h.field(xelatex.native()).field(file_identity(xelatex));
  return h.hex_digest();
}

std::optional<std::string> stamped_log(const TypesetStamp& stamp, const std::string& key,
                                       const fs::path& pdf) {
  std::string text = read_all(stamp_file(stamp));
  std::size_t first = text.find('\n');
  std::size_t second = first == std::string::npos ? first : text.find('\n', first + 1);
  if (second == std::string::npos || text.compare(0, first, key) != 0 || first != key.size())
    return std::nullopt;
  if (text.substr(first + 1, second - first - 1) != pdf_checksum(read_all(pdf))) return std::nullopt;
  return text.substr(second + 1);
}

void save_stamp(const TypesetStamp& stamp, const std::string& key, const std::string& pdf_bytes,
                const std::string& log) {
  fs::create_directories(stamp.cache);
  output::write_file_atomic(stamp_file(stamp), key + "\n" + pdf_checksum(pdf_bytes) + "\n" + log);
}

void forget_stamp(const TypesetStamp& stamp) {
  std::error_code ec;
  fs::remove(stamp_file(stamp), ec);
}

}  // namespace bb::typeset
