// The development server.
#include "site/serve.hpp"

#include <httplib.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace bb::site {

namespace fs = std::filesystem;

std::optional<fs::path> resolve_request_path(const fs::path& root, const std::string& path) {
  if (path.empty() || path.front() != '/') return std::nullopt;
  if (path.find('\0') != std::string::npos || path.find('\\') != std::string::npos) return std::nullopt;
  fs::path rel;
  std::size_t pos = 1;
  while (pos <= path.size()) {
    std::size_t next = path.find('/', pos);
    if (next == std::string::npos) next = path.size();
    std::string seg = path.substr(pos, next - pos);
    if (seg == "..") return std::nullopt;
    if (!seg.empty() && seg != ".") rel /= seg;
    pos = next + 1;
  }
  std::error_code ec;
  fs::path base = fs::canonical(root, ec);
  if (ec) return std::nullopt;
  fs::path target = base / rel;
  if (fs::is_directory(target, ec)) target /= "index.html";
  fs::path real = fs::canonical(target, ec);  // follows symlinks: they must stay inside too
  if (ec || !fs::is_regular_file(real, ec)) return std::nullopt;
  auto [b, r] = std::mismatch(base.begin(), base.end(), real.begin(), real.end());
  if (b != base.end()) return std::nullopt;
  return real;
}

namespace {

std::string content_type(const fs::path& p) {
  std::string ext = p.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".json") return "application/json; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".jpg" || ext == ".jpeg") return "image/jpeg";
  if (ext == ".gif") return "image/gif";
  if (ext == ".webp") return "image/webp";
  if (ext == ".pdf") return "application/pdf";
  if (ext == ".xml") return "application/xml; charset=utf-8";
  if (ext == ".txt" || ext == ".md") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string sse_data(const std::string& data) {
  std::string out;
  std::size_t pos = 0;
  do {
    std::size_t nl = data.find('\n', pos);
    out += "data: " + data.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) + "\n";
    pos = nl == std::string::npos ? data.size() + 1 : nl + 1;
  } while (pos <= data.size());
  return out;
}

}  // namespace

DevServer::DevServer(fs::path root, std::string host, int port)
    : root_(std::move(root)),
      host_(std::move(host)),
      port_(port),
      server_(std::make_unique<httplib::Server>()) {
  server_->Get("/__bookbuild/events", [this](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-cache");
    long seen = -1;
    res.set_chunked_content_provider(
        "text/event-stream", [this, seen](std::size_t, httplib::DataSink& sink) mutable {
          std::unique_lock lock(mutex_);
          if (seen < 0) {
            seen = version_;
            std::string hello = "event: hello\n" + sse_data(std::to_string(version_)) + "\n";
            if (event_ == "failed" && version_ > 0) hello += "event: failed\n" + sse_data(data_) + "\n";
            lock.unlock();
            return sink.write(hello.data(), hello.size());
          }
          // Wake at least every second: a write to a page that was closed fails and frees this thread.
          changed_.wait_for(lock, std::chrono::seconds(1), [&] { return version_ != seen || stopping_; });
          if (stopping_) return false;
          std::string msg = ": keep-alive\n\n";
          if (version_ != seen) {
            seen = version_;
            msg = "event: " + event_ + "\n" + sse_data(data_) + "\n";
          }
          lock.unlock();
          return sink.write(msg.data(), msg.size());
        });
  });
  server_->Get(".*", [this](const httplib::Request& req, httplib::Response& res) {
    static const bool timings = std::getenv("BOOKBUILD_TIMINGS") != nullptr;
    if (timings && req.path.ends_with(".html"))
      std::fprintf(stderr, "  request %s at %lld\n", req.path.c_str(),
                   static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                              std::chrono::system_clock::now().time_since_epoch())
                                              .count()));
    auto file = resolve_request_path(root_, req.path);
    if (!file) {
      res.status = 404;
      auto page = resolve_request_path(root_, "/404.html");
      res.set_content(page ? slurp(*page) : std::string("<h1>404 Not found</h1>"),
                      "text/html; charset=utf-8");
      return;
    }
    res.set_header("Cache-Control", "no-store");
    // Sent through a content provider of known length, which cpp-httplib never compresses: Debian
    // builds it with brotli at its highest quality, about 0.4 s for a large chapter page, and on
    // loopback compression only costs time.
    auto body = std::make_shared<std::string>(slurp(*file));
    res.set_content_provider(body->size(), content_type(*file).c_str(),
                             [body](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                               sink.write(body->data() + offset, length);
                               return true;
                             });
  });
}

DevServer::~DevServer() {
  stop();
}

bool DevServer::start() {
  if (!server_->bind_to_port(host_.c_str(), port_)) return false;
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  return true;
}

void DevServer::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

void DevServer::publish(std::string event, std::string data) {
  {
    std::lock_guard lock(mutex_);
    ++version_;
    event_ = std::move(event);
    data_ = std::move(data);
  }
  changed_.notify_all();
}

void DevServer::reload(const std::vector<std::string>& pages) {
  std::string data;
  for (const auto& p : pages) data += (data.empty() ? "" : "\n") + p;
  publish("reload", data);
}

void DevServer::failed(const std::string& diagnostics) {
  publish("failed", diagnostics);
}

}  // namespace bb::site
