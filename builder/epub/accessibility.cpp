// Accessibility metadata from the chapters' content.
#include "epub/accessibility.hpp"

#include "writers/escape.hpp"

namespace bb::epub {

AccessibilityFacts accessibility_facts(const std::vector<doc::Node>& roots, bool mathml, Diagnostics& diags) {
  AccessibilityFacts f;
  f.mathml = mathml;
  for (const auto& root : roots) {
    doc::walk(root, [&](const doc::Node& n) {
      if (n.kind == doc::Kind::Table) ++f.tables;
      if (n.kind != doc::Kind::Image) return;
      ++f.images;
      if (!doc::plain_text(n.children).empty()) return;
      ++f.images_without_alt;
      diags.warning(n.loc,
                    "image without alternative text: the EPUB claims no alternative text for its "
                    "images (write it between the brackets: ![what it shows](…))");
    });
  }
  return f;
}

namespace {

std::string meta(const std::string& property, const std::string& value) {
  return "    <meta property=\"" + property + "\">" + writers::escape_xml(value) + "</meta>\n";
}

std::string summary(const AccessibilityFacts& f) {
  std::string s = "Reflowable text with a table of contents and headings for navigation, in reading order.";
  if (f.images > 0) {
    s += f.images_without_alt == 0 ? " Every image has a text alternative."
                                   : " " + std::to_string(f.images_without_alt) + " of " +
                                         std::to_string(f.images) + " images have no text alternative.";
  }
  if (f.tables > 0) s += " Tables have header rows.";
  if (f.mathml) s += " Formulas are in MathML.";
  if (f.page_list) s += " Page break markers and a page list give the page numbers of the PDF edition.";
  s += " No flashing, motion or sound hazards.";
  return s;
}

}  // namespace

std::string accessibility_metadata(const AccessibilityFacts& f) {
  const bool all_alt = f.images_without_alt == 0;
  std::string out = meta("schema:accessMode", "textual");
  if (f.images > 0) out += meta("schema:accessMode", "visual");
  if (all_alt) out += meta("schema:accessModeSufficient", "textual");
  if (f.images > 0) out += meta("schema:accessModeSufficient", "textual,visual");
  out += meta("schema:accessibilityFeature", "structuralNavigation");
  out += meta("schema:accessibilityFeature", "tableOfContents");
  out += meta("schema:accessibilityFeature", "readingOrder");
  out += meta("schema:accessibilityFeature", "displayTransformability");
  if (f.images > 0 && all_alt) out += meta("schema:accessibilityFeature", "alternativeText");
  if (f.mathml) out += meta("schema:accessibilityFeature", "MathML");
  if (f.page_list) {
    out += meta("schema:accessibilityFeature", "pageBreakMarkers");
    out += meta("schema:accessibilityFeature", "pageNavigation");
  }
  out += meta("schema:accessibilityHazard", "none");
  out += meta("schema:accessibilitySummary", summary(f));
  // WCAG 2 AA asks for text alternatives: without them the claim would be false.
  if (all_alt) out += meta("dcterms:conformsTo", "EPUB Accessibility 1.1 - WCAG 2.1 Level AA");
  return out;
}

}  // namespace bb::epub
