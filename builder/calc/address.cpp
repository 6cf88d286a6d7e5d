// Keyed addressing into results and catalogue records (see address.hpp).
#include "calc/address.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "calc/error.hpp"
#include "calc/trim.hpp"
#include "text/suggest.hpp"

namespace bb::calc {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string keys_of(const Json& obj) {
  std::string s;
  for (const auto& [k, v] : obj.items()) s += (s.empty() ? "" : ", ") + k;
  return s;
}

bool all_digits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A scalar as it is matched against a selector: strings as they are, numbers and flags as JSON prints them.
std::string scalar_text(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_primitive()) return v.dump();
  return {};
}

// The fields that name an item of a list, in the order a selector `[v]` tries them.
constexpr const char* kNameFields[] = {"id", "name", "variant", "phase"};
// Numbered items (cards, ranks) are named by their own number field: `cards[card=0]`.
constexpr const char* kNumberFields[] = {"card", "rank", "step"};

std::string peak_key(const Json& row) {
  return row.value("input_precision", "?") + ", " + row.value("accumulator_precision", "?") + ", " +
         row.value("execution_unit", "?") + ", " + row.value("sparsity", "?");
}

// The keyed spelling of `item` in the list `list` (for the hint that replaces a numeric index).
std::string keyed_form(const std::string& list, const Json& item) {
  if (!item.is_object()) return {};
  if (list == "peak_rates") return "peak(" + peak_key(item) + ")";
  for (const char* f : kNameFields)
    if (item.contains(f) && item[f].is_string()) {
      std::string v = item[f].get<std::string>();
      if (list == "devices" && std::string(f) == "id") return "hardware(" + v + ")";
      return list + "[" + v + "]";
    }
  for (const char* f : kNumberFields)
    if (item.contains(f) && item[f].is_primitive())
      return list + "[" + std::string(f) + "=" + scalar_text(item[f]) + "]";
  return {};
}

// The items of `list` matching a selector: `field=value`, or a bare value tried against the name fields.
std::vector<const Json*> select(const Json& list, const std::string& selector) {
  std::vector<const Json*> found;
  auto eq = selector.find('=');
  for (const auto& item : list) {
    if (!item.is_object()) continue;
    if (eq != std::string::npos) {
      std::string field = trim(selector.substr(0, eq)), want = trim(selector.substr(eq + 1));
      if (item.contains(field) && scalar_text(item[field]) == want) found.push_back(&item);
      continue;
    }
    for (const char* f : kNameFields)
      if (item.contains(f) && item[f].is_string() && item[f].get<std::string>() == selector) {
        found.push_back(&item);
        break;
      }
  }
  return found;
}

const Json& select_one(const Json& list, const std::string& selector, const std::string& where) {
  auto found = select(list, selector);
  if (found.size() == 1) return *found.front();
  std::string names;
  for (const auto& item : list) {
    std::string k = keyed_form("", item);
    if (!k.empty()) names += (names.empty() ? "" : ", ") + k.substr(k.find('[') == std::string::npos ? 0 : 1);
    if (names.size() > 400) {
      names += ", ...";
      break;
    }
  }
  if (found.empty())
    throw Error(where + " has no item [" + selector + "]" + (names.empty() ? "" : " (items: " + names + ")"));
  throw Error(where + " has " + std::to_string(found.size()) + " items matching [" + selector +
              "]; name one with a field that is unique, e.g. [field=value]");
}

// `peak(BF16, FP32, tensor, dense)`: precisions fill input then accumulator; a unit word and a
// sparsity word may stand anywhere; `input=`, `accumulator=`, `unit=`, `sparsity=` name a field.
const Json& select_peak(const Json& device, const std::string& args, const std::string& where,
                        std::string& key) {
  if (!device.is_object() || !device.contains("peak_rates") || !device["peak_rates"].is_array())
    throw Error(where + " is not a device record: peak(...) applies to hardware(<device>)");
  std::map<std::string, std::string> want;
  std::vector<std::string> precisions;
  size_t pos = 0;
  while (pos <= args.size()) {
    size_t comma = args.find(',', pos);
    std::string part = trim(args.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    pos = comma == std::string::npos ? args.size() + 1 : comma + 1;
    if (part.empty()) continue;
    std::string low = lower(part);
    if (auto eq = low.find('='); eq != std::string::npos) {
      std::string field = trim(low.substr(0, eq)), value = trim(low.substr(eq + 1));
      static const std::map<std::string, std::string> fields{{"input", "input_precision"},
                                                             {"accumulator", "accumulator_precision"},
                                                             {"unit", "execution_unit"},
                                                             {"sparsity", "sparsity"}};
      auto it = fields.find(field);
      if (it == fields.end())
        throw Error("peak(): unknown field '" + field + "' (input, accumulator, unit, sparsity)");
      want[it->second] = value;
    } else if (low == "tensor" || low == "vector" || low == "cube") {
      want["execution_unit"] = low;
    } else if (low == "dense" || low == "structured" || low == "unspecified") {
      want["sparsity"] = low;
    } else {
      precisions.push_back(low);
    }
  }
  if (precisions.size() > 2) throw Error("peak(): at most two precisions (input, accumulator)");
  if (!precisions.empty()) want["input_precision"] = precisions[0];
  if (precisions.size() > 1) want["accumulator_precision"] = precisions[1];
  if (want.empty()) throw Error("peak() needs at least a precision, e.g. peak(BF16, FP32, tensor, dense)");
  std::vector<const Json*> found;
  std::string all;
  for (const auto& row : device["peak_rates"]) {
    all += (all.empty() ? "" : "; ") + peak_key(row);
    bool ok = true;
    for (const auto& [field, value] : want) ok = ok && lower(row.value(field, "")) == value;
    if (ok) found.push_back(&row);
  }
  if (found.size() != 1)
    throw Error(where + ".peak(" + args + ") matches " + std::to_string(found.size()) +
                " peak rows; name input, accumulator, unit and sparsity so that exactly one matches (rows: " +
                all + ")");
  key = "peak(" + peak_key(*found.front()) + ")";
  return *found.front();
}

}  // namespace

