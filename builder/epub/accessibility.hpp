// The EPUB's accessibility metadata (EPUB Accessibility 1.1, schema.org properties), computed from
// what the edition really contains: a feature is claimed only when every chapter has it, an image
// without alternative text withdraws the alternative-text claim (and the conformance claim) and is a
// warning at its manuscript line.
#pragma once

#include <string>
#include <vector>

#include "diag/diagnostics.hpp"
#include "doc/tree.hpp"

namespace bb::epub {

struct AccessibilityFacts {
  std::size_t images = 0;
  std::size_t images_without_alt = 0;
  std::size_t tables = 0;
  bool mathml = false;     // formulas are written as MathML (else as TeX text)
  bool page_list = false;  // pagebreak markers and a page list from the edition's PDF (docs/epub.md)
};

// What the chapters hold; each image without alternative text is a warning.
AccessibilityFacts accessibility_facts(const std::vector<doc::Node>& roots, bool mathml, Diagnostics& diags);

// The package metadata lines (`<meta property="schema:…">`), indented for package.opf.
std::string accessibility_metadata(const AccessibilityFacts& facts);

}  // namespace bb::epub
