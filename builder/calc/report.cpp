// Markdown and CSV writers for calc results (see report.hpp).
#include "calc/report.hpp"

#include <algorithm>
#include <cctype>

#include "calc/error.hpp"

namespace bb::calc {
namespace {

std::string cell(const Json& v);

std::string inline_json(const Json& v) {
  if (v.is_array()) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + inline_json(v[i]);
    return s + "]";
  }
  if (v.is_object()) {
    std::string s = "{";
    bool first = true;
    for (const auto& [k, x] : v.items()) {
      s += (first ? "" : ", ") + k + ": " + inline_json(x);
      first = false;
    }
    return s + "}";
  }
  return v.is_string() ? v.get<std::string>() : dump_scalar(v);
}

std::string cell(const Json& v) {
  std::string s = inline_json(v);
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

void flatten(const Json& obj, const std::string& prefix, std::string& out) {
  for (const auto& [k, v] : obj.items()) {
    std::string key = prefix.empty() ? k : prefix + "." + k;
    if (v.is_object() && !v.empty()) {
      flatten(v, key, out);
    } else {
      out += "| " + key + " | " + cell(v) + " |\n";
    }
  }
}

void key_value_table(const std::string& title, const Json& obj, std::string& out) {
  out += "\n## " + title + "\n\n| field | value |\n| --- | --- |\n";
  flatten(obj, "", out);
}

void record_table(const std::string& title, const Json& rows, std::vector<std::string> columns,
                  std::string& out) {
  if (columns.empty())
    for (const auto& [k, v] : rows[0].items()) columns.push_back(k);
  out += "\n## " + title + "\n\n|";
  for (const auto& c : columns) out += " " + c + " |";
  out += "\n|";
  for (size_t i = 0; i < columns.size(); ++i) out += " --- |";
  out += "\n";
  for (const auto& row : rows) {
    out += "|";
    for (const auto& c : columns) out += " " + (row.contains(c) ? cell(row[c]) : std::string()) + " |";
    out += "\n";
  }
}

std::string title_of(const std::string& key) {
  std::string t = key;
  for (char& c : t)
    if (c == '_') c = ' ';
  if (!t.empty()) t[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(t[0])));
  return t;
}

std::string hardware_markdown(const Json& doc) {
  std::string out = "# Hardware catalog\n\n";
  out +=
      "| id | name | scope | capacity (GB) | bandwidth (B/s) | BF16/FP32 tensor dense (TFLOPS) | peak rows "
      "|\n";
  out += "| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const auto& d : doc["devices"]) {
    std::string bf16 = "null";
    for (const auto& p : d.value("peak_rates", Json::array()))
      if (p.value("input_precision", "") == "BF16" && p.value("accumulator_precision", "") == "FP32" &&
          p.value("execution_unit", "") == "tensor" && p.value("sparsity", "") == "dense")
        bf16 = cell(p["tera_ops_per_second"]);
    const Json& mem = d.value("memory", Json::object());
    out += "| " + d.value("id", "") + " | " + d.value("name", "") + " | " + d.value("spec_scope", "") +
           " | " + cell(mem.value("nominal_capacity", Json())) + " | " +
           cell(mem.value("bandwidth_bytes_per_second", Json())) + " | " + bf16 + " | " +
           std::to_string(d.value("peak_rates", Json::array()).size()) + " |\n";
  }
  return out;
}

}  // namespace

