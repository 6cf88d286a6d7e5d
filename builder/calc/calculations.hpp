// The real book's calculations by name: each recomputes a stored result document (results/<id>.json,
// which records its "calculation" and the "scenario" it was computed from) into a fresh document of the
// same shape, so that `check numbers` and `calc verify-results` can compare the two field by field.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "calc/data.hpp"
#include "calc/error.hpp"
#include "calc/json.hpp"

namespace bb::calc {

struct Calculation {
  std::string name;     // the result file's "calculation", e.g. "request-dag"
  std::string command;  // the `bookbuild calc` command that prints the same document
  // The stored result document in, a fresh one out (computed from its "scenario" and whatever else it
  // records as an input: model, device, sources). Throws bb::calc::Error when the inputs are invalid or a
  // file the calculation needs is not in the book (the message names the missing path).
  std::function<Json(const Data&, const Json& stored)> recompute;
};

// A file the recompute needs is not in the book (a trace under experiments/, configs/hardware.json of a
// clone that skipped it): the result is *not recomputable*, never counted as equal. `path` is relative
// to the calculations folder as the result records it.
class MissingInput : public Error {
 public:
  explicit MissingInput(std::string path)
      : Error("input not in the book: calculations/" + path), path_(std::move(path)) {}
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Every calculation the library has, in a stable order.
const std::vector<Calculation>& calculations();
// The calculation of that name, or nullptr.
const Calculation* find_calculation(std::string_view name);

}  // namespace bb::calc
