// The dev server's event loop: accepts, reads request heads, writes responses and event streams
// without blocking, and drops what would hold resources forever (idle sockets, unfinished heads,
// streams whose reader stopped reading).
#include "server/serve.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <deque>
#include <mutex>
#include <unordered_map>

#include "inputs/file_io.hpp"

namespace bb::server {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kEventsPath = "/__bookbuild/events";

std::string sse_message(const std::string& event, const std::string& data) {
  std::string out = "event: " + event + "\n";
  std::size_t pos = 0;
  do {
    std::size_t nl = data.find('\n', pos);
    out += "data: " + data.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) + "\n";
    pos = nl == std::string::npos ? data.size() + 1 : nl + 1;
  } while (pos <= data.size());
  return out + "\n";
}

struct Conn {
  inputs::Fd socket;  // closed when the connection is erased
  std::string in;
  std::string out;  // response heads and event messages
  std::size_t out_pos = 0;
  std::shared_ptr<const std::string> body;  // the file part of the current response
  std::size_t body_pos = 0, body_end = 0;
  bool stream = false;       // an event stream: never reads another request
  bool close_after = false;  // close once everything is sent
  bool peer_closed = false;
  std::uint32_t interest = 0;
  Clock::time_point since;       // waiting for a request (or, for a stream, last write) since
  Clock::time_point progressed;  // last byte written while output was pending

  bool pending() const { return out_pos < out.size() || body_pos < body_end; }
};

}  // namespace

struct DevServer::Loop {
  fs::path root;
  ServerLimits limits;
  std::atomic<std::size_t>& streams;
  inputs::Fd listen_fd, epoll_fd, wake_fd;  // closed with the loop, as the connections are
  std::unordered_map<int, Conn> conns;

  // Shared with the threads that publish: the latest state (for pages that connect later) and the
  // messages not yet handed to the streams.
  std::mutex mutex;
  long version = 0;
  std::string last_event = "reload", last_data;
  std::deque<std::string> queued;
  bool stopping = false;

  Loop(fs::path r, ServerLimits l, std::atomic<std::size_t>& s) : root(std::move(r)), limits(l), streams(s) {}

  void run() {
    epoll_event events[256];
    auto last_sweep = Clock::now();
    for (;;) {
      int n = epoll_wait(epoll_fd.get(), events, 256, 500);
      if (n < 0 && errno != EINTR) return;
      for (int i = 0; i < n; ++i) {
        int fd = events[i].data.fd;
        if (fd == listen_fd.get()) {
          accept_all();
        } else if (fd == wake_fd.get()) {
          std::uint64_t count;
          [[maybe_unused]] auto r = ::read(wake_fd.get(), &count, sizeof count);
          if (!deliver()) return;
        } else {
          handle(fd, events[i].events);
        }
      }
      auto now = Clock::now();
      if (now - last_sweep >= std::chrono::milliseconds(500)) {
        sweep(now);
        last_sweep = now;
      }
    }
  }

