// Page templates: real files under templates/, with `{{name}}` slots filled by the writers.
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace bb::writers {

// Replaces every `{{name}}` with values.at(name); a slot with no value is an error naming it, so a
// template and its writer cannot drift apart silently.
std::string fill_template(const std::string& tmpl, const std::map<std::string, std::string>& values,
                          const std::string& template_name);

// Reads a template from the tool's data folder (templates/<name>).
std::string load_template(const std::string& name);

// The folder holding templates/ and website/ (the source tree, or BOOKBUILD_DATA_DIR at run time).
std::filesystem::path data_dir();

}  // namespace bb::writers
