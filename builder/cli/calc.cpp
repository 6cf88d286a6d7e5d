// `bookbuild calc`: the calc library's commands on the command line, one sub-subcommand per command,
// with options generated from the library's command table (same names and defaults as the reference tool).
#include <CLI/CLI.hpp>

#include <cctype>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "calc/calculations.hpp"
#include "calc/command.hpp"
#include "calc/error.hpp"
#include "calc/json.hpp"
#include "calc/recompute.hpp"
#include "calc/report.hpp"
#include "calc/reproduce.hpp"
#include "cli/commands.hpp"

namespace bb::cli {
namespace {

struct CalcOptions {
  std::string calculations_dir;  // --calculations DIR (default: <book>/calculations)
};

struct RunOptions {
  std::string format = "json";
  std::string output;
  std::map<std::string, std::string> text;
  std::map<std::string, bool> flags;
  std::map<std::string, CLI::Option*> options;
};

std::string kebab(const std::string& name) {
  std::string s = name;
  for (char& c : s)
    if (c == '_') c = '-';
  return s;
}

std::filesystem::path calculations_dir(const Context& ctx, const CalcOptions& opts) {
  if (!opts.calculations_dir.empty()) return opts.calculations_dir;
  std::filesystem::path book =
      ctx.global.book_dir.empty() ? std::filesystem::current_path() : ctx.global.book_dir;
  return book / "calculations";
}

void emit(const std::string& text, const std::string& output) {
  if (output.empty()) {
    std::cout << text;
    return;
  }
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  if (!out) throw calc::Error("cannot write " + output);
  out << text;
}

std::string render(const calc::Json& doc, const std::string& format) {
  if (format == "md") return calc::render_markdown(doc);
  if (format == "csv") return calc::render_csv(doc);
  return calc::dump_json(doc);
}

// Runs `body` and maps library errors to exit code 2 with the message on stderr.
template <typename Body>
void guarded(Context& ctx, const std::string& command, Body body) {
  try {
    body();
  } catch (const calc::Error& e) {
    std::cerr << "bookbuild calc " << command << ": error: " << e.what() << "\n";
    ctx.exit_code = 2;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "bookbuild calc " << command << ": error: " << e.what() << "\n";
    ctx.exit_code = 2;
  }
}

void add_format_options(CLI::App& sub, RunOptions& run, bool csv) {
  std::vector<std::string> formats = {"json", "md"};
  if (csv) formats.push_back("csv");
  sub.add_option("--format", run.format, "output format")
      ->type_name("FORMAT")
      ->check(CLI::IsMember(formats))
      ->capture_default_str();
  sub.add_option("--output", run.output, "write to FILE instead of standard output")->type_name("FILE");
}

// One command per calculation of the real book's results (calc/calculations.hpp): from a scenario
// (`--scenario FILE`, the JSON of a result's "scenario" object; the calculation's defaults without it)
// or from a stored result (`--from results/x.json`, whose prose is kept so the bytes are reproduced).
struct ResultOptions {
  std::string scenario, from, model;
  RunOptions run;
};

void define_result_command(CLI::App* calc, Context& ctx, const std::shared_ptr<CalcOptions>& opts,
                           const calc::Calculation& c) {
  auto o = std::make_shared<ResultOptions>();
  CLI::App* sub = calc->add_subcommand(
      c.command, "The real book's '" + c.name + "' result from a scenario or a stored result");
  auto* scenario =
      sub->add_option("--scenario", o->scenario, "JSON file of the scenario object")->type_name("FILE");
  sub->add_option("--from", o->from, "a stored result to recompute (results/<id>.json)")
      ->type_name("FILE")
      ->excludes(scenario);
  sub->add_option("--model", o->model, "model id (a folder under calculations/configs/models)")
      ->type_name("MODEL");
  add_format_options(*sub, o->run, false);
  const std::string name = c.name, command = c.command;
  sub->callback([&ctx, opts, o, name, command]() {
    guarded(ctx, command, [&] {
      calc::Data data(calculations_dir(ctx, *opts));
      calc::Json stored = calc::Json::object();
      if (!o->from.empty()) {
        stored = calc::read_json_file(o->from);
        if (!stored.is_object() || !stored.contains("calculation") || stored["calculation"] != name)
          throw calc::Error(o->from + " is not a '" + name + "' result");
      } else {
        stored["calculation"] = name;
        stored["scenario"] = o->scenario.empty() ? calc::Json::object() : calc::read_json_file(o->scenario);
      }
      if (!o->model.empty()) stored["model"] = o->model;
      emit(render(calc::regenerate(data, stored), o->run.format), o->run.output);
    });
  });
}

}  // namespace

void define_calc_command(CLI::App* calc, Context& ctx) {
  auto opts = std::make_shared<CalcOptions>();
  calc->add_option("--calculations", opts->calculations_dir,
                   "calculations folder (default: <book>/calculations)")
      ->type_name("DIR");
  calc->require_subcommand(1);

  for (const auto& spec : calc::command_specs()) {
    auto run = std::make_shared<RunOptions>();
    CLI::App* sub = calc->add_subcommand(spec.name, spec.summary);
    for (const auto& arg : spec.args) {
      std::string flag = "--" + kebab(arg.name);
      std::string help = arg.help;
      if (arg.kind == calc::ArgKind::Flag) {
        run->options[arg.name] = sub->add_flag(flag, run->flags[arg.name], help);
        continue;
      }
      if (arg.default_value && !arg.default_value->empty()) help += " (default: " + *arg.default_value + ")";
      if (arg.required) help += " (required)";
      CLI::Option* o = sub->add_option(flag, run->text[arg.name], help);
      std::string value = kebab(arg.name);  // --batch BATCH, --model MODEL
      for (char& ch : value)
        ch = ch == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      o->type_name(value);
      if (arg.kind == calc::ArgKind::Choice) o->check(CLI::IsMember(arg.choices));
      run->options[arg.name] = o;
    }
    add_format_options(*sub, *run, spec.has_operators);
    std::string name = spec.name;
    sub->callback([&ctx, opts, run, name]() {
      guarded(ctx, name, [&] {
        calc::Json values = calc::Json::object();
        for (const auto& [key, option] : run->options) {
          if (option->count() == 0) continue;
          auto flag = run->flags.find(key);
          if (flag != run->flags.end())
            values[key] = flag->second;
          else
            values[key] = run->text.at(key);
        }
        calc::Data data(calculations_dir(ctx, *opts));
        calc::Json doc = calc::run_command(data, name, values, std::filesystem::current_path());
        emit(render(doc, run->format), run->output);
        // `hardware --audit` lists the catalog's problems and, like every check, fails when it has any.
        if (doc.is_object() && doc.value("calculation", "") == "hardware-audit") {
          const auto problems = doc["summary"].value("problem_count", std::int64_t{0});
          if (problems > 0) {
            std::cerr << "bookbuild calc hardware: error: the audit found " << problems
                      << " problem(s) in configs/hardware.json\n";
            ctx.exit_code = 1;
          }
        }
      });
    });
  }

  for (const auto& c : calc::calculations()) define_result_command(calc, ctx, opts, c);

  auto reproduce_run = std::make_shared<RunOptions>();
  auto write = std::make_shared<bool>(false);
  CLI::App* reproduce = calc->add_subcommand(
      "reproduce",
      "Recompute every scenario of scenarios/book.json and list the results/ files that are stale; "
      "--write rewrites them and the sha256 manifest");
  add_format_options(*reproduce, *reproduce_run, false);
  reproduce->add_flag("--write", *write, "rewrite the stale files (without it nothing is written)");
  reproduce->callback([&ctx, opts, reproduce_run, write]() {
    guarded(ctx, "reproduce", [&] {
      calc::Data data(calculations_dir(ctx, *opts));
      calc::Json report = calc::reproduce(data, *write);
      emit(render(report, reproduce_run->format), reproduce_run->output);
      for (const auto& e : report["errors"])
        std::cerr << "bookbuild calc reproduce: error: " << e.get<std::string>() << "\n";
      if (!*write)
        for (const auto& f : report["stale"])
          std::cerr << "bookbuild calc reproduce: stale: " << f.get<std::string>() << " (run with --write)\n";
      if (!report["errors"].empty() || (!*write && !report["stale"].empty())) ctx.exit_code = 1;
    });
  });

  auto verify_run = std::make_shared<RunOptions>();
  CLI::App* verify = calc->add_subcommand(
      "verify-results", "Check results/ against the manifest and a fresh computation of every scenario");
  add_format_options(*verify, *verify_run, false);
  verify->callback([&ctx, opts, verify_run]() {
    guarded(ctx, "verify-results", [&] {
      calc::Data data(calculations_dir(ctx, *opts));
      calc::Json report = calc::verify_results(data);
      emit(render(report, verify_run->format), verify_run->output);
      if (!report["summary"]["ok"].get<bool>()) {
        for (const auto& p : report["problems"])
          std::cerr << "bookbuild calc verify-results: " << p.get<std::string>() << "\n";
        ctx.exit_code = 1;
      }
    });
  });
}

}  // namespace bb::cli
