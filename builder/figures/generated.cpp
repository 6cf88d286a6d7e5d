// Figures bookbuild draws itself (charts): content-addressed in the figure cache, so that an unchanged
// chart is one existing file and a changed one a new file, never half written.
#include <unistd.h>

#include <atomic>
#include <fstream>

#include "figures/figures.hpp"
#include "text/digest.hpp"

namespace bb::figures {

namespace fs = std::filesystem;

std::optional<Prepared> store_generated(const fs::path& dir, const Request& request, std::string& error) {
  const std::string& bytes = *request.generated;
  fs::path file = dir / (text::sha256_hex(bytes) + ".svg");
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    fs::create_directories(dir, ec);
    static std::atomic<unsigned> counter{0};
    fs::path tmp = dir / (".chart.tmp-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    {
      std::ofstream out(tmp, std::ios::binary);
      out << bytes;
      if (!out) {
        error = "cannot write " + tmp.string();
        return std::nullopt;
      }
    }
    fs::rename(tmp, file, ec);
    if (ec) {
      error = "cannot write " + file.string() + ": " + ec.message();
      return std::nullopt;
    }
  }
  return Prepared{request.source, file, "image/svg+xml", ".svg", std::nullopt};
}

}  // namespace bb::figures
