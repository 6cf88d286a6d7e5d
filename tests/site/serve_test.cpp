// The dev server: never a file outside the site folder whatever the encoding of the path, Range
// answers byte-exact against the file (tests/site/fixtures/ranges.txt), malformed requests refused,
// and event streams that do not hold up page requests.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "http_client.hpp"
#include "serve_load.hpp"
#include "server/serve.hpp"
#include "test_support.hpp"

namespace bb::server {
namespace {

namespace fs = std::filesystem;

// 4,854 bytes in which no byte equals its neighbour: a body shifted by one byte cannot pass.
std::string page_bytes() {
  std::string s;
  for (int i = 0; i < 4854; ++i) s += static_cast<char>('!' + (i * 7) % 90);
  return s;
}

class ServeRoot : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("bb-serve-" + std::to_string(::getpid()));
    fs::remove_all(base_);
    test::write_file(base_ / "site" / "index.html", "home");
    test::write_file(base_ / "site" / "en" / "index.html", "en home");
    test::write_file(base_ / "site" / "a b.html", "space");
    test::write_file(base_ / "site" / "page.html", page_bytes());
    test::write_file(base_ / "site" / "empty.txt", "");
    test::write_file(base_ / "site" / "404.html", "not here");
    test::write_file(base_ / "secret.txt", "secret");
    fs::create_symlink(base_ / "secret.txt", base_ / "site" / "link.txt");
  }
  void TearDown() override { fs::remove_all(base_); }
  fs::path base_;
};

TEST_F(ServeRoot, ResolvesFilesAndFolders) {
  fs::path site = base_ / "site";
  EXPECT_EQ(resolve_request_path(site, "/"), fs::canonical(site / "index.html"));
  EXPECT_EQ(resolve_request_path(site, "/en/"), fs::canonical(site / "en" / "index.html"));
  EXPECT_EQ(resolve_request_path(site, "/a b.html"), fs::canonical(site / "a b.html"));
}

TEST_F(ServeRoot, RefusesEverythingOutsideTheFolder) {
  fs::path site = base_ / "site";
  for (const char* p : {"/../secret.txt", "/en/../../secret.txt", "/./../secret.txt", "/link.txt", "/..",
                        "/en/..\\..\\secret.txt", "relative.html", "", "/nope.html"})
    EXPECT_FALSE(resolve_request_path(site, p)) << p;
  EXPECT_FALSE(resolve_request_path(site, std::string("/index.html\0.txt", 16)));
}

// Over HTTP, with the encodings a client may use: %xx is decoded once, so a decoded `..` must be
// refused, and a doubly encoded one names a file that does not exist.
TEST_F(ServeRoot, HttpRequestsCannotClimbOut) {
  DevServer server(base_ / "site", "127.0.0.1", 0);
  ASSERT_TRUE(server.start());
  auto ok = test::exchange(server.port(), "GET /en/ HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
  EXPECT_EQ(ok->body, "en home");
  for (const char* p : {"/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/..%2fsecret.txt",
                        "/%252e%252e/secret.txt", "/en/%2e%2e/%2e%2e/secret.txt", "/link.txt",
                        "/en/..%5c..%5csecret.txt", "/index.html%00.txt"}) {
    auto r = test::exchange(server.port(),
                            std::string("GET ") + p + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    ASSERT_TRUE(r) << p;
    EXPECT_EQ(r->status, 404) << p;
    EXPECT_EQ(r->body, "not here") << p;
  }
}

struct RangeCase {
  int line = 0;
  std::string method, file, range, content_range;
  int status = 0;
};

std::vector<RangeCase> range_cases() {
  std::ifstream in(fs::path(BOOKBUILD_SOURCE_DIR) / "tests/site/fixtures/ranges.txt");
  std::vector<RangeCase> cases;
  std::string line;
  auto trim = [](std::string s) {
    s.erase(0, s.find_first_not_of(' '));
    s.erase(s.find_last_not_of(' ') + 1);
    return s;
  };
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line.front() == '#') continue;
    std::vector<std::string> f;
    std::istringstream ss(line);
    for (std::string part; std::getline(ss, part, '|');) f.push_back(trim(part));
    if (f.size() != 5) {
      ADD_FAILURE() << "ranges.txt:" << n << ": expected 5 fields";
      continue;
    }
    cases.push_back({n, f[0], f[1], f[2], f[4], std::stoi(f[3])});
  }
  return cases;
}

