// The dev-server load run shared by the load test and bench/serve: open event streams and idle
// sockets, then page requests from many clients at once; every answer is checked byte for byte and
// every request's latency is kept.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "http_client.hpp"

namespace bb::test {

struct LoadOptions {
  int streams = 100;
  int requests = 2000;
  int concurrency = 50;
  int idle_sockets = 30;       // connected, never send a byte
  int half_heads = 10;         // send half a request head and stop
  int requests_per_conn = 10;  // then the client reconnects: both new and kept-alive connections
};

struct LoadResult {
  int streams_opened = 0;    // got the hello event
  int streams_notified = 0;  // got the reload event sent after the page requests
  int answered = 0;          // 200 with exactly the file's bytes
  std::vector<std::string> failures;
  std::vector<double> latency_ms;  // per request, send to last byte

  double percentile(double p) const {
    if (latency_ms.empty()) return 0;
    std::vector<double> v = latency_ms;
    std::sort(v.begin(), v.end());
    auto i = static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
  }
};

// `pages`: request path → the exact bytes expected. `publish` makes the server send an event to every
// stream (a reload of "*"); it runs after the page requests while streams and idle sockets are open.
inline LoadResult run_load(int port, const std::vector<std::pair<std::string, std::string>>& pages,
                           const LoadOptions& opt, const std::function<void()>& publish) {
  LoadResult result;
  std::vector<int> streams, idle;
  for (int i = 0; i < opt.streams; ++i) {
    int fd = connect_local(port);
    std::string buffer;
    if (fd >= 0 &&
        send_all(fd, "GET /__bookbuild/events HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n\r\n")) {
      while (buffer.find("event: hello") == std::string::npos && receive_some(fd, buffer)) {
      }
    }
    if (fd >= 0 && buffer.find("event: hello") != std::string::npos) {
      ++result.streams_opened;
      streams.push_back(fd);
    } else if (fd >= 0) {
      ::close(fd);
    }
  }
  for (int i = 0; i < opt.idle_sockets + opt.half_heads; ++i) {
    int fd = connect_local(port);
    if (fd < 0) continue;
    if (i >= opt.idle_sockets) send_all(fd, "GET /index.html HTTP/1.1\r\nHost:");
    idle.push_back(fd);
  }

  std::atomic<int> next{0};
  std::mutex mutex;
  auto client = [&] {
    std::vector<double> mine;
    std::vector<std::string> failures;
    int answered = 0;
    int fd = -1, used = 0;
    std::string buffer;
    for (int i; (i = next.fetch_add(1)) < opt.requests;) {
      const auto& [path, expected] = pages[static_cast<std::size_t>(i) % pages.size()];
      if (fd < 0 || used == opt.requests_per_conn) {
        if (fd >= 0) ::close(fd);
        fd = connect_local(port);
        used = 0;
        buffer.clear();
      }
      ++used;
      auto t0 = std::chrono::steady_clock::now();
      std::optional<RawResponse> r;
      if (fd >= 0 && send_all(fd, "GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n"))
        r = read_response(fd, buffer);
      mine.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      if (r && r->status == 200 && r->body == expected) {
        ++answered;
      } else {
        failures.push_back(
            path + ": " +
            (r ? "status " + std::to_string(r->status) + ", " + std::to_string(r->body.size()) + " bytes"
               : std::string("no answer")));
        if (fd >= 0) ::close(fd);
        fd = -1;
      }
    }
    if (fd >= 0) ::close(fd);
    std::lock_guard lock(mutex);
    result.answered += answered;
    result.latency_ms.insert(result.latency_ms.end(), mine.begin(), mine.end());
    result.failures.insert(result.failures.end(), failures.begin(), failures.end());
  };
  std::vector<std::thread> clients;
  for (int i = 0; i < opt.concurrency; ++i) clients.emplace_back(client);
  for (auto& t : clients) t.join();

  publish();
  for (int fd : streams) {
    std::string buffer;
    while (buffer.find("event: reload") == std::string::npos && receive_some(fd, buffer)) {
    }
    if (buffer.find("event: reload") != std::string::npos) ++result.streams_notified;
    ::close(fd);
  }
  for (int fd : idle) ::close(fd);
  return result;
}

}  // namespace bb::test
