// Replays the fuzz harnesses' committed inputs without libFuzzer, as an ordinary test (CTest
// `fuzz.replay.<harness>`, label `fast`): every file of fuzz/corpus/<harness>/ and
// fuzz/regressions/<harness>/ (not its open/ folder of known unfixed crashes) goes once through the
// harness's entry point, so a fixed crash that comes back fails the fast tier, not only a fuzzing run.
// Each harness is compiled with its LLVMFuzzerTestOneInput renamed to bb_fuzz_one_<harness>
// (fuzz/CMakeLists.txt). Usage: fuzz_replay HARNESS FOLDER...
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#define BB_HARNESSES(X) \
  X(bibliography)       \
  X(book_filters)       \
  X(calc)               \
  X(config)             \
  X(epub_check)         \
  X(filtered_store)     \
  X(highlight_cache)    \
  X(markdown)           \
  X(math)               \
  X(parse_store)        \
  X(search)             \
  X(serve_request)

#define BB_DECLARE(h) extern "C" int bb_fuzz_one_##h(const std::uint8_t* data, std::size_t size);
BB_HARNESSES(BB_DECLARE)

namespace {

using EntryPoint = int (*)(const std::uint8_t*, std::size_t);

EntryPoint entry_point(std::string_view name) {
#define BB_MATCH(h) \
  if (name == #h) return bb_fuzz_one_##h;
  BB_HARNESSES(BB_MATCH)
  return nullptr;
}

// The input files under `dir`, sorted, leaving out open/ (reproducers of crashes not yet fixed).
std::vector<std::filesystem::path> inputs(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory() && it->path().filename() == "open") it.disable_recursion_pending();
    if (it->is_regular_file()) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  EntryPoint one = argc >= 2 ? entry_point(argv[1]) : nullptr;
  if (!one) {
    std::cerr << "usage: fuzz_replay HARNESS FOLDER...\n";
    return 2;
  }
  std::size_t replayed = 0;
  for (int i = 2; i < argc; ++i) {
    for (const auto& file : inputs(argv[i])) {
      std::ifstream in(file, std::ios::binary);
      const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      // A crash or an abort (bb::fuzz::check) ends the process: CTest reports the test failed, and
      // the last line printed names the input.
      std::cout << file.string() << std::endl;
      one(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++replayed;
    }
  }
  std::cout << "replayed " << replayed << " inputs through " << argv[1] << "\n";
  return replayed ? 0 : 1;
}
