// Formula checking through the MathML converter (the writers convert again; it is fast).
#include "filters/math_check.hpp"

#include "math/mathml.hpp"

namespace bb::filters {

void check_math(const book::Chapter& chapter, Diagnostics& diags) {
  doc::walk(chapter.root, [&](const doc::Node& n) {
    if (n.kind != doc::Kind::InlineMath && n.kind != doc::Kind::DisplayMath) return;
    const auto& result = math::to_mathml_cached(n.text, n.kind == doc::Kind::DisplayMath);
    for (const auto& e : result.errors) {
      auto pos = math::position_in(n.text, e.offset);
      SourceLoc at = n.loc;
      if (pos.line_delta == 0) {
        at.col += static_cast<int>(pos.column);
      } else {
        at.line += static_cast<int>(pos.line_delta);
        at.col = 1 + static_cast<int>(pos.column);
      }
      diags.error(at, e.message);
    }
  });
}

}  // namespace bb::filters
