// The EPUB's own documents: META-INF/container.xml, the package document (OPF) and the navigation
// document, each filled from a template under templates/epub/.
#pragma once

#include <ctime>
#include <string>
#include <vector>

namespace bb::epub {

struct ManifestItem {
  std::string id;          // unique XML id
  std::string href;        // relative to the package document
  std::string media_type;  // application/xhtml+xml, image/png, text/css, ...
  std::string properties;  // space-separated: nav, mathml, cover-image, svg
};

struct Metadata {
  std::string identifier;  // urn:uuid:..., stable per edition
  std::string title;
  std::string subtitle;
  std::vector<std::string> creators;
  std::string lang;  // BCP 47
  std::string rights;
  std::time_t modified = 0;
};

struct PackageDocument {
  Metadata metadata;
  std::vector<ManifestItem> manifest;
  std::vector<std::string> spine;  // manifest ids in reading order
  std::string cover_image_id;      // manifest id of the cover image, or ""
  std::string accessibility;       // metadata lines (epub/accessibility.hpp)
  // The identifier of the PDF edition whose page numbers the EPUB's page list gives, or "": no
  // page list, no page source.
  std::string page_source;
};

// One entry of the navigation document: a label and where it points; nested entries below it.
struct NavEntry {
  std::string label;
  std::string href;
  std::vector<NavEntry> children;
};

struct NavLandmark {
  std::string type;  // epub:type: toc, bodymatter, cover
  std::string label;
  std::string href;
};

struct NavDocument {
  std::string lang;
  std::string title;
  std::string toc_title;
  std::string landmarks_title;
  std::string stylesheet;  // href of the stylesheet
  std::vector<NavEntry> toc;
  std::vector<NavLandmark> landmarks;
  // The print pages (label: the printed page number, href: its pagebreak marker), or none: then the
  // document has no page-list.
  std::string pages_title;
  std::vector<NavEntry> pages;
};

// `2026-01-31T12:00:00Z`: the form dcterms:modified requires (UTC, no fractions).
std::string format_modified(std::time_t t);

// A name-based (version 5) UUID for `name` in the URL namespace, as `urn:uuid:...`: the same book and
// edition always get the same identifier, so readers keep their place across updates.
std::string identifier_for(const std::string& name);

std::string container_document(const std::string& package_path);
std::string package_document(const PackageDocument& package);
std::string nav_document(const NavDocument& nav);

}  // namespace bb::epub