  void accept_all() {
    for (;;) {
      inputs::Fd socket(::accept4(listen_fd.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
      if (!socket) return;  // EAGAIN, or out of descriptors: the rest wait in the backlog
      if (conns.size() >= limits.max_connections && !evict_idle()) continue;  // closed here
      const int fd = socket.get();
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      Conn& c = conns[fd];
      c.socket = std::move(socket);
      c.since = c.progressed = Clock::now();
      set_interest(fd, c, EPOLLIN, /*add=*/true);
    }
  }

  // At the connection limit, the socket that has waited longest without a request makes room.
  bool evict_idle() {
    auto oldest = conns.end();
    for (auto it = conns.begin(); it != conns.end(); ++it)
      if (!it->second.stream && !it->second.pending() &&
          (oldest == conns.end() || it->second.since < oldest->second.since))
        oldest = it;
    if (oldest == conns.end()) return false;
    close_conn(oldest->first);
    return true;
  }

  void set_interest(int fd, Conn& c, std::uint32_t want, bool add = false) {
    if (!add && want == c.interest) return;
    epoll_event ev{};
    ev.events = want;
    ev.data.fd = fd;
    epoll_ctl(epoll_fd.get(), add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &ev);
    c.interest = want;
  }

  void close_conn(int fd) {
    auto it = conns.find(fd);
    if (it == conns.end()) return;
    if (it->second.stream) --streams;
    epoll_ctl(epoll_fd.get(), EPOLL_CTL_DEL, fd, nullptr);
    conns.erase(it);  // closes the socket
  }

  // Sends what it can without blocking; false when the socket failed.
  bool flush(Conn& c, int fd) {
    if (!c.pending()) return true;
    while (c.pending()) {
      iovec iov[2];
      int count = 0;
      if (c.out_pos < c.out.size()) iov[count++] = {c.out.data() + c.out_pos, c.out.size() - c.out_pos};
      if (c.body_pos < c.body_end)
        iov[count++] = {const_cast<char*>(c.body->data()) + c.body_pos, c.body_end - c.body_pos};
      msghdr msg{};
      msg.msg_iov = iov;
      msg.msg_iovlen = static_cast<std::size_t>(count);
      ssize_t n = ::sendmsg(fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
      auto sent = static_cast<std::size_t>(n);
      std::size_t from_out = std::min(sent, c.out.size() - c.out_pos);
      c.out_pos += from_out;
      c.body_pos += sent - from_out;
      c.progressed = Clock::now();
    }
    c.out.clear();
    c.out_pos = 0;
    c.body.reset();
    c.body_pos = c.body_end = 0;
    c.since = Clock::now();  // idle (or, for a stream, quiet) from here
    return true;
  }

  void queue(Conn& c, const HttpResponse& res) {
    c.out += res.head;
    c.body = res.body;
    c.body_pos = res.offset;
    c.body_end = res.offset + res.length;
    if (res.close) c.close_after = true;
  }

  void start_stream(Conn& c, const HttpRequest& req) {
    c.stream = true;
    ++streams;
    c.in.clear();
    // No length and no chunking: the stream's body ends when the connection does (RFC 9112 §6.3).
    c.out +=
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
        "Connection: close\r\n\r\n";
    if (req.method == "HEAD") {
      c.close_after = true;
      return;
    }
    std::lock_guard lock(mutex);
    c.out += sse_message("hello", std::to_string(version));
    if (last_event == "failed" && version > 0) c.out += sse_message("failed", last_data);
  }

  void handle(int fd, std::uint32_t ev) {
    auto it = conns.find(fd);
    if (it == conns.end()) return;
    Conn& c = it->second;
    if (ev & EPOLLERR) return close_conn(fd);
    if (ev & (EPOLLIN | EPOLLHUP)) {
      char buf[16 * 1024];
      for (;;) {
        ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n > 0) {
          if (!c.stream) c.in.append(buf, static_cast<std::size_t>(n));
          if (c.in.size() > kMaxRequestHead) break;  // the parser answers 431
          continue;
        }
        if (n == 0)
          c.peer_closed = true;
        else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
          return close_conn(fd);
        break;
      }
    }
    if (!flush(c, fd)) return close_conn(fd);
    while (!c.pending() && !c.stream && !c.close_after) {
      ParsedHead head = parse_request_head(c.in);
      if (head.status == ParsedHead::Status::Incomplete) break;
      if (head.status == ParsedHead::Status::Error) {
        queue(c, respond_error(head.error));
      } else {
        c.in.erase(0, head.consumed);
        if (head.request.path == kEventsPath)
          start_stream(c, head.request);
        else
          queue(c, respond_static(root, head.request));
      }
      if (!flush(c, fd)) return close_conn(fd);
    }
    if (!c.pending() && (c.close_after || c.peer_closed)) return close_conn(fd);
    std::uint32_t want = c.pending() ? std::uint32_t{EPOLLOUT} : 0u;
    if (c.stream || !c.pending()) want |= EPOLLIN;
    set_interest(fd, c, want);
  }

  // Hands queued events to every stream; false when the server is stopping.
  bool deliver() {
    std::deque<std::string> messages;
    {
      std::lock_guard lock(mutex);
      if (stopping) return false;
      messages.swap(queued);
    }
    if (messages.empty()) return true;
    std::string all;
    for (auto& m : messages) all += m;
    std::vector<int> fds;
    for (auto& [fd, c] : conns)
      if (c.stream) fds.push_back(fd);
    for (int fd : fds) write_stream(fd, all);
    return true;
  }

  void write_stream(int fd, const std::string& bytes) {
    Conn& c = conns.at(fd);
    if (c.out.size() - c.out_pos + bytes.size() > limits.max_stream_backlog) return close_conn(fd);
    c.out += bytes;
    c.since = Clock::now();
    if (!flush(c, fd)) return close_conn(fd);
    set_interest(fd, c, EPOLLIN | (c.pending() ? std::uint32_t{EPOLLOUT} : 0u));
  }

  void sweep(Clock::time_point now) {
    std::vector<int> expired, quiet;
    for (auto& [fd, c] : conns) {
      if (c.stream) {
        if (now - c.since >= limits.keep_alive_comment) quiet.push_back(fd);
      } else if (c.pending()) {
        if (now - c.progressed >= limits.idle_timeout) expired.push_back(fd);  // a reader that stopped
      } else if (now - c.since >= (c.in.empty() ? limits.idle_timeout : limits.head_timeout)) {
        expired.push_back(fd);
      }
    }
    for (int fd : expired) close_conn(fd);
    // A comment line keeps proxies from timing the stream out and finds pages that were closed.
    for (int fd : quiet) write_stream(fd, ": keep-alive\n\n");
  }
};

DevServer::DevServer(fs::path root, std::string host, int port, ServerLimits limits)
    : root_(std::move(root)), host_(std::move(host)), port_(port), limits_(limits) {}

DevServer::~DevServer() {
  stop();
}

bool DevServer::start() {
  // Every open page holds a stream: allow as many descriptors as the hard limit lets us.
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = std::min<rlim_t>(rl.rlim_max, 65536);
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur > 128)
    limits_.max_connections = std::min<std::size_t>(limits_.max_connections, rl.rlim_cur - 64);

  auto loop = std::make_unique<Loop>(root_, limits_, streams_);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (getaddrinfo(host_.c_str(), std::to_string(port_).c_str(), &hints, &found) != 0) return false;
  for (addrinfo* a = found; a && !loop->listen_fd; a = a->ai_next) {
    inputs::Fd socket(::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol));
    if (!socket) continue;
    const int fd = socket.get();
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, limits_.backlog) == 0) {
      loop->listen_fd = std::move(socket);
    }  // else closed here
  }
  freeaddrinfo(found);
  if (!loop->listen_fd) return false;
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  if (getsockname(loop->listen_fd.get(), reinterpret_cast<sockaddr*>(&bound), &len) == 0)
    port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                              : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);

  loop->epoll_fd = inputs::Fd(epoll_create1(EPOLL_CLOEXEC));
  loop->wake_fd = inputs::Fd(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
  if (!loop->epoll_fd || !loop->wake_fd) return false;
  for (int fd : {loop->listen_fd.get(), loop->wake_fd.get()}) {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    epoll_ctl(loop->epoll_fd.get(), EPOLL_CTL_ADD, fd, &ev);
  }
  loop_ = std::move(loop);
  thread_ = std::thread([this] { loop_->run(); });
  return true;
}

void DevServer::stop() {
  if (!loop_) return;
  {
    std::lock_guard lock(loop_->mutex);
    loop_->stopping = true;
  }
  std::uint64_t one = 1;
  [[maybe_unused]] auto r = ::write(loop_->wake_fd.get(), &one, sizeof one);
  if (thread_.joinable()) thread_.join();
  loop_.reset();
  streams_ = 0;
}

void DevServer::publish(std::string event, std::string data) {
  if (!loop_) return;
  {
    std::lock_guard lock(loop_->mutex);
    ++loop_->version;
    loop_->queued.push_back(sse_message(event, data));
    loop_->last_event = std::move(event);
    loop_->last_data = std::move(data);
  }
  std::uint64_t one = 1;
  [[maybe_unused]] auto r = ::write(loop_->wake_fd.get(), &one, sizeof one);
}

void DevServer::reload(const std::vector<std::string>& pages) {
  std::string data;
  for (const auto& p : pages) data += (data.empty() ? "" : "\n") + p;
  publish("reload", data);
}

void DevServer::patch(const std::string& page, const std::string& patch) {
  publish("patch", page + "\n" + patch);
}

void DevServer::failed(const std::string& diagnostics) {
  publish("failed", diagnostics);
}

}  // namespace bb::server