std::string render_markdown(const Json& doc) {
  if (!doc.contains("calculation") && doc.contains("devices")) return hardware_markdown(doc);
  std::string out = "# " + doc.value("calculation", "result");
  if (doc.contains("model")) out += ": " + doc["model"].get<std::string>();
  out += "\n";
  if (doc.contains("scenario")) key_value_table("Scenario", doc["scenario"], out);
  if (doc.contains("summary")) key_value_table("Summary", doc["summary"], out);
  if (doc.contains("operators") && !doc["operators"].empty())
    record_table("Operators (per occurrence; total = value x repeats)", doc["operators"],
                 {"name", "category", "repeats", "matrix_flops", "scalar_flops", "special_ops",
                  "weight_read_bytes", "activation_read_bytes", "activation_write_bytes"},
                 out);
  if (doc.contains("weights") && !doc["weights"].empty())
    record_table("Weights", doc["weights"], {"name", "shape", "copies", "parameters", "resident_bytes"}, out);
  if (doc.contains("selected_peak") && doc["selected_peak"].is_object()) {
    Json peak = Json::object();
    for (const char* k : {"input_precision", "accumulator_precision", "execution_unit", "sparsity",
                          "tera_ops_per_second", "source_id", "locator", "reported", "derivation"})
      if (doc["selected_peak"].contains(k)) peak[k] = doc["selected_peak"][k];
    key_value_table("Selected peak", peak, out);
  }
  static const std::vector<std::string> skip = {"schema_version", "calculation", "model",   "scenario",
                                                "summary",        "operators",   "weights", "selected_peak",
                                                "assumptions",    "sources"};
  for (const auto& [key, v] : doc.items()) {
    bool skipped = false;
    for (const auto& s : skip) skipped = skipped || s == key;
    if (skipped) continue;
    if (v.is_array() && !v.empty() && v[0].is_object()) {
      record_table(title_of(key), v, {}, out);
    } else if (v.is_object() && !v.empty()) {
      key_value_table(title_of(key), v, out);
    } else if (!v.is_null()) {
      out += "\n## " + title_of(key) + "\n\n" + cell(v) + "\n";
    }
  }
  if (doc.contains("assumptions")) {
    out += "\n## Assumptions\n\n";
    for (const auto& a : doc["assumptions"]) out += "- " + cell(a) + "\n";
  }
  if (doc.contains("sources") && !doc["sources"].empty()) {
    out += "\n## Sources\n\n";
    for (const auto& s : doc["sources"])
      out += "- " + cell(s.value("file", Json())) + " (" + cell(s.value("url", Json())) + ", revision " +
             cell(s.value("revision", Json())) + ")\n";
  }
  return out;
}

std::string render_csv(const Json& doc) {
  if (!doc.contains("operators"))
    throw Error("CSV output is available only for results with operators (forward)");
  std::string out =
      "layer,name,category,matrix_flops,scalar_flops,special_ops,weight_read_bytes,activation_read_bytes,"
      "activation_write_bytes\n";
  auto row = [&](const Json& op, const std::string& layer) {
    std::string special;
    for (const auto& [k, v] : op["special_ops"].items())
      special += (special.empty() ? "" : ";") + k + "=" + dump_scalar(v);
    out += layer + "," + op["name"].get<std::string>() + "," + op["category"].get<std::string>() + "," +
           dump_scalar(op["matrix_flops"]) + "," + dump_scalar(op["scalar_flops"]) + "," + special + "," +
           dump_scalar(op["weight_read_bytes"]) + "," + dump_scalar(op["activation_read_bytes"]) + "," +
           dump_scalar(op["activation_write_bytes"]) + "\n";
  };
  // Operators before the first per-layer one run once at the start; the per-layer block repeats.
  const Json& ops = doc["operators"];
  std::int64_t layers = 1;
  for (const auto& op : ops) layers = std::max(layers, op["repeats"].get<std::int64_t>());
  size_t i = 0;
  for (; i < ops.size() && ops[i]["repeats"].get<std::int64_t>() == 1; ++i) row(ops[i], "");
  size_t block_end = i;
  while (block_end < ops.size() && ops[block_end]["repeats"].get<std::int64_t>() > 1) ++block_end;
  for (std::int64_t layer = 0; layer < layers && i < block_end; ++layer)
    for (size_t j = i; j < block_end; ++j) {
      if (ops[j]["repeats"].get<std::int64_t>() != layers) throw Error("operators with mixed repeat counts");
      row(ops[j], std::to_string(layer));
    }
  for (size_t j = block_end; j < ops.size(); ++j) row(ops[j], "");
  return out;
}

}  // namespace bb::calc
