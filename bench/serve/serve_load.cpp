// Benchmark of the dev server under the issue's load: event streams and idle sockets held open while
// many clients request pages; prints the latency percentiles of the page requests (goal: p99 < 50 ms).
// Usage: serve_load_bench [SITE_DIR] [STREAMS] [REQUESTS] [CONCURRENCY]
//   SITE_DIR: a built site (e.g. build/site; its .html files are requested); default: generated pages.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../../tests/site/serve_load.hpp"
#include "server/serve.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  fs::path site = argc > 1 ? fs::path(argv[1]) : fs::path();
  bb::test::LoadOptions opt;
  if (argc > 2) opt.streams = std::atoi(argv[2]);
  if (argc > 3) opt.requests = std::atoi(argv[3]);
  if (argc > 4) opt.concurrency = std::atoi(argv[4]);
  fs::path generated;
  if (site.empty()) {
    generated = fs::temp_directory_path() / ("bb-serve-bench-" + std::to_string(::getpid()));
    for (int i = 0; i < 20; ++i) {
      fs::create_directories(generated);
      std::ofstream(generated / ("p" + std::to_string(i) + ".html")) << std::string(20000 + i * 1000, 'x');
    }
    site = generated;
  }
  std::vector<std::pair<std::string, std::string>> pages;
  for (const auto& e : fs::recursive_directory_iterator(site)) {
    if (!e.is_regular_file() || e.path().extension() != ".html" || pages.size() >= 200) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    std::string rel = fs::relative(e.path(), site).generic_string();
    if (rel.find_first_of(" %?#") != std::string::npos) continue;
    pages.emplace_back("/" + rel, ss.str());
  }
  if (pages.empty()) {
    std::fprintf(stderr, "no .html files under %s\n", site.c_str());
    return 1;
  }
  bb::server::DevServer server(site, "127.0.0.1", 0);
  if (!server.start()) return 1;
  std::size_t open_streams = 0;
  auto r = bb::test::run_load(server.port(), pages, opt, [&] {
    open_streams = server.streams();
    server.reload({"*"});
  });
  server.stop();
  if (!generated.empty()) fs::remove_all(generated);
  std::printf("pages: %zu files; streams: %d opened, %zu open during the requests, %d got the reload event\n",
              pages.size(), r.streams_opened, open_streams, r.streams_notified);
  std::printf("requests: %d answered correctly of %d at %d-way concurrency (%zu failures)\n", r.answered,
              opt.requests, opt.concurrency, r.failures.size());
  std::printf("latency ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  (goal: < 50)\n", r.percentile(50),
              r.percentile(90), r.percentile(99), r.percentile(100));
  return r.answered == opt.requests && r.failures.empty() ? 0 : 1;
}
