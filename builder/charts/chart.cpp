// draw(): one spec, one edition, one SVG and its data table.
#include "charts/chart.hpp"

#include "charts/plots.hpp"

namespace bb::charts {

std::optional<Chart> draw(const Spec& spec, const Environment& env, Diagnostics& diags) {
  Canvas c(spec, env, diags);
  switch (spec.type) {
    case Type::Bar: draw_bar(c); break;
    case Type::Line: draw_xy(c, true); break;
    case Type::Scatter: draw_xy(c, false); break;
    case Type::Roofline: draw_roofline(c); break;
    case Type::Timeline: draw_timeline(c); break;
  }
  std::string desc = c.say(spec.desc);
  if (c.failed()) return std::nullopt;
  if (desc.empty()) desc = c.title_text;
  return Chart{c.finish(desc), std::move(c.table), std::move(c.expressions)};
}

}  // namespace bb::charts
