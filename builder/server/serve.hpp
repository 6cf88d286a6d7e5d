// The development server of `bookbuild site --serve`: static files from the site folder (never
// anything outside it, never a byte past a file), and a server-sent-events channel that tells open
// pages to reload or to show a build error. One thread runs a non-blocking event loop (epoll), so
// an open event stream or an idle socket costs a file descriptor and a few bytes, not a thread.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "server/serve_request.hpp"

namespace bb::server {

struct ServerLimits {
  int backlog = 1024;                                   // listen(2) queue; the kernel caps it at somaxconn
  std::size_t max_connections = 2048;                   // lowered to what RLIMIT_NOFILE allows
  std::chrono::milliseconds idle_timeout{15000};        // keep-alive socket with no request
  std::chrono::milliseconds head_timeout{10000};        // a request head that does not complete
  std::chrono::milliseconds keep_alive_comment{15000};  // a comment line on quiet event streams
  std::size_t max_stream_backlog = 1 << 20;             // unsent event bytes before a stream is dropped
};

class DevServer {
 public:
  // `port` 0 picks a free port (see port()).
  DevServer(std::filesystem::path root, std::string host, int port, ServerLimits limits = {});
  ~DevServer();
  DevServer(const DevServer&) = delete;
  DevServer& operator=(const DevServer&) = delete;

  // Binds and starts the event loop in a background thread; false if the address cannot be bound.
  bool start();
  void stop();
  int port() const { return port_; }

  // Tells open pages which pages changed ("*" for all); they reload if they are one of them.
  void reload(const std::vector<std::string>& pages);
  // Hands the open copies of `page` the blocks that changed (block_patch), so that they update
  // without fetching the page again; precedes the reload of the other pages.
  void patch(const std::string& page, const std::string& patch);
  // Shows build errors over every open page (until the next successful rebuild).
  void failed(const std::string& diagnostics);

  // Open event streams (for tests and the load benchmark).
  std::size_t streams() const { return streams_.load(); }

 private:
  struct Loop;
  void publish(std::string event, std::string data);

  std::filesystem::path root_;
  std::string host_;
  int port_;
  ServerLimits limits_;
  std::unique_ptr<Loop> loop_;
  std::thread thread_;
  std::atomic<std::size_t> streams_{0};
};

}  // namespace bb::server
