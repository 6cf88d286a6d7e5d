// `bookbuild completion bash|zsh`: a shell completion script written from the CLI11 definitions of
// every subcommand and option, so that it cannot fall behind the command line.
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>

#include "cli/commands.hpp"

namespace bb::cli {

namespace {

struct Words {
  std::vector<std::string> options;        // "--edition", "-q", ...
  std::vector<std::string> value_options;  // the ones that take a value (completion stops there)
  std::vector<std::string> dir_options;    // values that are folders (type name DIR)
  std::vector<std::pair<std::string, std::string>> subcommands;  // name, description
};

// CLI11 gives flags a type size too, but no type name.
bool takes_value(const CLI::Option& o) {
  return o.get_type_size() != 0 && !o.get_type_name().empty();
}

Words words_of(const CLI::App& app) {
  Words w;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_positional() && o->get_lnames().empty() && o->get_snames().empty()) continue;
    std::vector<std::string> names;
    for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& s : o->get_snames()) names.push_back("-" + s);
    for (const auto& n : names) {
      w.options.push_back(n);
      if (takes_value(*o)) w.value_options.push_back(n);
      if (takes_value(*o) && o->get_type_name() == "DIR") w.dir_options.push_back(n);
    }
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    w.subcommands.emplace_back(sub->get_name(), sub->get_description());
  return w;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void bash(const CLI::App& app, std::ostream& out) {
  Words top = words_of(app);
  out << "# bash completion for bookbuild, written by `bookbuild completion bash`.\n"
      << "_bookbuild() {\n"
      << "  local cur prev sub i\n"
      << "  cur=\"${COMP_WORDS[COMP_CWORD]}\"; prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
      << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      << "    case \"${COMP_WORDS[i]}\" in -*) ;; *) sub=\"${COMP_WORDS[i]}\"; break ;; esac\n"
      << "  done\n"
      << "  local opts=" << quote(join(top.options)) << " values=" << quote(join(top.value_options))
      << " dirs=" << quote(join(top.dir_options)) << "\n"
      << "  case \"$sub\" in\n";
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); })) {
    Words w = words_of(*sub);
    names.push_back(sub->get_name());
    out << "    " << sub->get_name() << ") opts+=" << quote(" " + join(w.options))
        << "; values+=" << quote(" " + join(w.value_options))
        << "; dirs+=" << quote(" " + join(w.dir_options));
    if (!w.subcommands.empty()) {
      std::vector<std::string> subs;
      for (const auto& [n, d] : w.subcommands) subs.push_back(n);
      out << "; opts+=" << quote(" " + join(subs));
    }
    out << " ;;\n";
  }
  out << "  esac\n"
      << "  if [[ \" $dirs \" == *\" $prev \"* ]]; then COMPREPLY=($(compgen -d -- \"$cur\")); return; fi\n"
      << "  if [[ \" $values \" == *\" $prev \"* ]]; then COMPREPLY=($(compgen -f -- \"$cur\")); return; fi\n"
      << "  if [[ -z \"$sub\" && \"$cur\" != -* ]]; then\n"
      << "    COMPREPLY=($(compgen -W " << quote(join(names)) << " -- \"$cur\")); return\n"
      << "  fi\n"
      << "  COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
      << "}\n"
      << "complete -F _bookbuild bookbuild\n";
}

// zsh: an _arguments spec per subcommand, with each option's description.
void zsh(const CLI::App& app, std::ostream& out) {
  auto spec = [](const CLI::App& a) {
    std::string s;
    for (const CLI::Option* o : a.get_options()) {
      if (o->get_lnames().empty() && o->get_snames().empty()) continue;
      std::string desc = o->get_description();
      for (char& c : desc)
        if (c == '[' || c == ']' || c == ':' || c == '\'') c = ' ';
      std::string value =
          takes_value(*o) ? (o->get_type_name() == "DIR" ? ":dir:_files -/" : ":value:_files") : "";
      for (const auto& l : o->get_lnames()) s += "    '--" + l + "[" + desc + "]" + value + "' \\\n";
      for (const auto& sn : o->get_snames()) s += "    '-" + sn + "[" + desc + "]" + value + "' \\\n";
    }
    return s;
  };
  out << "#compdef bookbuild\n# zsh completion for bookbuild, written by `bookbuild completion zsh`.\n"
      << "_bookbuild() {\n  local -a subcommands\n  subcommands=(\n";
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); })) {
    std::string desc = sub->get_description();
    for (char& c : desc)
      if (c == ':' || c == '\'') c = ' ';
    out << "    '" << sub->get_name() << ":" << desc << "'\n";
  }
  out << "  )\n  _arguments -C \\\n"
      << spec(app) << "    '1: :->sub' '*:: :->args'\n"
      << "  case $state in\n    sub) _describe command subcommands ;;\n    args)\n      case $words[1] in\n";
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    out << "        " << sub->get_name() << ") _arguments \\\n"
        << spec(*sub) << "          '*:file:_files' ;;\n";
  out << "      esac ;;\n  esac\n}\n_bookbuild \"$@\"\n";
}

}  // namespace

void define_completion_command(CLI::App* sub) {
  auto shell = std::make_shared<std::string>();
  const CLI::App* app = sub->get_parent();  // the whole command line, which it describes
  sub->add_option("shell", *shell, "bash or zsh")
      ->type_name("SHELL")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));
  sub->callback([app, shell] {
    if (*shell == "bash")
      bash(*app, std::cout);
    else
      zsh(*app, std::cout);
  });
}

}  // namespace bb::cli
