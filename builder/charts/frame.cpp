// Scales, ticks and the canvas layout (frame.hpp).
#include "charts/frame.hpp"

#include <algorithm>
#include <cmath>

#include "charts/metrics.hpp"

namespace bb::charts {

double Scale::operator()(double v) const {
  double a = log ? std::log10(std::max(v, 1e-300)) : v;
  double l = log ? std::log10(lo) : lo;
  double h = log ? std::log10(hi) : hi;
  if (h == l) return p0;
  return p0 + (a - l) / (h - l) * (p1 - p0);
}

Scale make_scale(double lo, double hi, const Axis& axis) {
  Scale s;
  s.log = axis.log;
  if (axis.min) lo = *axis.min;
  if (axis.max) hi = *axis.max;
  if (s.log) {
    lo = std::max(lo, 1e-300);
    hi = std::max(hi, lo * 10);
    double a = std::floor(std::log10(lo) + 1e-9), b = std::ceil(std::log10(hi) - 1e-9);
    if (b <= a) b = a + 1;
    int every = b - a > 8 ? 2 : 1;
    for (double e = a; e <= b + 1e-9; e += every) s.ticks.push_back(std::pow(10.0, e));
    s.lo = axis.min ? lo : std::pow(10.0, a);
    s.hi = axis.max ? hi : std::pow(10.0, b);
    return s;
  }
  if (hi <= lo) hi = lo + 1;
  double raw = (hi - lo) / 5;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw * (1 - 1e-9)) {
      step = m * mag;
      break;
    }
  s.lo = axis.min ? lo : std::floor(lo / step + 1e-9) * step;
  s.hi = axis.max ? hi : std::ceil(hi / step - 1e-9) * step;
  for (double t = std::ceil(s.lo / step - 1e-9) * step; t <= s.hi + step * 1e-9; t += step)
    s.ticks.push_back(std::abs(t) < step * 1e-9 ? 0 : t);
  return s;
}

Canvas::Canvas(const Spec& s, const Environment& e, Diagnostics& d)
    : spec(s), env(e), fs(s.font_size), diags_(d) {
  left = 8;
  top = 8;
  right = s.width - 16;
  bottom = s.height - 8;
}

void Canvas::error(const SourceLoc& loc, const std::string& message) {
  failed_ = true;
  diags_.error(loc, message);
}

std::string Canvas::say(const Text& text) {
  if (text.empty()) return {};
  if (const std::string* s = pick(text, env.edition, env.lang)) return *s;
  error(text.loc, "no text for edition `" + env.edition + "` (add `" + env.edition + " = \"...\"`)");
  return {};
}

double Canvas::value(const Value& v) {
  if (v.expr.empty()) return v.literal;
  expressions.push_back(v.expr);
  try {
    return env.evaluate(v.expr) * v.scale;
  } catch (const std::exception& ex) {
    error(v.loc, "cannot compute `" + v.expr + "`: " + ex.what());
    return 0;
  }
}

std::string Canvas::format(double v, const Axis& axis) {
  try {
    return env.format(v, axis.format.empty() ? "sig:3" : axis.format);
  } catch (const std::exception& ex) {
    error(axis.label.loc, ex.what());
    return {};
  }
}

double Canvas::width(std::string_view s, double px) {
  std::string problem;
  double w = text_width(s, px, problem);
  if (!problem.empty() && !warned_font_) {
    warned_font_ = true;
    diags_.warning({spec.path, 1, 1}, "chart text is measured by estimate: " + problem, "font");
  }
  return w;
}

bool Canvas::fits(std::string_view s, double px, double room, const SourceLoc& where, std::string_view what) {
  double w = width(s, px);
  if (w <= room) return true;
  error(where, std::string(what) + " `" + std::string(s) + "` is " + coord(w) + " px wide at " + coord(px) +
                   " px but has room for " + coord(std::max(room, 0.0)) + " px: shorten it");
  return false;
}

void Canvas::title(const Text& t) {
  title_text = say(t);
  if (title_text.empty()) return;
  double px = fs + 3;
  // Measured in the regular face: the bold one is up to a tenth wider.
  fits(title_text, px * 1.1, spec.width - 16, t.loc, "title");
  svg.raw("<text class=\"title\" x=\"" + coord(spec.width / 2.0) + "\" y=\"" + coord(top + px) +
          "\" text-anchor=\"middle\" font-size=\"" + coord(px) + "\">" + escape(title_text) + "</text>\n");
  top += px + 10;
}

void Canvas::legend(const std::vector<std::pair<std::string, Text>>& entries) {
  if (entries.empty()) return;
  const double room = spec.width - 16, row = fs + 8, swatch = fs - 2;
  double x = 8, y = top;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& [cls, t] = entries[i];
    std::string label = say(t);
    double w = swatch + 5 + width(label, fs);
    if (!fits(label, fs, room - swatch - 5, t.loc, "legend entry")) continue;
    if (x > 8 && x + w > room + 8) {
      x = 8;
      y += row;
    }
    svg.rect(x, y + (row - swatch) / 2 - 2, swatch, swatch, cls + " swatch");
    svg.text(x + swatch + 5, y + fs, label, "legend");
    x += w + 16;
  }
  top = y + row + 4;
}

