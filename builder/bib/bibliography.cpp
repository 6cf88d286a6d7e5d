// A book's bibliography: its files read by their extension, entries found by key (bibliography.hpp).
#include "bib/bibliography.hpp"

#include "inputs/file_io.hpp"
#include "inputs/inputs.hpp"

namespace bb::bib {

const std::string& Entry::field(std::string_view name) const {
  static const std::string none;
  auto it = fields.find(std::string(name));
  return it == fields.end() ? none : it->second;
}

const Entry* Bibliography::find(std::string_view key) const {
  auto it = index.find(key);
  return it == index.end() ? nullptr : &entries[it->second];
}

std::vector<std::string> Bibliography::keys() const {
  std::vector<std::string> out;
  out.reserve(index.size());
  for (const auto& [k, i] : index) out.push_back(k);
  return out;
}

void Bibliography::add(Entry e, Diagnostics& diags) {
  if (const Entry* first = find(e.key)) {
    diags.error(e.loc, "entry `" + e.key + "` is defined twice (first at " + first->loc.path.string() + ":" +
                           std::to_string(first->loc.line) + "); the first is kept");
    return;
  }
  index.emplace(e.key, entries.size());
  entries.push_back(std::move(e));
}

void read_bibliography_file(const std::filesystem::path& file, Bibliography& into, Diagnostics& diags) {
  inputs::note_file(file);
  const auto read = inputs::read_bounded(file, kMaxBibliographyBytes);
  if (!read.ok()) {
    diags.error({file, 0, 0}, "bibliography: " + inputs::read_problem(read, kMaxBibliographyBytes));
    return;
  }
  into.files.push_back(file);
  const bool json = file.extension() == ".json";
  auto entries = json ? parse_csl_json(read.bytes, file, diags) : parse_bibtex(read.bytes, file, diags);
  for (auto& e : entries) into.add(std::move(e), diags);
}

}  // namespace bb::bib
