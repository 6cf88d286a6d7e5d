// libxml2 helpers shared by the checks that read our own outputs back (site pages, EPUB entries).
#pragma once

#include <libxml/tree.h>

#include <memory>
#include <string>
#include <string_view>

namespace bb::check {

struct XmlDocDeleter {
  void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
using XmlDoc = std::unique_ptr<xmlDoc, XmlDocDeleter>;

// The value of attribute `name` (in namespace `ns` when given; with no namespace otherwise), or "".
inline std::string attr(const xmlNode* n, const char* name, const char* ns = nullptr) {
  xmlChar* v =
      ns ? xmlGetNsProp(n, reinterpret_cast<const xmlChar*>(name), reinterpret_cast<const xmlChar*>(ns))
         : xmlGetNoNsProp(n, reinterpret_cast<const xmlChar*>(name));
  if (!v) return {};
  std::string s(reinterpret_cast<const char*>(v));
  xmlFree(v);
  return s;
}

inline std::string_view local_name(const xmlNode* n) {
  return reinterpret_cast<const char*>(n->name);
}

// Calls `f` on every element of the sibling list starting at `n` and their descendants, in document
// order.
template <typename F>
void each_element(xmlNode* n, F&& f) {
  for (; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    f(n);
    each_element(n->children, f);
  }
}

}  // namespace bb::check
