// fork/exec with a pipe for standard output, a poll loop for the timeout, and the child in its own
// process group so that a timeout ends it with everything it started.
#include "typeset/process.hpp"
#include "inputs/inputs.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
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

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  ProcessResult result;
  if (argv.empty()) return result;
  int fds[2];
  // Close-on-exec: a program started meanwhile by another thread (editions typeset in parallel) must
  // not hold this pipe open, or this read would wait for that program too.
  if (pipe2(fds, O_CLOEXEC) != 0) return result;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  inputs::spoil();  // what another program reads is not known
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return result;
  }
  if (pid == 0) {
    setpgid(0, 0);
    int devnull = open("/dev/null", O_RDWR);
    dup2(devnull, STDIN_FILENO);
    dup2(options.capture ? fds[1] : devnull, STDOUT_FILENO);
    dup2(devnull, STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    if (!options.cwd.empty() && chdir(options.cwd.c_str()) != 0) _exit(127);
    for (const auto& [k, v] : options.env) setenv(k.c_str(), v.c_str(), 1);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(fds[1]);
  auto deadline = std::chrono::steady_clock::now() + options.timeout;
  char buf[4096];
  bool open_pipe = true;
  while (open_pipe) {
    int wait_ms = 200;
    if (options.timeout.count() > 0 && std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      result.timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int r = poll(&p, 1, wait_ms);
    if (r > 0) {
      ssize_t n = read(fds[0], buf, sizeof buf);
      if (n <= 0)
        open_pipe = false;
      else if (options.capture)
        result.out.append(buf, static_cast<std::size_t>(n));
    }
  }
  close(fds[0]);
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
