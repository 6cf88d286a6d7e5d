// Reading and writing numbers.lock (see numbers_lock.hpp).
#include "check/numbers_lock.hpp"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "check/citations_derive.hpp"
#include "inputs/file_io.hpp"
#include "tomlfile/parse.hpp"

namespace bb::check {

namespace {

constexpr const char* kOpen = "\u27E6";   // ⟦
constexpr const char* kClose = "\u27E7";  // ⟧
constexpr std::size_t kMaxLockBytes = std::size_t{64} << 20;

// A TOML basic string.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

const char* kHeader =
    "# numbers.lock: the field of a cited result that each typed number states, written by\n"
    "# `bookbuild check numbers --lock` and read by every `check` (docs/numbers.md, \"The lock\").\n"
    "# Review it like code. `at` finds the number again: its sentence or table cell, the number in "
    "\u27E6\u27E7.\n"
    "# An open entry (no `field`) says why in `reason` and lists its `candidates`: set `field` to one of\n"
    "# them, or leave the number unchecked on purpose with `waive = \"why\"`.\n";

std::string place_of(const toml::node& n) {
  return std::to_string(n.source().begin.line);
}

}  // namespace

std::string lock_place(const LockEntry& e) {
  return e.before + kOpen + e.text + kClose + e.after;
}

std::string numbers_lock_text(const std::vector<LockEntry>& entries) {
  std::string out = kHeader;
  for (const auto& e : entries) {
    out += "\n[[number]]\nfile = " + quoted(e.file) + "\nat = " + quoted(lock_place(e)) + "\n";
    if (!e.field.empty()) {
      out += "field = " + quoted(e.field) + "\n";
      if (!e.derive.empty()) out += "derive = " + quoted(e.derive) + "\nof = " + quoted(e.of) + "\n";
      if (e.value && std::isfinite(*e.value)) {
        // Whole values as integers, others as the shortest decimal that reads back the same (JSON's).
        const double v = *e.value;
        std::string s = nlohmann::json(v).dump();
        if (std::fabs(v) < 9007199254740992.0 && v == std::floor(v))
          s = nlohmann::json(static_cast<long long>(v)).dump();
        out += "value = " + s + "\n";
      }
    } else if (!e.reason.empty()) {
      out += "reason = " + quoted(e.reason) + "\n";
    }
    if (e.field.empty() && !e.candidates.empty()) {
      out += "candidates = [";
      for (std::size_t i = 0; i < e.candidates.size(); ++i) out += (i ? ", " : "") + quoted(e.candidates[i]);
      out += "]\n";
    }
    if (!e.waive.empty()) out += "waive = " + quoted(e.waive) + "\n";
  }
  return out;
}

NumbersLock read_numbers_lock(const std::filesystem::path& root, Diagnostics& diags) {
  NumbersLock lock;
  lock.path = root / "numbers.lock";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(lock.path, ec)) return lock;
  lock.present = true;
  const inputs::ReadResult read = inputs::read_bounded(lock.path, kMaxLockBytes);
  if (!read.ok()) {
    diags.error({lock.path, 1, 1}, "cannot read the lock: " + inputs::read_problem(read, kMaxLockBytes));
    return lock;
  }
  tomlfile::Parsed parsed = tomlfile::parse(read.bytes, lock.path);
  if (!parsed.error.empty()) {
    diags.error({lock.path, parsed.line, parsed.col}, parsed.error);
    return lock;
  }
  for (const auto& [key, node] : parsed.table) {
    if (key.str() != "number")
      diags.error({lock.path, static_cast<int>(node.source().begin.line),
                   static_cast<int>(node.source().begin.column)},
                  "unknown key `" + std::string(key.str()) + "` (the lock holds only [[number]] entries)");
  }
  const toml::array* numbers = parsed.table["number"].as_array();
  if (!numbers) return lock;
  for (const auto& item : *numbers) {
    const int line = static_cast<int>(item.source().begin.line);
    const toml::table* t = item.as_table();
    if (!t) {
      diags.error({lock.path, line, 1}, "each [[number]] is a table");
      continue;
    }
    LockEntry e;
    e.line = line;
    bool ok = true;
    auto str = [&](const char* key, std::string& out, bool required) {
      const toml::node* n = t->get(key);
      if (!n) {
        if (required) {
          diags.error({lock.path, line, 1}, std::string("a [[number]] needs `") + key + "`");
          ok = false;
        }
        return;
      }
      if (auto s = n->value<std::string>()) {
        out = *s;
        return;
      }
      diags.error({lock.path, static_cast<int>(n->source().begin.line), 1},
                  std::string("`") + key + "` must be a string");
      ok = false;
    };
    std::string at;
    str("file", e.file, true);
    str("at", at, true);
    str("field", e.field, false);
    str("reason", e.reason, false);
    str("waive", e.waive, false);
    str("derive", e.derive, false);
    str("of", e.of, false);
    // A field copied with its value from the candidates ("results/x.json#/a (= 148)") is the field.
    if (auto cut = e.field.find(" (="); cut != std::string::npos) e.field.resize(cut);
    if (const toml::node* v = t->get("value")) {
      if (auto d = v->value<double>())
        e.value = *d;
      else
        diags.error({lock.path, static_cast<int>(v->source().begin.line), 1}, "`value` must be a number");
    }
    if (const toml::node* c = t->get("candidates")) {
      if (const toml::array* list = c->as_array()) {
        for (const auto& x : *list)
          if (auto s = x.value<std::string>()) e.candidates.push_back(*s);
      } else {
        diags.error({lock.path, static_cast<int>(c->source().begin.line), 1},
                    "`candidates` must be a list of strings");
      }
    }
    for (const auto& [key, node] : *t) {
      static const char* known[] = {"file",  "at",     "field", "derive",    "of",
                                    "value", "reason", "waive", "candidates"};
      bool found = false;
      for (const char* k : known) found = found || key.str() == k;
      if (!found)
        diags.error({lock.path, static_cast<int>(node.source().begin.line), 1},
                    "unknown key `" + std::string(key.str()) + "` in a [[number]] (" + place_of(item) +
                        "): file, at, field, derive, of, value, candidates, reason, waive");
    }
    const auto open = at.find(kOpen);
    const auto close = open == std::string::npos ? std::string::npos : at.find(kClose, open);
    if (ok && close == std::string::npos) {
      diags.error({lock.path, line, 1}, "`at` must mark the number with \u27E6 and \u27E7: `" + at + "`");
      ok = false;
    }
    if (!ok) continue;
    e.before = at.substr(0, open);
    e.text = at.substr(open + 3, close - open - 3);
    e.after = at.substr(close + 3);
    auto bad_field = [](const std::string& f) {
      return f.find("#/") == std::string::npos || f.find("..") != std::string::npos || f.front() == '/' ||
             f.find('\\') != std::string::npos || f.find(".json#") == std::string::npos;
    };
    if (!e.field.empty() && bad_field(e.field)) {
      diags.error({lock.path, line, 1},
                  "`field` must be `results/<name>.json#/pointer` under calculations/: `" + e.field + "`");
      continue;
    }
    // A derivation names its operation and both fields, or nothing of it.
    if (!e.derive.empty() || !e.of.empty()) {
      std::string why;
      if (!derive_op(e.derive))
        why = "`derive` must be one of ratio, complement, difference, sum (got `" + e.derive + "`)";
      else if (e.field.empty() || e.of.empty())
        why = "a derived number needs both `field` and `of`";
      else if (bad_field(e.of))
        why = "`of` must be `results/<name>.json#/pointer` under calculations/: `" + e.of + "`";
      if (!why.empty()) {
        diags.error({lock.path, line, 1}, why);
        continue;
      }
    }
    lock.entries.push_back(std::move(e));
  }
  return lock;
}

}  // namespace bb::check
