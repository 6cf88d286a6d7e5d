// inotify-based watcher.
#include "server/watch.hpp"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <array>

#include "diag/diagnostics.hpp"

namespace bb::server {

namespace fs = std::filesystem;

Watcher::Watcher() : fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
  if (!fd_) throw FatalError("cannot watch files (inotify_init1 failed)");
}

Watcher::~Watcher() = default;

void Watcher::add_one(const fs::path& dir) {
  int wd =
      inotify_add_watch(fd_.get(), dir.c_str(),
                        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_MODIFY);
  if (wd >= 0) watches_.emplace_back(wd, dir);
}

void Watcher::add_tree(const fs::path& dir, const std::set<fs::path>& skip) {
  for (const auto& s : skip) skip_.insert(fs::weakly_canonical(s));
  if (!fs::is_directory(dir)) return;
  add_one(dir);
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (!it->is_directory()) continue;
    std::string name = it->path().filename().string();
    if (name.starts_with(".") || skip_.count(fs::weakly_canonical(it->path()))) {
      it.disable_recursion_pending();
      continue;
    }
    add_one(it->path());
  }
}

std::vector<fs::path> Watcher::wait(std::chrono::milliseconds timeout, std::chrono::milliseconds settle,
                                    std::chrono::milliseconds quiet) {
  std::vector<fs::path> changed;
  std::set<fs::path> writing;  // modified, not yet closed: a save in progress
  std::set<fs::path>
      created;  // appeared during this wait: gone again by its end, it was an editor's temporary
  auto read_events = [&] {
    alignas(inotify_event) std::array<char, 64 * 1024> buf;
    for (;;) {
      ssize_t n = read(fd_.get(), buf.data(), buf.size());
      if (n <= 0) return;
      for (char* p = buf.data(); p < buf.data() + n;) {
        auto* ev = reinterpret_cast<inotify_event*>(p);
        p += sizeof(inotify_event) + ev->len;
        auto w =
            std::find_if(watches_.begin(), watches_.end(), [&](const auto& x) { return x.first == ev->wd; });
        if (w == watches_.end() || ev->len == 0) continue;
        std::string name = ev->name;
        // Editors' temporary files are not changes to the book.
        if (name.starts_with(".") || name.ends_with("~") || name.ends_with(".swp") || name.ends_with(".tmp"))
          continue;
        fs::path path = w->second / name;
        if ((ev->mask & IN_ISDIR) && (ev->mask & (IN_CREATE | IN_MOVED_TO))) add_tree(path);
        if (ev->mask & (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE))
          writing.erase(path);
        else if ((ev->mask & (IN_MODIFY | IN_CREATE)) && !(ev->mask & IN_ISDIR))
          writing.insert(path);
        if ((ev->mask & IN_CREATE) && !(ev->mask & IN_ISDIR)) created.insert(path);
        // `sed -i` writes `sedXXXXXX` and renames it over the file; vim probes with `4913`: a file
        // created and removed (or renamed away) within one save is no change to the book.
        if ((ev->mask & (IN_MOVED_FROM | IN_DELETE)) && created.erase(path)) {
          std::erase(changed, path);
          continue;
        }
        if (std::find(changed.begin(), changed.end(), path) == changed.end()) changed.push_back(path);
      }
    }
  };
  pollfd pfd{fd_.get(), POLLIN, 0};
  if (poll(&pfd, 1, static_cast<int>(timeout.count())) <= 0) return changed;
  read_events();
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + settle;
  auto last = Clock::now();
  for (;;) {
    auto until = writing.empty() ? std::min(deadline, last + quiet) : deadline;
    auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now());
    if (left.count() <= 0) break;
    if (poll(&pfd, 1, static_cast<int>(left.count())) > 0) {
      read_events();
      last = Clock::now();
    }
  }
  return changed;
}

}  // namespace bb::server