TEST_F(ServeRoot, RangeAnswersAreByteExact) {
  DevServer server(base_ / "site", "127.0.0.1", 0);
  ASSERT_TRUE(server.start());
  const std::string page = page_bytes();
  auto cases = range_cases();
  ASSERT_GE(cases.size(), 40u);
  for (const auto& c : cases) {
    SCOPED_TRACE("ranges.txt:" + std::to_string(c.line) + ": " + c.method + " " + c.file +
                 " Range: " + c.range);
    const std::string& file = c.file == "page" ? page : std::string();
    std::string path = c.file == "page" ? "/page.html" : "/empty.txt";
    auto r =
        test::exchange(server.port(), c.method + " " + path + " HTTP/1.1\r\nHost: t\r\nRange: " + c.range +
                                          "\r\nConnection: close\r\n\r\n");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, c.status);
    EXPECT_EQ(r->header("content-range"), c.content_range == "-" ? "" : c.content_range);
    std::string expected;
    if (c.status == 200) expected = file;
    if (c.status == 206) {
      unsigned long long first = 0, last = 0, total = 0;
      ASSERT_EQ(std::sscanf(c.content_range.c_str(), "bytes %llu-%llu/%llu", &first, &last, &total), 3);
      expected = file.substr(first, last - first + 1);
    }
    if (c.status == 416) expected = "416 Range Not Satisfiable\n";
    EXPECT_EQ(r->header("content-length"), std::to_string(expected.size()));
    // Everything the server sent after the head, read until it closed: exactly the range.
    EXPECT_EQ(r->body, c.method == "HEAD" ? std::string() : expected);
  }
}

TEST_F(ServeRoot, RangeIsIgnoredWhenSentTwiceOrWithIfRange) {
  DevServer server(base_ / "site", "127.0.0.1", 0);
  ASSERT_TRUE(server.start());
  for (const char* extra :
       {"Range: bytes=0-9\r\nRange: bytes=10-19\r\n", "Range: bytes=0-9\r\nIf-Range: \"x\"\r\n"}) {
    auto r = test::exchange(server.port(), std::string("GET /page.html HTTP/1.1\r\nHost: t\r\n") + extra +
                                               "Connection: close\r\n\r\n");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << extra;
    EXPECT_EQ(r->body, page_bytes()) << extra;
  }
}

TEST_F(ServeRoot, MalformedRequestsAreRefusedAndClosed) {
  DevServer server(base_ / "site", "127.0.0.1", 0);
  ASSERT_TRUE(server.start());
  struct Case {
    std::string request;
    int status;
  };
  std::vector<Case> cases = {
      {"POST / HTTP/1.1\r\nHost: t\r\n\r\n", 405},
      {"DELETE /index.html HTTP/1.1\r\nHost: t\r\n\r\n", 405},
      {"GET / HTTP/1.1\r\n\r\n", 400},                        // no Host
      {"GET / HTTP/1.1\r\nHost: t\r\nHost: u\r\n\r\n", 400},  // two
      {"GET / HTTP/2.0\r\nHost: t\r\n\r\n", 505},
      {"GET / FTP/1.0\r\n\r\n", 400},
      {"GET  / HTTP/1.1\r\nHost: t\r\n\r\n", 400},            // two spaces
      {"GET / HTTP/1.1\r\nHost: t\r\n folded\r\n\r\n", 400},  // obsolete folding
      {"GET / HTTP/1.1\r\nHost : t\r\n\r\n", 400},            // space before colon
      {"GET /%zz HTTP/1.1\r\nHost: t\r\n\r\n", 400},          // bad escape
      {"GET /%2 HTTP/1.1\r\nHost: t\r\n\r\n", 400},
      {"GET http://t/ HTTP/1.1\r\nHost: t\r\n\r\n", 400},                    // not origin-form
      {"GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello", 413},  // a body
      {"GET / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 413},
      {"GET / HTTP/1.1\r\nHost: t\r\nX: a\x01"
       "b\r\n\r\n",
       400},  // a control character
      {"GET / HTTP/1.1\r\nHost: t\r\nX: " + std::string(20000, 'a') + "\r\n\r\n", 431},
  };
  for (const auto& c : cases) {
    auto r = test::exchange(server.port(), c.request);
    ASSERT_TRUE(r) << c.request.substr(0, 60);
    EXPECT_EQ(r->status, c.status) << c.request.substr(0, 60);
    EXPECT_EQ(r->header("connection"), "close") << c.request.substr(0, 60);
  }
  // HTTP/1.0 and bare LF line ends are served.
  auto r = test::exchange(server.port(), "GET /en/ HTTP/1.0\n\n");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "en home");
}

