// One function per chart type, each reading the spec from the canvas and drawing on it.
#pragma once

#include "charts/frame.hpp"

namespace bb::charts {

void draw_bar(Canvas& c);
void draw_xy(Canvas& c, bool lines);  // line (lines = true) or scatter
void draw_roofline(Canvas& c);
void draw_timeline(Canvas& c);

}  // namespace bb::charts
