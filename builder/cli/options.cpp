// Options several subcommands share, declared once so that they read and behave alike.
#include <CLI/CLI.hpp>

#include "cli/commands.hpp"

namespace bb::cli {

void add_edition_option(CLI::App* sub, std::vector<std::string>& editions) {
  sub->add_option("--edition", editions, "Only the edition with this id (repeatable; default: every edition)")
      ->type_name("ID");
}

}  // namespace bb::cli
