// What every chart type shares: scales and their ticks, and the canvas that lays out title, legend,
// axes and plot area with measured text, reporting a label that does not fit at its spec line.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "charts/chart.hpp"
#include "charts/svg.hpp"

namespace bb::charts {

// Data values (base units) to pixels along one axis.
struct Scale {
  double lo = 0, hi = 1;
  bool log = false;
  double p0 = 0, p1 = 1;  // pixels of lo and hi
  std::vector<double> ticks;
  [[nodiscard]] double operator()(double v) const;
};

// A scale over [lo, hi] widened to round ticks (decades on a log scale), unless the axis fixes them.
Scale make_scale(double lo, double hi, const Axis& axis);

class Canvas {
 public:
  Canvas(const Spec& spec, const Environment& env, Diagnostics& diags);

  // The edition's word for a text; an error (and "") when the spec has none for this edition.
  std::string say(const Text& text);
  // A value in base units, evaluated through calc; 0 and an error when it cannot be.
  double value(const Value& v);
  // A value written with the axis's format in the edition's locale.
  std::string format(double v, const Axis& axis);
  double width(std::string_view s, double px);
  // Whether `s` (from `where`) fits `room` px; when not, an error at the text's line.
  bool fits(std::string_view s, double px, double room, const SourceLoc& where, std::string_view what);

  // Layout, in this order: the title, the legend (class, label, its line), then the frame around the
  // plot area for the given scales (left margin from the y tick labels), then axes.
  void title(const Text& t);
  void legend(const std::vector<std::pair<std::string, Text>>& entries);
  void frame(Scale& x, Scale& y, double left_room = -1);
  void axes(const Scale& x, const Scale& y, bool x_ticks = true);

  [[nodiscard]] bool failed() const { return failed_; }
  void error(const SourceLoc& loc, const std::string& message);
  std::string finish(const std::string& desc);  // the whole SVG document

  const Spec& spec;
  const Environment& env;
  Svg svg;
  DataTable table;
  std::vector<std::string> expressions;
  double fs;                                        // font size of labels, px
  double left = 0, top = 0, right = 0, bottom = 0;  // the plot area
  std::string title_text;

 private:
  Diagnostics& diags_;
  bool failed_ = false;
  bool warned_font_ = false;
};

}  // namespace bb::charts
