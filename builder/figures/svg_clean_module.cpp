// The SVG cleaner in the XML module (bookbuild_xml.so): libxml2 parses the figure, the caller's policy
// (svg_clean.cpp) answers for every node and attribute, the answers are applied and the tree written
// back. The document is freed before returning; nothing of libxml2 escapes.
#include "figures/svg_clean_module.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <string>
#include <vector>

namespace {

struct Calls {
  bookbuild_svg_node_fn node;
  bookbuild_svg_attribute_fn attribute;
  bookbuild_svg_error_fn error;
  void* context;
  bool entities = false;
};

const char* str(const xmlChar* s) {
  return reinterpret_cast<const char*>(s);
}
const xmlChar* xstr(const char* s) {
  return reinterpret_cast<const xmlChar*>(s);
}

void drop(xmlNode* n) {
  xmlUnlinkNode(n);
  xmlFreeNode(n);
}

// Asks about every attribute of `n`; false when the element itself is to go.
bool clean_attributes(xmlNode* n, Calls& c) {
  for (xmlAttr* a = n->properties; a;) {
    xmlAttr* next = a->next;
    for (xmlNode* k = a->children; k; k = k->next)
      if (k->type == XML_ENTITY_REF_NODE) c.entities = true;
    xmlChar* value = xmlNodeGetContent(reinterpret_cast<xmlNode*>(a));
    const char* replacement = nullptr;
    int answer = c.attribute(c.context, str(n->name), str(a->name), a->ns ? str(a->ns->href) : nullptr,
                             value ? str(value) : "", xmlGetLineNo(n), &replacement);
    xmlFree(value);
    if (answer == BOOKBUILD_SVG_DROP_ELEMENT) return false;
    if (answer == BOOKBUILD_SVG_DROP) xmlRemoveProp(a);
    if (answer == BOOKBUILD_SVG_REPLACE && replacement) xmlSetNsProp(n, a->ns, a->name, xstr(replacement));
    a = next;
  }
  return true;
}

// The text of a <style> element, as one text node when the policy rewrites it.
void clean_style_text(xmlNode* n, Calls& c) {
  xmlChar* text = xmlNodeGetContent(n);
  const char* replacement = nullptr;
  int answer = c.attribute(c.context, str(n->name), "#text", nullptr, text ? str(text) : "", xmlGetLineNo(n),
                           &replacement);
  xmlFree(text);
  if (answer == BOOKBUILD_SVG_KEEP || (answer == BOOKBUILD_SVG_REPLACE && !replacement)) return;
  while (n->children) drop(n->children);
  if (answer == BOOKBUILD_SVG_REPLACE) xmlAddChild(n, xmlNewDocText(n->doc, xstr(replacement)));
}

// Visits the nodes in document order, iteratively so that a deeply nested figure cannot exhaust the
// stack; a dropped node's subtree is not visited.
void clean(xmlNode* first, Calls& c) {
  std::vector<xmlNode*> pending;
  for (xmlNode* n = first; n; n = n->next) pending.push_back(n);
  std::vector<xmlNode*> todo(pending.rbegin(), pending.rend());
  while (!todo.empty()) {
    xmlNode* n = todo.back();
    todo.pop_back();
    if (n->type == XML_ENTITY_REF_NODE || n->type == XML_ENTITY_NODE) {
      c.entities = true;
      continue;
    }
    if (n->type == XML_PI_NODE) {
      std::string name = std::string("?") + str(n->name);
      if (c.node(c.context, name.c_str(), nullptr, xmlGetLineNo(n)) == BOOKBUILD_SVG_DROP) drop(n);
      continue;
    }
    if (n->type != XML_ELEMENT_NODE) continue;
    if (c.node(c.context, str(n->name), n->ns ? str(n->ns->href) : nullptr, xmlGetLineNo(n)) ==
            BOOKBUILD_SVG_DROP ||
        !clean_attributes(n, c)) {
      drop(n);
      continue;
    }
    if (xmlStrEqual(n->name, xstr("style"))) clean_style_text(n, c);
    pending.clear();
    for (xmlNode* k = n->children; k; k = k->next) pending.push_back(k);
    todo.insert(todo.end(), pending.rbegin(), pending.rend());
  }
}

struct Errors {
  bookbuild_svg_error_fn fn;
  void* context;
};

}  // namespace

extern "C" int bookbuild_svg_clean(const char* data, size_t size, const char* url, bookbuild_svg_node_fn node,
                                   bookbuild_svg_attribute_fn attribute, bookbuild_svg_error_fn error,
                                   bookbuild_svg_output_fn output, void* context) {
  Errors errors{error, context};
  xmlSetStructuredErrorFunc(&errors, [](void* ctx, xmlError* e) {
    auto* errs = static_cast<Errors*>(ctx);
    std::string message = e->message ? e->message : "XML error";
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
    errs->fn(errs->context, e->line, message.c_str());
  });
  // No XML_PARSE_NOENT (entities stay unexpanded), no XML_PARSE_DTDLOAD or DTDATTR (no DTD read),
  // XML_PARSE_NONET (nothing fetched).
  xmlDoc* doc =
      xmlReadMemory(data, static_cast<int>(size), url, "UTF-8", XML_PARSE_NONET | XML_PARSE_NOWARNING);
  xmlSetStructuredErrorFunc(nullptr, nullptr);
  if (!doc || !xmlDocGetRootElement(doc)) {
    if (doc) xmlFreeDoc(doc);
    return BOOKBUILD_SVG_NOT_WELL_FORMED;
  }
  Calls calls{node, attribute, error, context};
  if (doc->intSubset && doc->intSubset->entities) calls.entities = true;
  // The document type goes: nothing reads it, and a reader that would fetch it must not.
  if (xmlDtd* dtd = doc->intSubset) {
    xmlUnlinkNode(reinterpret_cast<xmlNode*>(dtd));
    xmlFreeDtd(dtd);
    doc->intSubset = nullptr;
  }
  if (!calls.entities) clean(doc->children, calls);
  if (calls.entities) {
    xmlFreeDoc(doc);
    return BOOKBUILD_SVG_ENTITIES;
  }
  xmlChar* out = nullptr;
  int out_size = 0;
  xmlDocDumpMemoryEnc(doc, &out, &out_size, "UTF-8");
  if (out) output(context, str(out), static_cast<size_t>(out_size));
  xmlFree(out);
  xmlFreeDoc(doc);
  return BOOKBUILD_SVG_OK;
}