std::vector<std::string> split_address(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == '.' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(trim(cur));
  return out;
}

const Json& follow_address(const Json& root, const std::vector<std::string>& segments,
                           const std::string& prefix, std::string& path) {
  const Json* cur = &root;
  path = prefix;
  std::string last_field;
  for (size_t i = 0; i < segments.size(); ++i) {
    std::string seg = segments[i];
    if (seg.empty()) throw Error("empty field name in '" + prefix + "'");
    if (seg.starts_with("peak(") && seg.back() == ')') {
      std::string key;
      cur = &select_peak(*cur, seg.substr(5, seg.size() - 6), path, key);
      path += "." + key;
      if (i + 1 == segments.size()) {
        cur = &(*cur)["tera_ops_per_second"];
        path += ".tera_ops_per_second";
      }
      last_field.clear();
      continue;
    }
    std::string selector;
    bool has_selector = false;
    if (auto open = seg.find('['); open != std::string::npos) {
      if (seg.back() != ']') throw Error("unclosed '[' in '" + seg + "'");
      selector = trim(seg.substr(open + 1, seg.size() - open - 2));
      seg = seg.substr(0, open);
      has_selector = true;
      if (selector.empty()) throw Error("empty selector [] after '" + seg + "'");
    }
    if (cur->is_array()) {
      // A bare segment after a list names an item.
      if (all_digits(seg)) {
        size_t idx = std::stoul(seg);
        std::string hint = idx < cur->size() ? keyed_form(last_field, (*cur)[idx]) : "";
        throw Error(
            path + "." + seg +
            " addresses a list item by position, which silently changes meaning when the list is reordered" +
            (hint.empty() ? "; address it by a key instead" : "; write `" + hint + "` instead"));
      }
      cur = &select_one(*cur, seg, path);
      path += "[" + seg + "]";
    } else if (cur->is_object()) {
      auto it = cur->find(seg);
      if (it == cur->end()) {
        // The summary is implied when the first field is not at the top level.
        if (i == 0 && cur->contains("summary") && (*cur)["summary"].contains(seg)) {
          cur = &(*cur)["summary"];
          path += ".summary";
          it = cur->find(seg);
        } else {
          // With the summary's fields too when it is implied: `x.matrix_flop` may mean summary.matrix_flops.
          std::vector<std::string> fields;
          for (const auto& [k, v] : cur->items()) fields.push_back(k);
          if (i == 0 && cur->contains("summary") && (*cur)["summary"].is_object())
            for (const auto& [k, v] : (*cur)["summary"].items()) fields.push_back(k);
          throw Error(path + " has no field '" + seg + "'" + text::did_you_mean(seg, fields) +
                      " (fields: " + keys_of(*cur) + ")");
        }
      }
      cur = &*it;
      path += "." + seg;
      last_field = seg;
    } else {
      throw Error(path + " is a single value; it has no field '" + seg + "'");
    }
    if (has_selector) {
      if (!cur->is_array()) throw Error(path + " is not a list; [" + selector + "] selects list items");
      if (all_digits(selector)) {
        size_t idx = std::stoul(selector);
        std::string hint = idx < cur->size() ? keyed_form(last_field, (*cur)[idx]) : "";
        throw Error(path + "[" + selector + "] addresses a list item by position; " +
                    (hint.empty() ? "address it by a key instead" : "write `" + hint + "` instead"));
      }
      cur = &select_one(*cur, selector, path);
      path += "[" + selector + "]";
    }
  }
  return *cur;
}

}  // namespace bb::calc
