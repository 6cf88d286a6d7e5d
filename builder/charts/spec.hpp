// Chart specs: the TOML file behind `![caption](img/x.chart.toml)`, read into a Spec whose texts hold
// every edition's words and whose values are calc expressions or literals, each with its line.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "diag/diagnostics.hpp"

namespace bb::charts {

// A text in every edition: `"word"` (the same everywhere, e.g. a device name) or a table keyed by
// edition id or language tag (`{ zh = "带宽", en = "Bandwidth", ru = "Пропускная способность" }`).
struct Text {
  std::map<std::string, std::string> by_key;  // "" for a plain string
  SourceLoc loc;
  [[nodiscard]] bool empty() const { return by_key.empty(); }
};

// A number of the chart: a calc expression (a TOML string) or a literal (a TOML number).
struct Value {
  std::string expr;  // empty for a literal
  double literal = 0;
  double scale = 1;  // `expr * scale` written as {expr = "...", scale = 1e12}
  SourceLoc loc;
};

struct Axis {
  Text label;
  bool log = false;
  std::string format;  // a {{calc}} format for ticks and the data table: "fixed:0", "ms:1:bare"
  std::optional<double> min, max;
};

// A data series (bar, line, scatter), or a device of a roofline (x = bandwidth, y = peak).
struct Series {
  Text name;
  std::vector<Value> x, y;
  SourceLoc loc;
};

struct Point {  // an operating point on a roofline
  Text name;
  Value x;                 // arithmetic intensity
  std::optional<Value> y;  // attained rate; on the device's roof when absent
  std::size_t device = 0;
  SourceLoc loc;
};

struct Task {  // a bar of a timeline
  std::size_t lane = 0;
  std::vector<Value> start, end;  // each the sum of its values: `end = [start expr, duration expr]`
  Text label;
  std::string kind;  // a class: compute, comm, idle, ...
  SourceLoc loc;
};

enum class Type { Bar, Line, Scatter, Roofline, Timeline };

struct Spec {
  std::filesystem::path path;
  Type type = Type::Bar;
  bool stacked = false;
  int width = 640;
  int height = 360;
  int font_size = 12;
  Text title, desc;
  Axis x, y;
  std::vector<Text> categories;  // bar
  std::vector<Series> series;    // bar, line, scatter; roofline devices
  std::vector<Point> points;     // roofline
  std::vector<Text> lanes;       // timeline
  std::vector<Task> tasks;       // timeline
  std::string source;            // where literal data comes from
};

// Style rules the book keeps: a canvas that fits the page and the screen, labels large enough to read.
inline constexpr int kMinWidth = 320;
inline constexpr int kMaxWidth = 720;
inline constexpr int kMinFontSize = 10;

// Reads a spec. Every problem is an error at its line; nullopt when there was one.
std::optional<Spec> read_spec(const std::filesystem::path& file, Diagnostics& diags);
std::optional<Spec> parse_spec(std::string_view toml, const std::filesystem::path& file, Diagnostics& diags);

// The edition's word of a text: by edition id, then language tag, then the plain string; nullptr
// when the text has none for this edition.
const std::string* pick(const Text& text, const std::string& edition, const std::string& lang);

}  // namespace bb::charts
