// The SVG a chart is written as: a few primitives with coordinates printed the same way on every
// machine (two decimals, no locale), text escaped, classes instead of colours so that a stylesheet
// (light, dark, print) decides them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bb::charts {

std::string coord(double v);  // "12.5", "-3", "100.25"
std::string escape(std::string_view text);

class Svg {
 public:
  void line(double x1, double y1, double x2, double y2, std::string_view cls);
  void rect(double x, double y, double w, double h, std::string_view cls, std::string_view title = {});
  void circle(double x, double y, double r, std::string_view cls, std::string_view title = {});
  void polyline(const std::vector<std::pair<double, double>>& points, std::string_view cls);
  // anchor: start, middle, end; rotate: degrees around (x, y).
  void text(double x, double y, std::string_view s, std::string_view cls, std::string_view anchor = "start",
            int rotate = 0);
  void raw(std::string_view s) { out_ += s; }
  [[nodiscard]] const std::string& str() const { return out_; }

 private:
  std::string out_;
};

}  // namespace bb::charts
