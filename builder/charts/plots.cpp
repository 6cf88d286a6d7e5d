// The chart types over the shared canvas (frame.hpp): bar (grouped or stacked), line and scatter
// (linear or log axes), roofline (bandwidth slopes, compute ceilings, ridge points, operating points)
// and timeline (lanes of tasks: pipeline stages, compute against communication).
#include "charts/plots.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "lang/language.hpp"

namespace bb::charts {

namespace {

// The data table's first column header: the x axis's label, or the language's word for it when the
// axis has none (a header cell left empty is one a screen reader cannot announce).
std::string first_header(Canvas& c, const Text& label) {
  std::string h = c.say(label);
  return h.empty() ? lang::language(c.env.lang).word("chart.category") : h;
}

std::string series_class(std::size_t i) {
  return "s" + std::to_string(i % 8);
}

std::vector<std::pair<std::string, Text>> legend_of(const std::vector<Series>& series) {
  std::vector<std::pair<std::string, Text>> out;
  for (std::size_t i = 0; i < series.size(); ++i) out.emplace_back(series_class(i), series[i].name);
  return out;
}

struct Range {
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  [[nodiscard]] bool empty() const { return lo > hi; }
};

}  // namespace

void draw_bar(Canvas& c) {
  const Spec& s = c.spec;
  std::vector<std::vector<double>> v(s.series.size());
  Range r;
  r.add(0);
  bool shaped = true;
  for (std::size_t k = 0; k < s.series.size(); ++k) {
    if (s.series[k].y.size() != s.categories.size()) {
      c.error(s.series[k].loc, "series has " + std::to_string(s.series[k].y.size()) + " values for " +
                                   std::to_string(s.categories.size()) + " categories");
      shaped = false;
    }
    for (const auto& x : s.series[k].y) v[k].push_back(c.value(x));
  }
  // A value that could not be computed is drawn as 0, so that the layout's problems are reported too.
  if (!shaped) return;
  for (std::size_t i = 0; i < s.categories.size(); ++i) {
    double sum = 0;
    for (auto& vals : v) {
      sum += vals[i];
      r.add(s.stacked ? sum : vals[i]);
    }
  }
  c.title(s.title);
  c.legend(legend_of(s.series));
  Axis xa;
  Scale x = make_scale(0, 1, xa);
  Scale y = make_scale(r.lo, r.hi, s.y);
  c.frame(x, y);
  c.axes(x, y, false);
  const double band = (c.right - c.left) / static_cast<double>(std::max<std::size_t>(1, s.categories.size()));
  const double groups = s.stacked ? 1.0 : static_cast<double>(std::max<std::size_t>(1, s.series.size()));
  const double bar = band * 0.7 / groups;
  c.table.header.push_back(first_header(c, s.x.label));
  for (const auto& ser : s.series) c.table.header.push_back(c.say(ser.name));
  for (std::size_t i = 0; i < s.categories.size(); ++i) {
    std::string name = c.say(s.categories[i]);
    double x0 = c.left + band * static_cast<double>(i) + band * 0.15;
    c.fits(name, c.fs, band - 4, s.categories[i].loc, "category label");
    c.svg.text(x0 + band * 0.35, c.bottom + c.fs + 4, name, "tick", "middle");
    double base = 0;
    std::vector<std::string> row{name};
    for (std::size_t k = 0; k < v.size(); ++k) {
      double val = v[k][i];
      double lo = s.stacked ? base : 0, hi = lo + val;
      double bx = s.stacked ? x0 : x0 + bar * static_cast<double>(k);
      std::string shown = c.format(val, s.y);
      c.svg.rect(bx, y(hi), bar, y(lo) - y(hi), series_class(k), c.say(s.series[k].name) + ": " + shown);
      base = hi;
      row.push_back(shown);
    }
    c.table.rows.push_back(std::move(row));
  }
}

void draw_xy(Canvas& c, bool lines) {
  const Spec& s = c.spec;
  std::vector<std::vector<std::pair<double, double>>> data(s.series.size());
  Range rx, ry;
  for (std::size_t k = 0; k < s.series.size(); ++k) {
    const Series& ser = s.series[k];
    if (ser.x.size() != ser.y.size())
      c.error(ser.loc, "series has " + std::to_string(ser.x.size()) + " x values and " +
                           std::to_string(ser.y.size()) + " y values");
    for (std::size_t i = 0; i < std::min(ser.x.size(), ser.y.size()); ++i) {
      double a = c.value(ser.x[i]), b = c.value(ser.y[i]);
      if ((s.x.log && a <= 0) || (s.y.log && b <= 0))
        c.error(ser.y[i].loc, "a value on a log axis must be > 0");
      data[k].emplace_back(a, b);
      rx.add(a);
      ry.add(b);
    }
  }
  if (c.failed() || rx.empty()) return;
  if (!s.y.log) ry.add(0);
  c.title(s.title);
  c.legend(legend_of(s.series));
  Scale x = make_scale(rx.lo, rx.hi, s.x);
  Scale y = make_scale(ry.lo, ry.hi, s.y);
  c.frame(x, y);
  c.axes(x, y);
  c.table.header = {first_header(c, s.x.label)};
  for (const auto& ser : s.series) c.table.header.push_back(c.say(ser.name));
  for (std::size_t k = 0; k < data.size(); ++k) {
    std::vector<std::pair<double, double>> px;
    std::string name = c.say(s.series[k].name);
    for (auto [a, b] : data[k]) {
      px.emplace_back(x(a), y(b));
      std::vector<std::string> row(s.series.size() + 1);
      row[0] = c.format(a, s.x);
      row[k + 1] = c.format(b, s.y);
      c.table.rows.push_back(std::move(row));
    }
    if (lines) c.svg.polyline(px, "line " + series_class(k));
    for (std::size_t i = 0; i < px.size(); ++i)
      c.svg.circle(px[i].first, px[i].second, lines ? 3 : 4, series_class(k),
                   name + ": " + c.table.rows[c.table.rows.size() - px.size() + i][0] + ", " +
                       c.table.rows[c.table.rows.size() - px.size() + i][k + 1]);
  }
}

void draw_roofline(Canvas& c) {
  const Spec& s = c.spec;
  const lang::Language& words = lang::language(c.env.lang);
  struct Device {
    double bw, peak;
  };
  std::vector<Device> dev;
  Range rx, ry;
  for (const auto& d : s.series) {
    Device x{c.value(d.x.at(0)), c.value(d.y.at(0))};
    if (x.bw <= 0 || x.peak <= 0) c.error(d.loc, "a device needs a bandwidth and a peak above 0");
    dev.push_back(x);
    rx.add(x.peak / std::max(x.bw, 1e-300));
    ry.add(x.peak);
  }
  std::vector<std::pair<double, double>> pts;
  for (const auto& p : s.points) {
    double px = c.value(p.x);
    const Device& d = dev.at(p.device);
    double py = p.y ? c.value(*p.y) : std::min(d.peak, d.bw * px);
    if (px <= 0 || py <= 0) c.error(p.loc, "an operating point needs an intensity and a rate above 0");
    pts.emplace_back(px, py);
    rx.add(px);
    ry.add(py);
  }
  if (c.failed() || dev.empty()) return;
  Axis xa = s.x, ya = s.y;
  xa.log = ya.log = true;
  Scale x = make_scale(rx.lo / 4, rx.hi * 4, xa);
  double floor_rate = ry.hi;
  for (const auto& d : dev) floor_rate = std::min(floor_rate, d.bw * x.lo);
  for (auto& p : pts) floor_rate = std::min(floor_rate, p.second);
  Scale y = make_scale(floor_rate, ry.hi * 2, ya);
  c.title(s.title);
  c.legend(legend_of(s.series));
  c.frame(x, y);
  c.axes(x, y);
  c.table.header = {words.word("chart.device"), words.word("chart.bandwidth"), words.word("chart.peak"),
                    words.word("chart.ridge")};
  for (std::size_t k = 0; k < dev.size(); ++k) {
    const Device& d = dev[k];
    double ridge = d.peak / d.bw;
    std::vector<std::pair<double, double>> roof;
    double x0 = std::max(x.lo, y.lo / d.bw);
    roof.emplace_back(x(x0), y(d.bw * x0));
    if (ridge < x.hi) roof.emplace_back(x(ridge), y(d.peak));
    roof.emplace_back(x(x.hi), y(std::min(d.peak, d.bw * x.hi)));
    c.svg.polyline(roof, "line " + series_class(k));
    c.svg.line(x(ridge), y(d.peak), x(ridge), c.bottom, "guide");
    std::string name = c.say(s.series[k].name);
    std::string ridge_text = c.format(ridge, s.x);
    c.svg.circle(x(ridge), y(d.peak), 3.5, series_class(k),
                 name + ": " + words.word("chart.ridge") + " " + ridge_text);
    c.table.rows.push_back(
        {name, c.format(d.bw, Axis{{}, false, "TB/s:2", {}, {}}), c.format(d.peak, s.y), ridge_text});
  }
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const Point& p = s.points[i];
    std::string name = c.say(p.name);
    double px = x(pts[i].first), py = y(pts[i].second);
    c.svg.circle(px, py, 4.5, "point " + series_class(p.device));
    double w = c.width(name, c.fs);
    bool right_side = px + 8 + w <= c.right;
    if (!right_side) c.fits(name, c.fs, px - 8 - c.left, p.name.loc, "operating point label");
    c.svg.text(right_side ? px + 8 : px - 8, py + c.fs + 2, name, "point-label",
               right_side ? "start" : "end");
    c.table.rows.push_back({name + " (" + words.word("chart.point") + ")", "", c.format(pts[i].second, s.y),
                            c.format(pts[i].first, s.x)});
  }
}

