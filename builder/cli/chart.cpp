// `bookbuild chart SPEC [--edition E]`: prints one chart's SVG as the book would draw it for an
// edition (the source edition by default), for authors iterating on a chart spec.
#include <CLI/CLI.hpp>

#include <iostream>

#include "book/config.hpp"
#include "cli/book_session.hpp"
#include "cli/calc_evaluator.hpp"
#include "cli/commands.hpp"
#include "filters/charts.hpp"

namespace bb::cli {

namespace fs = std::filesystem;

void define_chart_command(CLI::App* sub, Context& ctx) {
  auto spec = std::make_shared<std::string>();
  auto edition = std::make_shared<std::string>();
  sub->add_option("SPEC", *spec, "The chart spec (a .chart.toml file)")->required()->type_name("FILE");
  sub->add_option("--edition", *edition, "Edition whose words and number format to use (default: the source)")
      ->type_name("E");
  sub->callback([&ctx, spec, edition] {
    BookSession s;
    auto config = book::load_config(ctx.global.book_dir, s.diags);
    const book::Edition* e = nullptr;
    if (config) {
      e = edition->empty() ? &config->source() : config->edition(*edition);
      if (!e)
        s.diags.error({config->config_file.empty() ? config->root : config->config_file, 0, 0},
                      "no edition `" + *edition + "` in this book");
    }
    std::optional<filters::Evaluator> evaluate;
    if (e) {
      try {
        evaluate = make_evaluator(config->calculations);
      } catch (const std::exception& ex) {
        s.diags.error({config->calculations, 0, 0}, std::string("cannot load the calc data: ") + ex.what());
      }
    }
    if (e && !s.diags.has_errors()) {
      auto chart = filters::draw_chart(fs::absolute(*spec), *e, evaluate ? &*evaluate : nullptr, s.diags);
      if (chart && !s.diags.has_errors()) std::cout << chart->svg;
    }
    ctx.exit_code = s.report(ctx);
  });
}

}  // namespace bb::cli
