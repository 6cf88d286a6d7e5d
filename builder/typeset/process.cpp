// posix_spawn with a pipe for standard output, a poll loop for the timeout, and the child in its own
// process group so that a timeout ends it with everything it started.
#include "typeset/process.hpp"
#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

namespace bb::typeset {

namespace fs = std::filesystem;

std::optional<fs::path> find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (access(name.c_str(), X_OK) == 0) return fs::path(name);
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!dir.empty()) {
      fs::path candidate = fs::path(dir) / name;
      if (access(candidate.c_str(), X_OK) == 0 && fs::is_regular_file(candidate)) return candidate;
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return std::nullopt;
}

namespace {

// The environment of the child: this process's, with `extra` set over it. Built before the child
// exists: between fork and exec a multithreaded process may not allocate (another thread can hold the
// allocator's lock at the fork, and the child would wait for it for ever).
std::vector<std::string> child_environment(const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    std::string key = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& [k, v] : extra) replaced = replaced || k == key;
    if (!replaced) env.push_back(std::move(entry));
  }
  for (const auto& [k, v] : extra) env.push_back(k + "=" + v);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

// posix_spawn, not fork: bookbuild typesets editions on several threads, and posix_spawn does in the
// child only what it is told (no allocation, no locks) before the exec.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  ProcessResult result;
  if (argv.empty()) return result;
  int fds[2];
  // Close-on-exec: a program started meanwhile by another thread (editions typeset in parallel) must
  // not hold this pipe open, or this read would wait for that program too.
  if (pipe2(fds, O_CLOEXEC) != 0) return result;
  inputs::Fd read_end(fds[0]), write_end(fds[1]);
  std::vector<std::string> arg_strings(argv.begin(), argv.end());
  std::vector<std::string> env_strings = child_environment(options.env);
  std::vector<char*> args = pointers(arg_strings), envp = pointers(env_strings);

  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (options.capture)
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  else
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  // glibc 2.29+: the working directory of the child alone, not of this process's other threads.
  if (!options.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, options.cwd.c_str());
  // Its own process group, so that a timeout ends it with everything it started.
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);

  inputs::spoil();  // what another program reads is not known
  pid_t pid = -1;
  int spawned = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  write_end.close();  // the child's copy alone keeps it open: its end is the pipe's end
  if (spawned != 0) {
    result.exit_code = 127;  // as a shell reports a program it could not run
    return result;
  }
  auto deadline = std::chrono::steady_clock::now() + options.timeout;
  char buf[4096];
  bool open_pipe = true;
  while (open_pipe) {
    if (options.timeout.count() > 0 && std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      result.timed_out = true;
      break;
    }
    pollfd p{read_end.get(), POLLIN, 0};
    int r = poll(&p, 1, 200);
    if (r > 0) {
      ssize_t n = read(read_end.get(), buf, sizeof buf);
      if (n <= 0)
        open_pipe = false;
      else if (options.capture)
        result.out.append(buf, static_cast<std::size_t>(n));
    }
  }
  read_end.close();
  int status = 0;
  while (true) {
    pid_t w = waitpid(pid, &status, options.timeout.count() > 0 ? WNOHANG : 0);
    if (w == pid) break;
    if (w < 0) return result;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      result.timed_out = true;
    }
    usleep(50000);
  }
  result.exit_code = WIFEXITED(status) && !result.timed_out ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace bb::typeset
