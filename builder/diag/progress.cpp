// The status line: drawing, wiping, and the stream buffers that wipe it before other output.
#include "diag/progress.hpp"

#include <cstring>

#include "diag/diagnostics.hpp"
#include "text/unicode.hpp"

namespace bb {

namespace {

constexpr std::string_view kWipe = "\r\x1b[K";  // carriage return, erase to the end of the line

// `line` cut to at most `cells` terminal cells, at a character boundary.
std::string fit(const std::string& line, int cells) {
  std::size_t pos = 0, keep = 0;
  int used = 0;
  while (pos < line.size()) {
    const char32_t cp = text::next_code_point(line, pos);
    used += text::char_width(cp);
    if (used > cells) break;
    keep = pos;
  }
  return line.substr(0, keep);
}

}  // namespace

bool progress_wanted(ProgressMode mode, bool quiet, bool stderr_is_terminal, const char* term) {
  if (quiet || mode == ProgressMode::Never) return false;
  if (mode == ProgressMode::Always) return true;
  return stderr_is_terminal && term != nullptr && *term != '\0' && std::strcmp(term, "dumb") != 0;
}

// Forwards every write to its target; the first byte of each write wipes the status line.
class Progress::Guard : public std::streambuf {
 public:
  Guard(Progress& owner, std::streambuf* target) : owner_(owner), target_(target) {}

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
  }

  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n <= 0) return 0;
    std::lock_guard lock(owner_.mutex_);
    owner_.wipe_locked();
    const std::streamsize written = target_->sputn(s, n);
    owner_.mid_line_ = s[n - 1] != '\n';
    // stdout is buffered: a finished line is pushed out now, before the next status line is drawn.
    if (!owner_.mid_line_) target_->pubsync();
    return written;
  }

  int sync() override { return target_->pubsync(); }

 private:
  Progress& owner_;
  std::streambuf* target_;
};

Progress::Progress() = default;
Progress::~Progress() = default;

void Progress::enable(std::streambuf* terminal, int columns, std::chrono::milliseconds min_interval) {
  std::lock_guard lock(mutex_);
  columns_ = columns > 1 ? columns : 80;
  min_interval_ = min_interval;
  terminal_.store(terminal, std::memory_order_release);
}

void Progress::wipe_locked() {
  if (!shown_) return;
  std::streambuf* terminal = terminal_.load(std::memory_order_relaxed);
  terminal->sputn(kWipe.data(), static_cast<std::streamsize>(kWipe.size()));
  terminal->pubsync();
  shown_ = false;
  last_.clear();
}

void Progress::draw_locked(const std::string& line) {
  std::string out(kWipe);
  out += line;
  std::streambuf* terminal = terminal_.load(std::memory_order_relaxed);
  terminal->sputn(out.data(), static_cast<std::streamsize>(out.size()));
  terminal->pubsync();
  shown_ = true;
  last_ = line;
}

void Progress::status(std::string_view label, std::string_view text, bool frequent) {
  if (!enabled()) return;
  std::string line = "[" + escape_controls(label) + "] " + escape_controls(text);
  std::lock_guard lock(mutex_);
  if (mid_line_) return;  // another line is being printed: it is not cut in two
  line = fit(line, columns_ - 1);
  if (shown_ && line == last_) return;
  const auto now = std::chrono::steady_clock::now();
  if (frequent && shown_ && now - last_draw_ < min_interval_) return;
  last_draw_ = now;
  draw_locked(line);
}

void Progress::clear() {
  if (!enabled()) return;
  std::lock_guard lock(mutex_);
  wipe_locked();
}

std::streambuf* Progress::guard(std::streambuf* target) {
  std::lock_guard lock(mutex_);
  guards_.push_back(std::make_unique<Guard>(*this, target));
  return guards_.back().get();
}

Progress& progress() {
  // Never destroyed: std::cerr may hold one of its guards until the very end of the process.
  static Progress* const instance = new Progress;
  return *instance;
}

ProgressCount::ProgressCount(std::string label, std::string what, std::size_t total, Progress& to)
    : to_(to), label_(std::move(label)), what_(std::move(what)), total_(total) {}

void ProgressCount::step() {
  const std::size_t done = ++done_;
  if (to_.enabled())
    to_.status(label_, what_ + " " + std::to_string(done) + "/" + std::to_string(total_), done < total_);
}

}  // namespace bb
