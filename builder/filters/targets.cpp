// The global label table.
#include "filters/targets.hpp"

namespace bb::filters {

const char* target_kind_name(TargetKind k) {
  switch (k) {
    case TargetKind::Chapter: return "chapter";
    case TargetKind::Section: return "section";
    case TargetKind::Figure: return "figure";
    case TargetKind::Table: return "table";
    case TargetKind::Equation: return "equation";
    case TargetKind::Example: return "example";
    case TargetKind::Experiment: return "experiment";
  }
  return "target";
}

void TargetTable::add(const Target& t, const std::string& label, Diagnostics& diags) {
  std::size_t index = targets_.size();
  targets_.push_back(t);
  targets_.back().label = label;
  chapter_targets_[{t.edition, t.chapter}].push_back(index);
  if (!label.empty()) {
    auto [it, inserted] = labels_.try_emplace({t.edition, label}, index);
    if (!inserted) {
      const Target& first = targets_[it->second];
      diags.error(t.loc, "duplicate label `" + label + "` (first defined at " +
                             first.loc.path.filename().string() + ":" + std::to_string(first.loc.line) + ")");
    } else {
      chapter_labels_[{t.edition, t.chapter}].push_back(label);
    }
  }
  if (!t.number.empty()) numbers_.try_emplace({t.edition, t.kind, t.number}, index);
}

const Target* TargetTable::by_label(const std::string& edition, const std::string& label) const {
  auto it = labels_.find({edition, label});
  return it == labels_.end() ? nullptr : &targets_[it->second];
}

std::vector<std::string> TargetTable::labels_in(const std::string& edition) const {
  std::vector<std::string> out;
  for (auto it = labels_.lower_bound({edition, ""}); it != labels_.end() && it->first.first == edition; ++it)
    out.push_back(it->first.second);
  return out;
}

const Target* TargetTable::by_number(const std::string& edition, TargetKind kind,
                                     const std::string& number) const {
  auto it = numbers_.find({edition, kind, number});
  return it == numbers_.end() ? nullptr : &targets_[it->second];
}

std::vector<std::string> TargetTable::labels_of(const std::string& edition,
                                                const std::string& chapter) const {
  auto it = chapter_labels_.find({edition, chapter});
  return it == chapter_labels_.end() ? std::vector<std::string>{} : it->second;
}

const std::vector<std::size_t>& TargetTable::indices(const std::string& edition,
                                                     const std::string& chapter) const {
  static const std::vector<std::size_t> none;
  auto it = chapter_targets_.find({edition, chapter});
  return it == chapter_targets_.end() ? none : it->second;
}

bool TargetTable::same_targets(const TargetTable& fresh, const std::string& edition,
                               const std::string& chapter) const {
  const auto& mine = indices(edition, chapter);
  const auto& theirs = fresh.indices(edition, chapter);
  if (mine.size() != theirs.size()) return false;
  for (std::size_t k = 0; k < mine.size(); ++k) {
    const Target& a = targets_[mine[k]];
    const Target& b = fresh.targets_[theirs[k]];
    if (a.kind != b.kind || a.id != b.id || a.number != b.number || a.title != b.title || a.label != b.label)
      return false;
  }
  return true;
}

void TargetTable::take_places(const TargetTable& fresh, const std::string& edition,
                              const std::string& chapter) {
  const auto& mine = indices(edition, chapter);
  const auto& theirs = fresh.indices(edition, chapter);
  for (std::size_t k = 0; k < mine.size() && k < theirs.size(); ++k)
    targets_[mine[k]].loc = fresh.targets_[theirs[k]].loc;
}

}  // namespace bb::filters
