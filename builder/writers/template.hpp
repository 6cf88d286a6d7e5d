// Page templates: real files under templates/, with `{{name}}` slots filled by the writers.
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace bb::writers {

// Replaces every `{{name}}` with values.at(name). A slot with no value, or a `{{` that opens no slot
// (`{{ x }}`, no `}}`), is a FatalError at the template's file:line:col, so a template and its writer
// cannot drift apart silently.
std::string fill_template(const std::string& tmpl, const std::map<std::string, std::string>& values,
                          const std::string& template_name);

// Reads a template: the book's own file of that name (use_book_templates) if it has one, else the
// tool's (templates/<name> in the data folder).
std::string load_template(const std::string& name);

// The book's templates folder (<book>/templates): a file there with the relative path of a built-in
// template ("page.html", "latex/preamble.tex", "epub/book.css") replaces it for the rest of the run.
void use_book_templates(const std::filesystem::path& folder);

// The file load_template read `name` from (for messages and the dev server's watch list).
std::filesystem::path template_file(const std::string& name);

// The folder holding templates/ and website/ (the source tree, or BOOKBUILD_DATA_DIR at run time).
std::filesystem::path data_dir();

}  // namespace bb::writers
