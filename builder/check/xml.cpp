// Parsing through the XML module, and attribute lookup on the elements it reports.
#include "check/xml.hpp"

#include "check/xml_module.h"
#include "diag/diagnostics.hpp"
#include "modules/modules.hpp"

namespace bb::check {

std::string XmlElement::attr(std::string_view name, const char* ns) const {
  for (const XmlAttribute& a : attributes)
    if (a.name == name && (ns ? a.ns == ns : a.ns.empty())) return a.value;
  return {};
}

bool XmlElement::has_attr(std::string_view name) const {
  for (const XmlAttribute& a : attributes)
    if (a.name == name) return true;
  return false;
}

namespace {

struct Parse {
  XmlDoc doc;
  std::vector<XmlProblem>* problems;
};

void on_element(void* context, long parent, const char* name, long line, const bookbuild_xml_attribute* a,
                std::size_t count) {
  XmlElement e{name, static_cast<int>(parent), static_cast<int>(line), {}};
  e.attributes.reserve(count);
  for (std::size_t i = 0; i < count; ++i)
    e.attributes.push_back({a[i].name, a[i].ns ? a[i].ns : "", a[i].value});
  static_cast<Parse*>(context)->doc.elements.push_back(std::move(e));
}

void on_error(void* context, long line, const char* message) {
  static_cast<Parse*>(context)->problems->push_back({static_cast<int>(line), message});
}

}  // namespace

std::optional<XmlDoc> parse_xml(const std::string& data, const std::string& url, bool html,
                                std::vector<XmlProblem>& problems) {
  std::string error;
  auto parse = reinterpret_cast<bookbuild_xml_parse_fn>(
      modules::module_symbol(modules::Module::Xml, "bookbuild_xml_parse", error));
  if (!parse) throw FatalError(error);
  Parse p{{}, &problems};
  if (parse(data.data(), data.size(), url.c_str(), html ? 1 : 0, on_element, on_error, &p) != 0)
    return std::nullopt;
  return std::move(p.doc);
}

}  // namespace bb::check
