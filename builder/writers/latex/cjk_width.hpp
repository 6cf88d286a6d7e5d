// How wide text is when set in print: the LaTeX writer's measure for choosing table columns.
#pragma once

#include <cstddef>
#include <string_view>

namespace bb::writers::cjk {

// Display width of a cell's text in "Latin character" units (East Asian Wide and Fullwidth count
// double, by ICU; Latin capitals a little more than one),
// used to choose table column widths.
double display_width(std::string_view s);

// The widest unbreakable run of a cell: a Latin word; CJK text breaks between any two characters.
double longest_word(std::string_view s);

}  // namespace bb::writers::cjk
