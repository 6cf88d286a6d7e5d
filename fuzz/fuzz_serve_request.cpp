// Fuzz target: the dev server's request path: any bytes as a request head are parsed, the path is
// resolved in a small site folder and the response is built. What is sent never leaves the site
// folder and never reaches past the file's last byte; Content-Length and Content-Range agree with it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "server/serve_request.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path& site() {
  static const fs::path root = [] {
    fs::path base = bb::fuzz::scratch();
    bb::fuzz::write(base / "outside.txt", "SECRET");
    bb::fuzz::write(base / "site" / "index.html", "<h1>home</h1>");
    bb::fuzz::write(base / "site" / "en" / "index.html", "<h1>en</h1>");
    bb::fuzz::write(base / "site" / "en" / "ch01.html", std::string(4854, 'p'));
    bb::fuzz::write(base / "site" / "a b.css", "body{}");
    bb::fuzz::write(base / "site" / "empty.txt", "");
    bb::fuzz::write(base / "site" / "404.html", "missing");
    std::error_code ec;
    fs::create_symlink(base / "outside.txt", base / "site" / "out.txt", ec);
    fs::create_directory_symlink(base, base / "site" / "up", ec);
    return fs::canonical(base / "site");
  }();
  return root;
}

std::string header(const std::string& head, const std::string& name) {
  std::size_t p = head.find("\r\n" + name + ": ");
  if (p == std::string::npos) return {};
  p += name.size() + 4;
  return head.substr(p, head.find("\r\n", p) - p);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using bb::fuzz::check;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto parsed = bb::server::parse_request_head(bytes);
  check(parsed.consumed <= bytes.size());
  if (parsed.status == bb::server::ParsedHead::Status::Error) {
    auto res = bb::server::respond_error(parsed.error);
    check(res.close && res.offset + res.length <= res.body->size());
    return 0;
  }
  if (parsed.status != bb::server::ParsedHead::Status::Ok) return 0;
  const auto& req = parsed.request;
  if (auto file = bb::server::resolve_request_path(site(), req.path)) {
    auto [s, f] = std::mismatch(site().begin(), site().end(), file->begin(), file->end());
    check(s == site().end());  // inside the site folder
  }
  auto res = bb::server::respond_static(site(), req);
  check(res.body && res.offset + res.length <= res.body->size());
  check(res.body->find("SECRET") == std::string::npos);
  const bool get = req.method == "GET";
  if (get) check(header(res.head, "Content-Length") == std::to_string(res.length));
  if (res.status == 206) {
    // Content-Range names the bytes sent (for HEAD: the bytes GET would send).
    unsigned long long first = 0, last = 0, total = 0;
    check(std::sscanf(header(res.head, "Content-Range").c_str(), "bytes %llu-%llu/%llu", &first, &last,
                      &total) == 3);
    check(first == res.offset && first <= last && last < total && total == res.body->size());
    check(header(res.head, "Content-Length") == std::to_string(last - first + 1));
    if (get) check(res.length == last - first + 1);
  }
  // The Range rule on its own, against sizes around the edges.
  if (req.range) {
    for (std::uint64_t n : {0ull, 1ull, 4854ull, ~0ull}) {
      auto d = bb::server::decide_range(*req.range, n);
      if (d.kind == bb::server::RangeDecision::Kind::Partial) check(d.first <= d.last && d.last < n);
    }
  }
  return 0;
}
