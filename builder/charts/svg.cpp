// SVG primitives (svg.hpp).
#include "charts/svg.hpp"

#include <cmath>
#include <cstdio>

namespace bb::charts {

std::string coord(double v) {
  if (!std::isfinite(v)) v = 0;
  double r = std::round(v * 100) / 100;
  if (r == 0) r = 0;  // no "-0"
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f", r);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {
std::string titled(std::string_view title) {
  return title.empty() ? std::string() : "<title>" + escape(title) + "</title>";
}
}  // namespace

void Svg::line(double x1, double y1, double x2, double y2, std::string_view cls) {
  out_ += "<line class=\"" + std::string(cls) + "\" x1=\"" + coord(x1) + "\" y1=\"" + coord(y1) + "\" x2=\"" +
          coord(x2) + "\" y2=\"" + coord(y2) + "\"/>\n";
}

void Svg::rect(double x, double y, double w, double h, std::string_view cls, std::string_view title) {
  out_ += "<rect class=\"" + std::string(cls) + "\" x=\"" + coord(x) + "\" y=\"" + coord(y) + "\" width=\"" +
          coord(w) + "\" height=\"" + coord(h) + "\"";
  out_ += title.empty() ? "/>\n" : ">" + titled(title) + "</rect>\n";
}

void Svg::circle(double x, double y, double r, std::string_view cls, std::string_view title) {
  out_ += "<circle class=\"" + std::string(cls) + "\" cx=\"" + coord(x) + "\" cy=\"" + coord(y) + "\" r=\"" +
          coord(r) + "\"";
  out_ += title.empty() ? "/>\n" : ">" + titled(title) + "</circle>\n";
}

void Svg::polyline(const std::vector<std::pair<double, double>>& points, std::string_view cls) {
  out_ += "<polyline class=\"" + std::string(cls) + "\" points=\"";
  for (std::size_t i = 0; i < points.size(); ++i)
    out_ += (i ? " " : "") + coord(points[i].first) + "," + coord(points[i].second);
  out_ += "\"/>\n";
}

void Svg::text(double x, double y, std::string_view s, std::string_view cls, std::string_view anchor,
               int rotate) {
  out_ += "<text class=\"" + std::string(cls) + "\" x=\"" + coord(x) + "\" y=\"" + coord(y) + "\"";
  if (anchor != "start") out_ += " text-anchor=\"" + std::string(anchor) + "\"";
  if (rotate)
    out_ += " transform=\"rotate(" + std::to_string(rotate) + " " + coord(x) + " " + coord(y) + ")\"";
  out_ += ">" + escape(s) + "</text>\n";
}

}  // namespace bb::charts
