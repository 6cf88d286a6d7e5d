// The XML module (bookbuild_xml.so): libxml2's XML and HTML parsers behind the C function of
// xml_module.h. Each document is freed before returning; nothing of libxml2 escapes.
#include "check/xml_module.h"

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <string>
#include <vector>

namespace {

struct Errors {
  bookbuild_xml_error_fn fn;
  void* context;
};

void report_error(void* ctx, xmlErrorPtr e) {
  auto* errors = static_cast<Errors*>(ctx);
  std::string message = e->message ? e->message : "XML error";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  errors->fn(errors->context, e->line, message.c_str());
}

// Walks the elements below `n` (and its following siblings) in document order, iteratively so that
// a deeply nested document cannot exhaust the stack.
void walk(xmlNode* first, bookbuild_xml_element_fn element, void* context) {
  struct Frame {
    xmlNode* node;
    long index;
  };
  std::vector<Frame> stack;  // open elements: the node and its index
  std::vector<bookbuild_xml_attribute> attributes;
  long next = 0;
  xmlNode* n = first;
  while (n || !stack.empty()) {
    if (!n) {
      n = stack.back().node->next;
      stack.pop_back();
      continue;
    }
    if (n->type != XML_ELEMENT_NODE) {
      n = n->next;
      continue;
    }
    attributes.clear();
    std::vector<xmlChar*> values;
    for (xmlAttr* a = n->properties; a; a = a->next) {
      xmlChar* v = xmlNodeGetContent(reinterpret_cast<xmlNode*>(a));
      values.push_back(v);
      attributes.push_back({reinterpret_cast<const char*>(a->name),
                            a->ns ? reinterpret_cast<const char*>(a->ns->href) : nullptr,
                            v ? reinterpret_cast<const char*>(v) : ""});
    }
    element(context, stack.empty() ? -1 : stack.back().index, reinterpret_cast<const char*>(n->name),
            xmlGetLineNo(n), attributes.data(), attributes.size());
    for (xmlChar* v : values) xmlFree(v);
    stack.push_back({n, next++});
    n = n->children;
  }
}

}  // namespace

// libxml2's global state, set up once by the loader before any thread parses (modules/modules.hpp).
extern "C" void bookbuild_module_init() {
  xmlInitParser();
}

extern "C" int bookbuild_xml_parse(const char* data, size_t size, const char* url, int html,
                                   bookbuild_xml_element_fn element, bookbuild_xml_error_fn error,
                                   void* context) {
  xmlDoc* doc = nullptr;
  if (html) {
    doc = htmlReadMemory(data, static_cast<int>(size), url, "UTF-8",
                         HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
  } else {
    Errors errors{error, context};
    xmlSetStructuredErrorFunc(&errors, [](void* ctx, xmlError* e) { report_error(ctx, e); });
    doc = xmlReadMemory(data, static_cast<int>(size), url, "UTF-8", XML_PARSE_NONET | XML_PARSE_NOWARNING);
    xmlSetStructuredErrorFunc(nullptr, nullptr);
  }
  if (!doc) return 1;
  xmlNode* root = xmlDocGetRootElement(doc);
  if (root) walk(root, element, context);
  xmlFreeDoc(doc);
  return root ? 0 : 1;
}
