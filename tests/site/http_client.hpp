// A raw HTTP/1.1 client for the dev-server tests and the load benchmark: it sends exact bytes and
// keeps every byte it receives, so a byte past Content-Length or a wrong header is seen, not smoothed
// over by a client library.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace bb::test {

// A connected blocking socket to 127.0.0.1:port whose reads give up after `timeout`.
inline int connect_local(int port, std::chrono::seconds timeout = std::chrono::seconds(20)) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  timeval tv{static_cast<time_t>(timeout.count()), 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

inline bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Appends what arrives to `buffer`; false on end of stream, error or timeout.
inline bool receive_some(int fd, std::string& buffer) {
  char chunk[16384];
  ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
  if (n <= 0) return false;
  buffer.append(chunk, static_cast<std::size_t>(n));
  return true;
}

struct RawResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;

  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

// Parses a response head at the start of `buffer`; nullopt until it is complete. `head_size` gets
// the head's length.
inline std::optional<RawResponse> parse_response_head(const std::string& buffer, std::size_t& head_size) {
  std::size_t end = buffer.find("\r\n\r\n");
  if (end == std::string::npos) return std::nullopt;
  head_size = end + 4;
  RawResponse r;
  std::size_t line_end = buffer.find("\r\n");
  std::string status_line = buffer.substr(0, line_end);
  if (status_line.size() < 12 || !status_line.starts_with("HTTP/1.1 ")) return r;  // status 0: malformed
  r.status = std::atoi(status_line.c_str() + 9);
  std::size_t pos = line_end + 2;
  while (pos < end) {
    std::size_t nl = buffer.find("\r\n", pos);
    std::string line = buffer.substr(pos, nl - pos);
    pos = nl + 2;
    std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    r.headers[name] = value;
  }
  return r;
}

// Reads one response of a keep-alive connection: the head, then exactly Content-Length bytes (none
// for HEAD). Bytes of a following response stay in `buffer`.
inline std::optional<RawResponse> read_response(int fd, std::string& buffer, bool head_request = false) {
  std::size_t head_size = 0;
  std::optional<RawResponse> r;
  while (!(r = parse_response_head(buffer, head_size)))
    if (!receive_some(fd, buffer)) return std::nullopt;
  std::size_t length = head_request ? 0 : std::strtoull(r->header("content-length").c_str(), nullptr, 10);
  while (buffer.size() < head_size + length)
    if (!receive_some(fd, buffer)) return std::nullopt;
  r->body = buffer.substr(head_size, length);
  buffer.erase(0, head_size + length);
  return r;
}

// Sends `raw` on a new connection and reads until the server closes it: `body` is every byte after
// the head, so anything sent beyond Content-Length shows up in it.
inline std::optional<RawResponse> exchange(int port, const std::string& raw) {
  int fd = connect_local(port);
  if (fd < 0) return std::nullopt;
  std::string buffer;
  bool sent = send_all(fd, raw);
  while (sent && receive_some(fd, buffer)) {
  }
  ::close(fd);
  std::size_t head_size = 0;
  auto r = parse_response_head(buffer, head_size);
  if (r) r->body = buffer.substr(head_size);
  return r;
}

}  // namespace bb::test