void Canvas::frame(Scale& x, Scale& y, double left_room) {
  std::string ylabel = say(spec.y.label), xlabel = say(spec.x.label);
  double ticks = 0;
  for (double t : y.ticks) ticks = std::max(ticks, width(format(t, spec.y), fs));
  if (left_room >= 0) ticks = std::max(ticks, left_room);
  left = 8 + (ylabel.empty() ? 0 : fs + 8) + ticks + 6;
  // The last x tick label is centred on the right edge: room for its half.
  if (!x.ticks.empty())
    right = std::min(right, spec.width - 4 - width(format(x.ticks.back(), spec.x), fs) / 2);
  top += fs / 2;  // room for the top tick label
  bottom = spec.height - 8 - (fs + 6) - (xlabel.empty() ? 0 : fs + 8);
  if (!xlabel.empty()) {
    fits(xlabel, fs, right - left, spec.x.label.loc, "x-axis label");
    svg.text((left + right) / 2, spec.height - 10, xlabel, "axis-label", "middle");
  }
  if (!ylabel.empty()) {
    fits(ylabel, fs, bottom - top, spec.y.label.loc, "y-axis label");
    svg.text(8 + fs, (top + bottom) / 2, ylabel, "axis-label", "middle", -90);
  }
  x.p0 = left;
  x.p1 = right;
  y.p0 = bottom;
  y.p1 = top;
}

void Canvas::axes(const Scale& x, const Scale& y, bool x_ticks) {
  for (double t : y.ticks) {
    double py = y(t);
    svg.line(left, py, right, py, "grid");
    svg.text(left - 6, py + fs / 3, format(t, spec.y), "tick", "end");
  }
  if (x_ticks) {
    // Thinned until neighbouring labels leave a gap: ticks are the tool's, not the author's.
    std::vector<std::string> labels;
    double widest = 0;
    for (double t : x.ticks) {
      labels.push_back(format(t, spec.x));
      widest = std::max(widest, width(labels.back(), fs));
    }
    std::size_t every = 1;
    double spacing =
        x.ticks.size() > 1 ? (right - left) / static_cast<double>(x.ticks.size() - 1) : right - left;
    while (every < x.ticks.size() && spacing * static_cast<double>(every) < widest + 8) ++every;
    for (std::size_t i = 0; i < x.ticks.size(); ++i) {
      double px = x(x.ticks[i]);
      svg.line(px, bottom, px, bottom + 4, "axis");
      if (i % every == 0) svg.text(px, bottom + fs + 4, labels[i], "tick", "middle");
    }
  }
  svg.line(left, bottom, right, bottom, "axis");
  svg.line(left, top, left, bottom, "axis");
}

namespace {

// Colours by class, light by default and dark when the reader's system is: the page's own theme
// cannot reach into an <img>, the system preference can.
constexpr const char* kStyle = R"(<style>
text{font-family:'Noto Sans','Noto Sans CJK SC',sans-serif;fill:#222}
.title{font-weight:bold}
.grid{stroke:#ddd;stroke-width:1}
.axis{stroke:#444;stroke-width:1}
.guide{stroke:#888;stroke-width:1;stroke-dasharray:4 3}
.line{fill:none;stroke-width:2}
.s0{fill:#1f77b4;stroke:#1f77b4}.s1{fill:#ff7f0e;stroke:#ff7f0e}.s2{fill:#2ca02c;stroke:#2ca02c}
.s3{fill:#d62728;stroke:#d62728}.s4{fill:#9467bd;stroke:#9467bd}.s5{fill:#8c564b;stroke:#8c564b}
.s6{fill:#e377c2;stroke:#e377c2}.s7{fill:#7f7f7f;stroke:#7f7f7f}
.line.s0,.line.s1,.line.s2,.line.s3,.line.s4,.line.s5,.line.s6,.line.s7{fill:none}
.swatch{stroke:none}
.compute{fill:#1f77b4}.comm{fill:#ff7f0e}.memory{fill:#2ca02c}.idle{fill:#c7c7c7}.other{fill:#9467bd}
.task-label{fill:#fff}
@media (prefers-color-scheme:dark){
text{fill:#e6e6e6}.grid{stroke:#444}.axis{stroke:#bbb}.guide{stroke:#999}.task-label{fill:#111}
}
</style>
)";

}  // namespace

std::string Canvas::finish(const std::string& desc) {
  std::string w = std::to_string(spec.width), h = std::to_string(spec.height);
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + w + "\" height=\"" + h +
                    "\" viewBox=\"0 0 " + w + " " + h +
                    "\" role=\"img\" aria-labelledby=\"chart-title chart-desc\" font-size=\"" +
                    std::to_string(spec.font_size) + "\">\n";
  out += "<title id=\"chart-title\">" + escape(title_text) + "</title>\n";
  out += "<desc id=\"chart-desc\">" + escape(desc) + "</desc>\n";
  out += kStyle;
  out += svg.str();
  out += "</svg>\n";
  return out;
}

}  // namespace bb::charts
