// Chart figures (charts.hpp): the spec read, drawn through the calc evaluator in the edition's
// locale, and its data table placed after the figure.
#include "filters/charts.hpp"

namespace bb::filters {

using doc::Kind;
using doc::Node;
namespace fs = std::filesystem;

bool is_chart_spec(std::string_view path) {
  return path.ends_with(".chart.toml");
}

charts::Environment chart_environment(const book::Edition& edition, const Evaluator* evaluate) {
  charts::Environment env;
  env.edition = edition.id;
  env.lang = edition.lang;
  env.evaluate = [evaluate](const std::string& expr) -> double {
    if (!evaluate) throw std::runtime_error("this book has no calculations/ folder");
    return static_cast<double>((*evaluate)(expr).value());
  };
  env.format = [&edition](double v, const std::string& spec) {
    std::string error;
    auto f = parse_format(spec, error);
    if (!f) throw std::runtime_error(error);
    Number n;
    n.is_integer = false;
    n.real = v;
    return format_number(n, *f, edition.numbers, edition.lang);
  };
  return env;
}

std::optional<charts::Chart> draw_chart(const fs::path& spec, const book::Edition& edition,
                                        const Evaluator* evaluate, Diagnostics& diags) {
  auto s = charts::read_spec(spec, diags);
  if (!s) return std::nullopt;
  return charts::draw(*s, chart_environment(edition, evaluate), diags);
}

namespace {

Node cell(const std::string& text, const SourceLoc& loc) {
  Node c(Kind::TableCell, loc);
  Node t(Kind::Text, loc);
  t.text = text;
  c.children.push_back(std::move(t));
  return c;
}

Node data_table(const charts::DataTable& data, const SourceLoc& loc) {
  Node t(Kind::Table, loc);
  t.extra().classes.emplace_back("chart-data");
  for (std::size_t i = 0; i < data.header.size(); ++i)
    t.rare().aligns.push_back(i == 0 ? doc::Align::Left : doc::Align::Right);
  Node head(Kind::TableRow, loc);
  head.extra().classes.emplace_back("header");
  for (const auto& h : data.header) head.children.push_back(cell(h, loc));
  t.children.push_back(std::move(head));
  for (const auto& row : data.rows) {
    Node r(Kind::TableRow, loc);
    for (std::size_t i = 0; i < data.header.size(); ++i)
      r.children.push_back(cell(i < row.size() ? row[i] : "", loc));
    t.children.push_back(std::move(r));
  }
  return t;
}

class ChartResolver {
 public:
  ChartResolver(const book::Edition& e, const Evaluator* ev, const fs::path& root, Diagnostics& d,
                ChartMemo* memo)
      : env_(chart_environment(e, ev)), root_(root), diags_(d), memo_(memo ? *memo : own_) {}

  // Blocks in `v`: a figure with a chart gets its table after it.
  void blocks(std::vector<Node>& v) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      for (auto& c : v[i].children)
        if (c.is_block()) {
          blocks(v[i].children);
          break;
        }
      if (v[i].kind != Kind::Figure && v[i].kind != Kind::Paragraph) continue;
      for (auto& img : v[i].children) {
        if (img.kind != Kind::Image) continue;
        auto table = draw(img);
        if (table && !table->header.empty()) {
          v.insert(v.begin() + static_cast<std::ptrdiff_t>(i) + 1, data_table(*table, img.loc));
          ++i;
          break;
        }
      }
    }
  }

 private:
  std::optional<charts::DataTable> draw(Node& img) {
    const std::string* asset = img.attr("asset");
    if (!asset || !is_chart_spec(*asset)) return std::nullopt;
    const fs::path file = root_ / *asset;
    std::shared_ptr<const ChartMemo::Drawn> drawn = memo_.find(file.native());
    if (!drawn) {
      auto made = std::make_shared<ChartMemo::Drawn>();
      Diagnostics said;
      {
        // As "parse": each is tagged with this pass's check when it is added below, as if said directly.
        Diagnostics::Scope scope(said, "parse");
        if (auto spec = charts::read_spec(file, said)) made->chart = charts::draw(*spec, env_, said);
      }
      made->said = said.all();
      memo_.keep(file.native(), made);
      drawn = std::move(made);
    }
    for (const Diagnostic& d : drawn->said) diags_.add(d);
    if (!drawn->chart) return std::nullopt;
    img.set_attr("chart-svg", drawn->chart->svg);
    return drawn->chart->table;
  }

  charts::Environment env_;
  const fs::path& root_;
  Diagnostics& diags_;
  ChartMemo own_;  // the chapter's own, when the caller shares none
  ChartMemo& memo_;
};

}  // namespace

std::shared_ptr<const ChartMemo::Drawn> ChartMemo::find(const std::string& spec) const {
  std::lock_guard lock(mutex_);
  auto it = drawn_.find(spec);
  return it == drawn_.end() ? nullptr : it->second;
}

void ChartMemo::keep(const std::string& spec, std::shared_ptr<const Drawn> drawn) {
  std::lock_guard lock(mutex_);
  drawn_.emplace(spec, std::move(drawn));
}

void resolve_charts(book::Chapter& chapter, const book::Edition& edition, const Evaluator* evaluate,
                    const fs::path& root, Diagnostics& diags, ChartMemo* memo) {
  ChartResolver(edition, evaluate, root, diags, memo).blocks(chapter.root.children);
}

}  // namespace bb::filters
