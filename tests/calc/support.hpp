// Shared helpers of the calc tests: the project's calculations folder, fixtures and path lookup.
#pragma once

#include <string>

#include "calc/data.hpp"
#include "calc/json.hpp"

namespace calc_test {

inline const std::string kDataDir = CALC_DATA_DIR;
inline const std::string kFixtures = CALC_FIXTURES_DIR;

inline const bb::calc::Data& data() {
  static const bb::calc::Data d(kDataDir);
  return d;
}

// Follows a dotted path ("summary.special_ops.sin", "operators.3.name") through a document.
inline const bb::calc::Json* at(const bb::calc::Json& doc, const std::string& path) {
  const bb::calc::Json* cur = &doc;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t dot = path.find('.', pos);
    std::string seg = path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    if (cur->is_object()) {
      if (!cur->contains(seg)) return nullptr;
      cur = &(*cur)[seg];
    } else if (cur->is_array()) {
      size_t i = std::stoul(seg);
      if (i >= cur->size()) return nullptr;
      cur = &(*cur)[i];
    } else {
      return nullptr;
    }
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  return cur;
}

}  // namespace calc_test
