// Template loading and slot filling.
#include "writers/template.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "assets/assets.hpp"
#include "diag/diagnostics.hpp"

namespace bb::writers {

std::filesystem::path data_dir() {
  return assets::data_dir();
}

std::string load_template(const std::string& name) {
  return assets::read_data_file(std::filesystem::path("templates") / name);
}

std::string fill_template(const std::string& tmpl, const std::map<std::string, std::string>& values,
                          const std::string& template_name) {
  std::string out;
  out.reserve(tmpl.size() * 2);
  std::size_t pos = 0;
  while (true) {
    std::size_t open = tmpl.find("{{", pos);
    if (open == std::string::npos) break;
    std::size_t close = tmpl.find("}}", open + 2);
    if (close == std::string::npos) break;
    out.append(tmpl, pos, open - pos);
    std::string name = tmpl.substr(open + 2, close - open - 2);
    auto it = values.find(name);
    if (it == values.end())
      throw FatalError("template " + template_name + " uses unknown slot {{" + name + "}}");
    out += it->second;
    pos = close + 2;
  }
  out.append(tmpl, pos, std::string::npos);
  return out;
}

}  // namespace bb::writers
