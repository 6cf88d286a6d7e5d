// `bookbuild build` beside `bookbuild site --serve` on the same book and output folder (issue 51): in
// either order, both succeed, the server's later rebuilds too, its pages keep the live-reload script,
// and `<out>/site` is the published site, without it.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "http_client.hpp"
#include "test_support.hpp"

namespace bb::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// A port no one listens on now: the kernel's pick for a socket bound to port 0.
int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof addr;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &size);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// bookbuild with `args`, its stdout and stderr into `log`, in the background.
class Process {
 public:
  Process(const std::vector<std::string>& args, fs::path log) : log_(std::move(log)) {
    pid_ = ::fork();
    if (pid_ == 0) {
      int fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      std::vector<char*> argv{const_cast<char*>(BOOKBUILD_EXE)};
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(BOOKBUILD_EXE, argv.data());
      ::_exit(127);
    }
  }
  ~Process() {
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  // The exit code, once the process ends; -1 if it was killed.
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    exited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  [[nodiscard]] std::string log() const { return fs::exists(log_) ? read_file(log_) : ""; }
  // Waits until the log holds `text` `times` times; false on timeout.
  bool wait_for(const std::string& text, int times = 1, std::chrono::seconds timeout = 180s) const {
    for (auto end = std::chrono::steady_clock::now() + timeout; std::chrono::steady_clock::now() < end;
         std::this_thread::sleep_for(100ms)) {
      const std::string l = log();
      int seen = 0;
      for (auto at = l.find(text); at != std::string::npos; at = l.find(text, at + 1)) ++seen;
      if (seen >= times) return true;
    }
    return false;
  }

 private:
  fs::path log_;
  pid_t pid_ = -1;
  bool exited_ = false;
};

struct Book {
  TempDir dir{"bb-serve-build"};
  fs::path root = dir.path / "book", out = dir.path / "out";
  int port = free_port();
  Book() {
    auto r = run_bookbuild("init '" + root.string() + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  std::vector<std::string> serve() const {
    return {"--book", root.string(), "--out",  out.string(),
            "site",   "--serve",     "--port", std::to_string(port)};
  }
  [[nodiscard]] RunResult build() const {
    return run_bookbuild("--book '" + root.string() + "' --out '" + out.string() + "' -q build --no-pdf");
  }
  // An edit of the configuration: the server rebuilds the whole book (and finds the downloads anew).
  void edit(int n) const {
    std::string toml = read_file(root / "book.toml");
    write_file(root / "book.toml", toml + "# edit " + std::to_string(n) + "\n");
  }
  [[nodiscard]] std::string served_page() const {
    auto r = exchange(port, "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    return r ? r->body : "";
  }
};

constexpr std::string_view kLiveReload = "live-reload.js";

// After the server's rebuild that follows `build`: no failure, the live-reload script on the served
// page, none in the published site, and the EPUB linked from both.
void expect_both_whole(const Book& b, const Process& server, int rebuilds) {
  ASSERT_TRUE(server.wait_for("rebuilt in", rebuilds)) << server.log();
  EXPECT_EQ(server.log().find("error:"), std::string::npos) << server.log();
  const std::string served = b.served_page();
  EXPECT_NE(served.find(kLiveReload), std::string::npos) << served;
  EXPECT_NE(served.find("downloads/"), std::string::npos) << "the server's site links no download";
  const std::string published = read_file(b.out / "site" / "index.html");
  EXPECT_EQ(published.find(kLiveReload), std::string::npos);
  EXPECT_NE(published.find("downloads/"), std::string::npos);
}

TEST(ServeBesideBuild, BuildWhileTheServerRuns) {
  Book b;
  Process server(b.serve(), b.dir.path / "serve.log");
  ASSERT_TRUE(server.wait_for("site: serving")) << server.log();
  auto r = b.build();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  b.edit(1);
  expect_both_whole(b, server, 1);
  // And again: a build over the files of the last one, then a rebuild over the server's own.
  r = b.build();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  b.edit(2);
  expect_both_whole(b, server, 2);
}

TEST(ServeBesideBuild, TheServerStartsWhileABuildRuns) {
  Book b;
  Process build({"--book", b.root.string(), "--out", b.out.string(), "-q", "build", "--no-pdf"},
                b.dir.path / "build.log");
  Process server(b.serve(), b.dir.path / "serve.log");
  EXPECT_EQ(build.wait(), 0) << build.log();
  ASSERT_TRUE(server.wait_for("site: serving")) << server.log();
  b.edit(1);
  expect_both_whole(b, server, 1);
}

}  // namespace
}  // namespace bb::test
