// Reading chart specs with toml++: every key is known, every value has the type its key needs, and
// each problem is reported at its own line (all of them in one run).
#include "charts/spec.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"
#include "text/suggest.hpp"
#include "tomlfile/parse.hpp"

namespace bb::charts {

namespace {

class Reader {
 public:
  Reader(std::filesystem::path file, Diagnostics& diags) : file_(std::move(file)), diags_(diags) {}

  std::optional<Spec> read(const toml::table& root) {
    Spec s;
    s.path = file_;
    known(root, {"type", "stacked", "width", "height", "font-size", "title", "desc", "source", "x", "y",
                 "categories", "series", "device", "point", "lane", "task"});
    type(root, s);
    s.stacked = root["stacked"].value_or(false);
    s.width = integer(root, "width", s.width);
    s.height = integer(root, "height", s.height);
    s.font_size = integer(root, "font-size", s.font_size);
    s.source = root["source"].value_or(std::string());
    s.title = text(root, "title", true);
    s.desc = text(root, "desc", false);
    s.x = axis(root, "x");
    s.y = axis(root, "y");
    style(root, s);
    if (auto* a = root["categories"].as_array())
      for (auto& c : *a) s.categories.push_back(text_of(c, "categories"));
    for (const auto* t : tables(root, "series")) s.series.push_back(series(*t));
    for (const auto* t : tables(root, "device")) s.series.push_back(device(*t));
    for (const auto* t : tables(root, "point")) s.points.push_back(point(*t, s.series.size()));
    for (const auto* t : tables(root, "lane")) s.lanes.push_back(text(*t, "name", true));
    for (const auto* t : tables(root, "task")) s.tasks.push_back(task(*t, s.lanes.size()));
    literals(s);
    if (failed_) return std::nullopt;
    return s;
  }

 private:
  SourceLoc at(const toml::node& n) const {
    return {file_, static_cast<int>(n.source().begin.line), static_cast<int>(n.source().begin.column)};
  }
  SourceLoc at(const toml::table& t, std::string_view key) const {
    const toml::node* n = t.get(key);
    return n ? at(*n) : at(t);
  }
  void error(SourceLoc loc, std::string message) {
    failed_ = true;
    diags_.error(std::move(loc), std::move(message));
  }

  void known(const toml::table& t, std::set<std::string_view> keys) {
    for (auto&& [k, v] : t)
      if (!keys.count(k.str()))
        error(at(v), "unknown key `" + std::string(k.str()) + "` in a chart spec" +
                         text::did_you_mean(k.str(), {keys.begin(), keys.end()}));
  }

  void type(const toml::table& root, Spec& s) {
    static const std::map<std::string, Type> types = {{"bar", Type::Bar},
                                                      {"line", Type::Line},
                                                      {"scatter", Type::Scatter},
                                                      {"roofline", Type::Roofline},
                                                      {"timeline", Type::Timeline}};
    std::string name = root["type"].value_or(std::string());
    auto it = types.find(name);
    if (it == types.end()) {
      error(at(root, "type"),
            "chart `type` must be bar, line, scatter, roofline or timeline, not `" + name + "`");
      return;
    }
    s.type = it->second;
  }

  int integer(const toml::table& t, std::string_view key, int fallback) {
    const toml::node* n = t.get(key);
    if (!n) return fallback;
    auto v = n->value<std::int64_t>();
    if (!v || *v <= 0 || *v > 10000) {
      error(at(*n), "`" + std::string(key) + "` must be a positive whole number");
      return fallback;
    }
    return static_cast<int>(*v);
  }

  // The style rules (spec.hpp): checked where the author wrote the number.
  void style(const toml::table& root, const Spec& s) {
    if (s.width < kMinWidth || s.width > kMaxWidth)
      error(at(root, "width"), "chart width " + std::to_string(s.width) + " is outside " +
                                   std::to_string(kMinWidth) + "–" + std::to_string(kMaxWidth) +
                                   " px: it would not fit the page or the screen");
    if (s.height < 160 || s.height > 900) error(at(root, "height"), "chart height must be 160–900 px");
    if (s.font_size < kMinFontSize)
      error(at(root, "font-size"), "chart font size " + std::to_string(s.font_size) +
                                       " is below the minimum of " + std::to_string(kMinFontSize) + " px");
  }

