// Python-compatible JSON writing and file reading for calc results (see json.hpp).
#include "calc/json.hpp"

#include <fstream>
#include <sstream>

#include "calc/error.hpp"
#include "calc/pynum.hpp"
#include "inputs/file_io.hpp"

namespace bb::calc {
namespace {

// Strings as Python's json.dumps(ensure_ascii=False) writes them, which is nlohmann-json's escaping.
void write_string(std::string& out, const std::string& s) {
  out += Json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
}

void write(std::string& out, const Json& v, int indent) {
  std::string pad(static_cast<size_t>(indent + 2), ' ');
  switch (v.type()) {
    case Json::value_t::object: {
      if (v.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      bool first = true;
      for (const auto& [key, item] : v.items()) {
        if (!first) out += ",\n";
        first = false;
        out += pad;
        write_string(out, key);
        out += ": ";
        write(out, item, indent + 2);
      }
      out += "\n" + std::string(static_cast<size_t>(indent), ' ') + "}";
      return;
    }
    case Json::value_t::array: {
      if (v.empty()) {
        out += "[]";
        return;
      }
      out += "[\n";
      bool first = true;
      for (const auto& item : v) {
        if (!first) out += ",\n";
        first = false;
        out += pad;
        write(out, item, indent + 2);
      }
      out += "\n" + std::string(static_cast<size_t>(indent), ' ') + "]";
      return;
    }
    default: out += dump_scalar(v);
  }
}

}  // namespace

std::string dump_scalar(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer: return std::to_string(v.get<std::int64_t>());
    case Json::value_t::number_unsigned: return std::to_string(v.get<std::uint64_t>());
    case Json::value_t::number_float: return py_repr(v.get<double>());
    case Json::value_t::string: {
      std::string out;
      write_string(out, v.get<std::string>());
      return out;
    }
    default: throw Error("not a JSON scalar");
  }
}

std::string dump_json(const Json& value) {
  std::string out;
  write(out, value, 0);
  out += "\n";
  return out;
}

Json read_json_file(const std::filesystem::path& path) {
  auto read = inputs::read_bounded(path, kMaxDataFileBytes);
  if (!read.ok()) throw Error(path.string() + ": " + inputs::read_problem(read, kMaxDataFileBytes));
  try {
    return Json::parse(read.bytes);
  } catch (const Json::parse_error& e) {
    throw Error(path.string() + ": invalid JSON: " + e.what());
  }
}

std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

}  // namespace bb::calc