TEST_F(ServeRoot, KeepAliveAndPipelinedRequestsAreAnsweredInOrder) {
  DevServer server(base_ / "site", "127.0.0.1", 0);
  ASSERT_TRUE(server.start());
  int fd = test::connect_local(server.port());
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(test::send_all(fd,
                             "GET /en/ HTTP/1.1\r\nHost: t\r\n\r\nHEAD /page.html HTTP/1.1\r\nHost: t\r\n\r\n"
                             "GET /a%20b.html HTTP/1.1\r\nHost: t\r\n\r\n"));
  std::string buffer;
  auto a = test::read_response(fd, buffer);
  auto b = test::read_response(fd, buffer, /*head_request=*/true);
  auto c = test::read_response(fd, buffer);
  ::close(fd);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->body, "en home");
  EXPECT_EQ(b->status, 200);
  EXPECT_EQ(b->header("content-length"), "4854");
  EXPECT_EQ(c->body, "space");
  EXPECT_TRUE(buffer.empty());  // the HEAD answer carried no body
}

// A page that connects after a failed build sees the error at once; a reload clears it.
TEST_F(ServeRoot, EventStreamsGetTheStateAndEveryEvent) {
  DevServer server(base_ / "site", "127.0.0.1", 0);
  ASSERT_TRUE(server.start());
  server.failed("book.toml:3:1: error: something\nsecond line");
  int fd = test::connect_local(server.port());
  ASSERT_TRUE(test::send_all(fd, "GET /__bookbuild/events HTTP/1.1\r\nHost: t\r\n\r\n"));
  std::string buffer;
  while (buffer.find("second line\n\n") == std::string::npos && test::receive_some(fd, buffer)) {
  }
  EXPECT_NE(buffer.find("Content-Type: text/event-stream"), std::string::npos);
  EXPECT_NE(buffer.find("event: hello\ndata: 1\n\n"), std::string::npos);
  EXPECT_NE(buffer.find("event: failed\ndata: book.toml:3:1: error: something\ndata: second line\n\n"),
            std::string::npos);
  buffer.clear();
  server.reload({"en/ch01.html", "en/index.html"});
  while (buffer.find("\n\n") == std::string::npos && test::receive_some(fd, buffer)) {
  }
  EXPECT_EQ(buffer, "event: reload\ndata: en/ch01.html\ndata: en/index.html\n\n");
  ::close(fd);
}

// The load: 100 open event streams (each used to hold a worker thread), 30 idle sockets and
// 10 half-sent heads, then 2,000 page requests from 50 clients at once. Every request must be answered
// with the exact file and every stream must still get the next event. Latencies are printed, not
// asserted (bench/serve measures them).
TEST_F(ServeRoot, HundredStreamsDoNotStopPageRequests) {
  std::vector<std::pair<std::string, std::string>> pages;
  for (int i = 0; i < 20; ++i) {
    std::string content = page_bytes().substr(static_cast<std::size_t>(i) * 100) + std::to_string(i);
    test::write_file(base_ / "site" / "load" / ("p" + std::to_string(i) + ".html"), content);
    pages.emplace_back("/load/p" + std::to_string(i) + ".html", content);
  }
  DevServer server(base_ / "site", "127.0.0.1", 0);
  ASSERT_TRUE(server.start());
  test::LoadOptions opt;
  auto result = test::run_load(server.port(), pages, opt, [&] {
    EXPECT_EQ(server.streams(), 100u);
    server.reload({"*"});
  });
  EXPECT_EQ(result.streams_opened, opt.streams);
  EXPECT_EQ(result.answered, opt.requests);
  EXPECT_TRUE(result.failures.empty())
      << result.failures.size() << " failures, first: " << result.failures.front();
  EXPECT_EQ(result.streams_notified, opt.streams);
  std::printf(
      "load: %d requests, 50-way, 100 streams open: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
      result.answered, result.percentile(50), result.percentile(90), result.percentile(99),
      result.percentile(100));
}

}  // namespace
}  // namespace bb::server
