// The dev server never serves a file outside the site folder, whatever the encoding of the path.
#include <httplib.h>

#include <csignal>
#include <thread>

#include "site/serve.hpp"
#include "test_support.hpp"

namespace bb::site {
namespace {

namespace fs = std::filesystem;

class ServeRoot : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("bb-serve-" + std::to_string(::getpid()));
    fs::remove_all(base_);
    test::write_file(base_ / "site" / "index.html", "home");
    test::write_file(base_ / "site" / "en" / "index.html", "en home");
    test::write_file(base_ / "site" / "a b.html", "space");
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

// Over HTTP, with the encodings a client may use: httplib decodes %xx before routing, so the decoded
// `..` must be refused by the server itself.
TEST_F(ServeRoot, HttpRequestsCannotClimbOut) {
  DevServer server(base_ / "site", "127.0.0.1", 18999);
  ASSERT_TRUE(server.start());
  httplib::Client client("127.0.0.1", 18999);
  auto ok = client.Get("/en/");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
  EXPECT_EQ(ok->body, "en home");
  for (const char* p : {"/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/..%2fsecret.txt",
                        "/%252e%252e/secret.txt", "/en/%2e%2e/%2e%2e/secret.txt", "/link.txt"}) {
    auto r = client.Get(p);
    ASSERT_TRUE(r) << p;
    EXPECT_EQ(r->status, 404) << p;
    EXPECT_EQ(r->body.find("secret"), std::string::npos) << p;
  }
  server.stop();
}

}  // namespace
}  // namespace bb::site
