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

}  // namespace

std::optional<std::time_t> source_date_epoch() {
  const char* env = std::getenv("SOURCE_DATE_EPOCH");
  if (!env) return std::nullopt;
  return parse_time(env);
}

SourceInfo source_info(const fs::path& root, const std::vector<fs::path>& files) {
  SourceInfo info;
  auto top = git(root, "rev-parse --show-toplevel");
  info.repository = top ? fs::path(*top) : root;
  auto head = top ? git(root, "rev-parse HEAD") : std::nullopt;
  info.commit = head ? *head : "main";
  if (auto t = source_date_epoch()) {
    info.time = *t;
  } else if (auto ct = head ? git(root, "log -1 --format=%ct") : std::nullopt; ct && parse_time(*ct)) {
    info.time = *parse_time(*ct);
  } else {
    for (const auto& f : files) {
      std::error_code ec;
      auto t = fs::last_write_time(f, ec);
      if (ec) continue;
      auto sys = std::chrono::time_point_cast<std::chrono::system_clock::duration>(
          std::chrono::file_clock::to_sys(t));
      info.time = std::max(info.time, std::chrono::system_clock::to_time_t(sys));
    }
  }
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
