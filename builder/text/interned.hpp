// Interned strings: one shared, immutable copy of each value for the whole process, held by a pointer.
// For names that tens of thousands of records repeat (an edition id, a chapter key in every binding
// of a large book), where a copy in each record would be most of the record.
#pragma once

#include <compare>
#include <mutex>
#include <ostream>
#include <set>
#include <string>
#include <string_view>

namespace bb::text {

class Interned {
 public:
  Interned() : s_(&intern({})) {}
  Interned(std::string_view s) : s_(&intern(s)) {}    // NOLINT: implicit, it stands for a string
  Interned(const std::string& s) : s_(&intern(s)) {}  // NOLINT
  Interned(const char* s) : s_(&intern(s)) {}         // NOLINT

  operator const std::string&() const { return *s_; }  // NOLINT
  [[nodiscard]] const std::string& str() const { return *s_; }
  [[nodiscard]] bool empty() const { return s_->empty(); }

  // One copy per value: equal values are the same object.
  friend bool operator==(const Interned& a, const Interned& b) { return a.s_ == b.s_; }
  friend bool operator==(const Interned& a, std::string_view b) { return *a.s_ == b; }
  friend std::strong_ordering operator<=>(const Interned& a, const Interned& b) { return *a.s_ <=> *b.s_; }
  friend std::ostream& operator<<(std::ostream& o, const Interned& s) { return o << *s.s_; }

 private:
  // Nodes of a std::set never move, so a pointer to one stays valid for the whole process.
  static const std::string& intern(std::string_view s) {
    static std::mutex mutex;
    static std::set<std::string, std::less<>> all;
    std::lock_guard lock(mutex);
    auto it = all.find(s);
    if (it == all.end()) it = all.emplace(s).first;
    return *it;
  }

  const std::string* s_;
};

}  // namespace bb::text
