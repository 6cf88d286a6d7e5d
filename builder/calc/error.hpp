// The one exception type of the calc library: bad input or an impossible request, with a clear message.
#pragma once

#include <stdexcept>
#include <string>

namespace bb::calc {

// Thrown for every user-facing failure (unknown model, bad size, overflow, missing file...).
// The CLI maps it to exit code 2; the builder turns it into a diagnostic at the calling place.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace bb::calc