  Text text_of(const toml::node& n, std::string_view key) {
    Text t;
    t.loc = at(n);
    if (auto s = n.value<std::string>()) {
      t.by_key[""] = *s;
    } else if (auto* tbl = n.as_table()) {
      for (auto&& [k, v] : *tbl) {
        if (auto s = v.value<std::string>())
          t.by_key[std::string(k.str())] = *s;
        else
          error(at(v), "`" + std::string(key) + "." + std::string(k.str()) + "` must be a string");
      }
    } else {
      error(at(n), "`" + std::string(key) + "` must be a string or a table of strings by edition");
    }
    return t;
  }

  Text text(const toml::table& t, std::string_view key, bool required) {
    const toml::node* n = t.get(key);
    if (!n) {
      if (required) error(at(t), "missing `" + std::string(key) + "`");
      return Text{{}, at(t)};
    }
    return text_of(*n, key);
  }

  Axis axis(const toml::table& root, std::string_view key) {
    Axis a;
    const toml::table* t = root[key].as_table();
    if (!t) return a;
    known(*t, {"label", "scale", "format", "min", "max"});
    a.label = text(*t, "label", false);
    std::string scale = (*t)["scale"].value_or(std::string("linear"));
    if (scale != "linear" && scale != "log") error(at(*t, "scale"), "axis `scale` must be linear or log");
    a.log = scale == "log";
    a.format = (*t)["format"].value_or(std::string());
    if (auto v = (*t)["min"].value<double>()) a.min = *v;
    if (auto v = (*t)["max"].value<double>()) a.max = *v;
    return a;
  }

  Value value_of(const toml::node& n) {
    Value v;
    v.loc = at(n);
    if (auto s = n.value<std::string>()) {
      v.expr = *s;
    } else if (auto d = n.value<double>()) {
      v.literal = *d;
    } else if (auto* t = n.as_table()) {
      v.expr = (*t)["expr"].value_or(std::string());
      v.scale = (*t)["scale"].value_or(1.0);
      if (v.expr.empty()) error(at(n), "a value table needs `expr` (and optionally `scale`)");
    } else {
      error(at(n), "a chart value must be a calc expression (a string) or a number");
    }
    return v;
  }

  std::vector<Value> values(const toml::table& t, std::string_view key) {
    std::vector<Value> out;
    if (const toml::node* n = t.get(key)) {
      if (auto* a = n->as_array())
        for (auto& x : *a) out.push_back(value_of(x));
      else
        out.push_back(value_of(*n));
    }
    return out;
  }

  std::vector<const toml::table*> tables(const toml::table& root, std::string_view key) {
    std::vector<const toml::table*> out;
    const toml::node* n = root.get(key);
    if (!n) return out;
    const toml::array* a = n->as_array();
    if (!a) {
      error(at(*n), "`" + std::string(key) + "` must be written as [[" + std::string(key) + "]] tables");
      return out;
    }
    for (auto& x : *a) {
      if (auto* t = x.as_table())
        out.push_back(t);
      else
        error(at(x), "`" + std::string(key) + "` must be written as [[" + std::string(key) + "]] tables");
    }
    return out;
  }

  Series series(const toml::table& t) {
    known(t, {"name", "x", "y", "values"});
    Series s{text(t, "name", true), values(t, "x"), values(t, "y"), at(t)};
    if (t.contains("values")) s.y = values(t, "values");
    return s;
  }

  Series device(const toml::table& t) {
    known(t, {"name", "bandwidth", "peak"});
    Series s{text(t, "name", true), values(t, "bandwidth"), values(t, "peak"), at(t)};
    if (s.x.size() != 1 || s.y.size() != 1) error(at(t), "a [[device]] needs one `bandwidth` and one `peak`");
    return s;
  }

