// The documents the checks read back (site pages, EPUB entries), parsed by libxml2 in the XML module
// (xml_module.cpp, loaded on the first parse) into a flat list of elements.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb::check {

struct XmlAttribute {
  std::string name;  // local name
  std::string ns;    // namespace URI, "" for none
  std::string value;
};

struct XmlElement {
  std::string name;  // local name
  int parent = -1;   // index of the parent element, -1 for the root
  int line = 0;
  std::vector<XmlAttribute> attributes;

  // The value of attribute `name` in namespace `ns` when given, with no namespace otherwise; "" when
  // absent.
  std::string attr(std::string_view name, const char* ns = nullptr) const;
  // Whether the element has an attribute of that local name, in any namespace.
  bool has_attr(std::string_view name) const;
};

// Every element in document order; the first is the root.
struct XmlDoc {
  std::vector<XmlElement> elements;
};

struct XmlProblem {
  int line = 0;
  std::string message;
};

// Parses `data` as XML (without touching the network; every well-formedness error goes to
// `problems`) or, with `html`, as HTML. nullopt when there is no document with a root element.
// Throws FatalError when the XML module cannot be loaded.
std::optional<XmlDoc> parse_xml(const std::string& data, const std::string& url, bool html,
                                std::vector<XmlProblem>& problems);

}  // namespace bb::check