void draw_timeline(Canvas& c) {
  const Spec& s = c.spec;
  const lang::Language& words = lang::language(c.env.lang);
  Range r;
  r.add(0);
  std::vector<std::pair<double, double>> span;
  for (const auto& t : s.tasks) {
    double a = 0, b = 0;
    for (const auto& v : t.start) a += c.value(v);
    for (const auto& v : t.end) b += c.value(v);
    if (b < a) c.error(t.loc, "a task ends before it starts");
    span.emplace_back(a, b);
    r.add(b);
  }
  if (c.failed() || s.lanes.empty()) return;
  std::vector<std::string> lanes;
  double widest = 0;
  for (const auto& l : s.lanes) {
    lanes.push_back(c.say(l));
    widest = std::max(widest, c.width(lanes.back(), c.fs));
    c.fits(lanes.back(), c.fs, s.width / 3.0, l.loc, "lane label");
  }
  c.title(s.title);
  Scale x = make_scale(r.lo, r.hi, s.x);
  Scale y = make_scale(0, 1, Axis{});
  y.ticks.clear();
  c.frame(x, y, widest);
  c.axes(x, y);
  const double row = (c.bottom - c.top) / static_cast<double>(s.lanes.size());
  for (std::size_t i = 0; i < lanes.size(); ++i)
    c.svg.text(c.left - 6, c.top + row * (static_cast<double>(i) + 0.5) + c.fs / 3, lanes[i], "tick", "end");
  c.table.header = {words.word("chart.lane"), words.word("chart.task"), words.word("chart.start"),
                    words.word("chart.end")};
  for (std::size_t k = 0; k < s.tasks.size(); ++k) {
    const Task& t = s.tasks[k];
    double x0 = x(span[k].first), x1 = x(span[k].second);
    double y0 = c.top + row * static_cast<double>(t.lane) + row * 0.15;
    std::string label = c.say(t.label);
    std::string from = c.format(span[k].first, s.x), to = c.format(span[k].second, s.x);
    c.svg.rect(x0, y0, std::max(x1 - x0, 1.0), row * 0.7, t.kind, label + ": " + from + " – " + to);
    if (!label.empty() && c.fits(label, c.fs, x1 - x0 - 4, t.label.loc, "task label"))
      c.svg.text((x0 + x1) / 2, y0 + row * 0.35 + c.fs / 3, label, "task-label", "middle");
    c.table.rows.push_back({lanes[t.lane], label, from, to});
  }
}

}  // namespace bb::charts
