// Titles of callouts the author left untitled (`> [!WARNING]`, `::: tip`): the kind's word in the
// edition's language (languages/*.toml, `[callout]`), as a bold lead every writer prints.
#pragma once

#include "book/book.hpp"

namespace bb::filters {

void title_callouts(book::Chapter& ch, const book::Edition& edition);

}  // namespace bb::filters
