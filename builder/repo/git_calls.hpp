// The executable's side of the git module (repo/git_module.h), for repository.cpp and revision_tree.cpp:
// the work tree around a folder, found without the module, and the module's entry points.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "modules/modules.hpp"

namespace bb::repo {

// The nearest folder at or above `start` holding `.git` (each one looked for is noted as an input).
std::optional<std::filesystem::path> find_work_tree(const std::filesystem::path& start);

// The git module's entry point `symbol`, of type Fn (git_module.h). A module that cannot be loaded, or
// lacks the entry point, is an error of the installation (std::runtime_error, reported by main), not a
// book outside a repository.
template <class Fn>
Fn git_entry(const char* symbol) {
  std::string error;
  void* fn = modules::module_symbol(modules::Module::Git, symbol, error);
  if (!fn) throw std::runtime_error(error);
  return reinterpret_cast<Fn>(fn);
}

}  // namespace bb::repo
