// A run that has nothing to do does nothing: after a successful `site`, `epub` or `latex`, the
// command writes a record of what it looked at (inputs.hpp), what it wrote and what it printed. The
// next run of the same command line, in the same folder, environment and executable, checks that
// every file still has the identity it had and every folder the entries it had; when all do, it
// prints what the first run printed and stops. Anything else builds as usual (docs/pipeline.md §5).
//
// A record is not written when a file it would rely on changed within the last two seconds (the file
// system's clock could hide a second change of the same size), when the run spoiled it, or when it
// failed. BOOKBUILD_RUN_RECORD=0 turns records off.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace bb::inputs {

// The command line, for the key; also starts recording (inputs::start). main calls it before anything
// reads the book.
void begin_run(int argc, char** argv);

// Whether this run may use or write a record: started, not turned off, no timings or status line.
bool records_wanted();

// Tees std::cout and std::cerr while it lives, so that a record can print the same again.
class Capture {
 public:
  Capture();
  ~Capture();
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;
  struct Chunk {
    int stream;  // 1 stdout, 2 stderr
    std::string bytes;
  };
  [[nodiscard]] const std::vector<Chunk>& chunks() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The record of the last successful run of this command line into `out` (in <out>/.cache/runs):
// when it holds, prints what that run printed and returns true.
bool replay(const std::filesystem::path& out);

// After a successful run: writes the record, with `outputs` (files or folders, walked) as what the
// run wrote. After a failed one (or when a record cannot be relied on): removes it.
void save(const std::filesystem::path& out, const std::vector<std::filesystem::path>& outputs,
          const Capture& capture);
void forget(const std::filesystem::path& out);

// Why the last save() wrote no record ("" when it wrote one), for the tests and BOOKBUILD_TIMINGS.
const std::string& last_refusal();

}  // namespace bb::inputs
