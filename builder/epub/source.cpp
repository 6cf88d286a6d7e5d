// Source time and commit, asked of git (when the book is a repository) and of the environment.
#include "epub/source.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace bb::epub {

namespace fs = std::filesystem;

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The trimmed standard output of `git -C root <args>`, or nullopt when git fails.
std::optional<std::string> git(const fs::path& root, const std::string& args) {
  std::string cmd = "git -C " + shell_quote(root.string()) + " " + args + " 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  if (!pipe) return std::nullopt;
  std::string out;
  char buf[256];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe.get())) out.append(buf, n);
  if (pclose(pipe.release()) != 0) return std::nullopt;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (out.empty()) return std::nullopt;
  return out;
}

std::optional<std::time_t> parse_time(const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 18)
    return std::nullopt;
  return static_cast<std::time_t>(std::stoll(s));
}

// A `.git` (folder, or file in a worktree) here or above: only then is git worth starting.
bool inside_git(const fs::path& root) {
  std::error_code ec;
  for (fs::path p = root; !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / ".git", ec)) return true;
    if (p == p.parent_path()) break;
  }
  return false;
}

std::time_t newest_mtime(const std::vector<fs::path>& files) {
  std::time_t newest = 0;
  for (const auto& f : files) {
    std::error_code ec;
    auto t = fs::last_write_time(f, ec);
    if (ec) continue;
    auto sys =
        std::chrono::time_point_cast<std::chrono::system_clock::duration>(std::chrono::file_clock::to_sys(t));
    newest = std::max(newest, std::chrono::system_clock::to_time_t(sys));
  }
  return newest;
}

}  // namespace

std::optional<std::time_t> source_date_epoch() {
  const char* env = std::getenv("SOURCE_DATE_EPOCH");
  if (!env) return std::nullopt;
  return parse_time(env);
}

SourceInfo source_info(const fs::path& root, const std::vector<fs::path>& files) {
  // One git process for all three answers: the top level, HEAD, and HEAD's commit time.
  std::optional<std::string> out;
  if (inside_git(root))
    out = git(root, "rev-parse --show-toplevel HEAD && git -C " + shell_quote(root.string()) +
                        " log -1 --format=%ct");
  std::vector<std::string> lines;
  for (std::size_t start = 0; out && start <= out->size();) {
    std::size_t end = out->find('\n', start);
    if (end == std::string::npos) end = out->size();
    lines.push_back(out->substr(start, end - start));
    start = end + 1;
  }
  bool repo = lines.size() == 3;
  SourceInfo info;
  info.repository = repo ? fs::path(lines[0]) : root;
  info.commit = repo ? lines[1] : "main";
  if (auto t = source_date_epoch())
    info.time = *t;
  else if (repo && parse_time(lines[2]))
    info.time = *parse_time(lines[2]);
  else
    info.time = newest_mtime(files);
  return info;
}

std::string normalize_repository_url(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (url.ends_with(".git")) url.resize(url.size() - 4);
  if (url.starts_with("git@")) {
    auto colon = url.find(':');
    if (colon != std::string::npos) url = "https://" + url.substr(4, colon - 4) + "/" + url.substr(colon + 1);
  }
  return url;
}

}  // namespace bb::epub