  std::size_t index(const toml::table& t, std::string_view key, std::size_t count, std::string_view what) {
    auto v = t[key].value<std::int64_t>();
    if (!v || *v < 0 || static_cast<std::size_t>(*v) >= count) {
      error(at(t, key), "`" + std::string(key) + "` must be the index (from 0) of one of the " +
                            std::to_string(count) + " " + std::string(what) + " declared before it");
      return 0;
    }
    return static_cast<std::size_t>(*v);
  }

  Point point(const toml::table& t, std::size_t devices) {
    known(t, {"name", "x", "y", "device"});
    Point p;
    p.name = text(t, "name", true);
    p.loc = at(t);
    p.device = index(t, "device", devices, "[[device]] tables");
    if (const toml::node* x = t.get("x"))
      p.x = value_of(*x);
    else
      error(at(t), "a [[point]] needs `x` (its arithmetic intensity)");
    if (const toml::node* y = t.get("y")) p.y = value_of(*y);
    return p;
  }

  Task task(const toml::table& t, std::size_t lanes) {
    known(t, {"lane", "start", "end", "label", "kind"});
    Task k;
    k.loc = at(t);
    k.lane = index(t, "lane", lanes, "[[lane]] tables");
    k.start = values(t, "start");
    k.end = values(t, "end");
    if (k.start.empty() || k.end.empty()) error(at(t), "a [[task]] needs `start` and `end`");
    k.label = text(t, "label", false);
    k.kind = t["kind"].value_or(std::string("compute"));
    return k;
  }

  // A literal number needs a `source`: a chart drawn from untraced numbers is what the book avoids.
  void literals(const Spec& s) {
    if (!s.source.empty()) return;
    auto check = [&](const Value& v) {
      if (v.expr.empty() && v.literal != 0)  // a zero (a timeline's start) states no fact
        error(v.loc,
              "literal number in a chart spec without `source = \"...\"`: write a calc expression, "
              "or say where the number comes from");
    };
    for (const auto& x : s.series) {
      for (const auto& v : x.x) check(v);
      for (const auto& v : x.y) check(v);
    }
    for (const auto& p : s.points) {
      check(p.x);
      if (p.y) check(*p.y);
    }
    for (const auto& t : s.tasks) {
      for (const auto& v : t.start) check(v);
      for (const auto& v : t.end) check(v);
    }
  }

  std::filesystem::path file_;
  Diagnostics& diags_;
  bool failed_ = false;
};

}  // namespace

std::optional<Spec> parse_spec(std::string_view text, const std::filesystem::path& file, Diagnostics& diags) {
  auto parsed = tomlfile::parse(text, file);
  if (!parsed.error.empty()) {
    diags.error({file, parsed.line, parsed.col}, parsed.error);
    return std::nullopt;
  }
  const toml::table& root = parsed.table;
  return Reader(file, diags).read(root);
}

std::optional<Spec> read_spec(const std::filesystem::path& file, Diagnostics& diags) {
  inputs::note_file(file);
  // A spec is a page of settings and data: 1 MiB is far more than any needs.
  constexpr std::size_t kMaxSpecBytes = std::size_t{1} << 20;
  auto read = inputs::read_bounded(file, kMaxSpecBytes);
  if (!read.ok()) {
    diags.error({file, 0, 0}, "cannot read chart spec `" + file.string() +
                                  "`: " + inputs::read_problem(read, kMaxSpecBytes));
    return std::nullopt;
  }
  return parse_spec(read.bytes, file, diags);
}

const std::string* pick(const Text& text, const std::string& edition, const std::string& lang) {
  for (const std::string* key : {&edition, &lang}) {
    auto it = text.by_key.find(*key);
    if (it != text.by_key.end()) return &it->second;
  }
  auto it = text.by_key.find("");
  return it == text.by_key.end() ? nullptr : &it->second;
}

}  // namespace bb::charts
