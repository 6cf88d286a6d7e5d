// Subcommands that are planned but not built yet say so and exit 2, instead of silently succeeding.
#pragma once

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "cli/commands.hpp"

namespace bb::cli {

inline CLI::App* add_pending_command(CLI::App& app, Context& ctx, const std::string& name,
                                     const std::string& description, const std::string& issue) {
  CLI::App* sub = app.add_subcommand(name, description + " (not built yet)");
  sub->allow_extras();
  sub->callback([&ctx, name, issue] {
    std::cerr << "bookbuild " << name << ": not built yet (tracked in " << issue << ")\n";
    ctx.exit_code = 2;
  });
  return sub;
}

}  // namespace bb::cli
