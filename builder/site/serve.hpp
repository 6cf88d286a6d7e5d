// The development server of `bookbuild site --serve`: static files from the site folder (never
// anything outside it), and a server-sent-events channel that tells open pages to reload or to show
// a build error.
#pragma once

#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace httplib {
class Server;
}

namespace bb::site {

// Maps a decoded request path to a file inside `root`, or nullopt when it would leave the folder
// (`..`, symlinks out, NUL or backslash) or names nothing. Folders map to their index.html.
std::optional<std::filesystem::path> resolve_request_path(const std::filesystem::path& root,
                                                          const std::string& path);

class DevServer {
 public:
  DevServer(std::filesystem::path root, std::string host, int port);
  ~DevServer();

  // Starts listening in a background thread; false if the address cannot be bound.
  bool start();
  void stop();

  // Tells open pages which pages changed ("*" for all); they reload if they are one of them.
  void reload(const std::vector<std::string>& pages);
  // Shows build errors over every open page (until the next successful rebuild).
  void failed(const std::string& diagnostics);

 private:
  void publish(std::string event, std::string data);

  std::filesystem::path root_;
  std::string host_;
  int port_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  long version_ = 0;
  std::string event_ = "reload";
  std::string data_;
  bool stopping_ = false;
};

}  // namespace bb::site
