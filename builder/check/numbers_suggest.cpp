// Proposing bindings for typed numbers (see numbers_suggest.hpp).
#include "check/numbers_suggest.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "calc/engine.hpp"
#include "calc/error.hpp"
#include "check/results_check.hpp"
#include "filters/calc_numbers.hpp"
#include "filters/number_format.hpp"

namespace bb::check {
namespace fs = std::filesystem;

namespace {

// What a value measures, from its field name; a typed number is only compared with values of its family.
enum class Family { Bytes, Flops, FlopRate, ByteRate, Seconds, TokenRate, Ratio, Count, None };

Family family_of_field(const std::string& path) {
  std::string f = path.substr(path.rfind('.') + 1);
  auto ends = [&](const char* s) { return f.size() >= std::string(s).size() && f.ends_with(s); };
  if (f == "tera_ops_per_second" || path.ends_with(")") /* peak(...) */) return Family::FlopRate;
  if (ends("flops_per_second")) return Family::FlopRate;
  if (ends("bytes_per_second")) return Family::ByteRate;
  if (ends("tokens_per_second")) return Family::TokenRate;
  if (ends("_bytes") || f == "bytes") return Family::Bytes;
  if (ends("flops")) return Family::Flops;
  if (ends("_seconds") || f == "seconds") return Family::Seconds;
  if (ends("efficiency") || ends("fraction") || ends("utilization") || ends("ratio") || ends("share"))
    return Family::Ratio;
  return Family::Count;
}

Family family_of_unit(const std::string& unit) {
  if (unit == "%") return Family::Ratio;
  if (unit.ends_with("FLOP/s")) return Family::FlopRate;
  if (unit.ends_with("FLOPs")) return Family::Flops;
  if (unit.ends_with("B/s")) return Family::ByteRate;
  if (unit == "tok/s") return Family::TokenRate;
  if (unit == "s" || unit == "ms" || unit == "μs" || unit == "ns") return Family::Seconds;
  if (unit.ends_with("B") || unit == "bytes") return Family::Bytes;
  return Family::None;
}

struct Candidate {
  long double value;
  std::string expr;
  Family family;
  std::string scenario;  // empty for catalogue facts
};

// Every numeric leaf of a result, addressed by key (list items by their name field; unnamed items skipped).
void leaves(const calc::Json& j, const std::string& path, const std::string& scenario,
            std::vector<Candidate>& out) {
  if (j.is_number()) {
    if (j.is_number_float() && !std::isfinite(j.get<double>())) return;
    long double v = j.is_number_float() ? j.get<double>() : static_cast<long double>(j.get<std::int64_t>());
    out.push_back({v, path, family_of_field(path), scenario});
  } else if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (k == "sources" || k == "assumptions" || k == "notes") continue;
      leaves(v, path + "." + k, scenario, out);
    }
  } else if (j.is_array()) {
    for (const auto& item : j) {
      if (!item.is_object()) continue;
      for (const char* key : {"id", "name", "variant", "phase"})
        if (item.contains(key) && item[key].is_string()) {
          leaves(item, path + "[" + item[key].get<std::string>() + "]", scenario, out);
          break;
        }
    }
  }
}

// `summary.` is implied in expressions: the shorter spelling is the one authors write.
std::string shorten(const std::string& expr) {
  auto at = expr.find(".summary.");
  if (at == std::string::npos || expr.find('.') != at) return expr;
  return expr.substr(0, at) + expr.substr(at + 8);
}

std::vector<Candidate> candidates(calc::Engine& engine, const fs::path& calculations) {
  std::vector<Candidate> out;
  for (const auto& s : engine.scenarios()) {
    try {
      leaves(engine.scenario_result(s.id), s.id, s.id, out);
    } catch (const calc::Error&) {
      // a scenario that does not compute offers nothing; `check numbers` reports it
    }
  }
  for (auto& c : out) c.expr = shorten(c.expr);
  calc::Data data(calculations);
  for (const auto& id : data.model_ids())
    for (const auto& [k, v] : data.model(id).config.items())
      if (v.is_number_integer())
        out.push_back(
            {static_cast<long double>(v.get<std::int64_t>()), "model(" + id + ")." + k, Family::Count, ""});
  for (const auto& dev : data.hardware()["devices"]) {
    std::string id = dev.value("id", "");
    const auto& mem = dev.value("memory", calc::Json::object());
    if (mem.contains("bandwidth_bytes_per_second") && mem["bandwidth_bytes_per_second"].is_number())
      out.push_back({mem["bandwidth_bytes_per_second"].get<double>(),
                     "hardware(" + id + ").memory.bandwidth_bytes_per_second", Family::ByteRate, ""});
    for (const auto& row : dev.value("peak_rates", calc::Json::array()))
      if (row.contains("tera_ops_per_second") && row["tera_ops_per_second"].is_number())
        out.push_back({row["tera_ops_per_second"].get<double>() * 1e12L,
                       "hardware(" + id + ").peak(" + row.value("input_precision", "") + ", " +
                           row.value("accumulator_precision", "") + ", " + row.value("execution_unit", "") +
                           ", " + row.value("sparsity", "") + ")",
                       Family::FlopRate, ""});
  }
  // tera_ops_per_second fields in results are already in 1e12 units.
  for (auto& c : out)
    if (c.expr.ends_with("tera_ops_per_second")) c.value *= 1e12L;
  return out;
}

bool is_tera(const std::string& expr) {
  return expr.ends_with("tera_ops_per_second") || expr.ends_with(")");
}

int significant_digits(const std::string& literal) {
  int n = 0;
  bool leading = true;
  for (char c : literal) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      if (c == ' ' || (static_cast<unsigned char>(c) >= 0x80 && n > 0)) break;
      continue;
    }
    if (c == '0' && leading) continue;
    leading = false;
    ++n;
  }
  return n;
}

// The field names a count noun can be bound to: "36 layers" -> fields containing "layers"; a token
// count is a scenario's tokens, history, length, prompt or prefix hit; cards are cards or participants.
std::vector<std::string> count_field_stems(const std::string& text) {
  static const std::pair<const char*, std::vector<std::string>> stems[] = {
      {"layer", {"layers"}},
      {"层", {"layers"}},
      {"層", {"layers"}},
      {"сло", {"layers"}},
      {"head", {"heads"}},
      {"头", {"heads"}},
      {"頭", {"heads"}},
      {"голов", {"heads"}},
      {"expert", {"experts"}},
      {"专家", {"experts"}},
      {"專家", {"experts"}},
      {"эксперт", {"experts"}},
      {"request", {"batch"}},
      {"请求", {"batch"}},
      {"請求", {"batch"}},
      {"запрос", {"batch"}},
      {"sequence", {"batch"}},
      {"bit", {"bits"}},
      {"位", {"bits"}},
      {"бит", {"bits"}},
      {"GPU", {"cards", "participants"}},
      {"card", {"cards", "participants"}},
      {"卡", {"cards", "participants"}},
      {"карт", {"cards", "participants"}},
      {"token", {"tokens", "history", "length", "prompt", "prefix_hit"}},
      {"токен", {"tokens", "history", "length", "prompt", "prefix_hit"}}};
  for (const auto& [noun, list] : stems)
    if (text.find(noun) != std::string::npos) return list;
  return {};
}

// Counts of a model's structure, which its config states directly.
bool is_structure(const std::vector<std::string>& stems) {
  return !stems.empty() && (stems[0] == "layers" || stems[0] == "heads" || stems[0] == "experts");
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The model id of `model(<id>).field`, else empty.
std::string model_of(const std::string& expr) {
  if (!expr.starts_with("model(")) return {};
  return expr.substr(6, expr.find(')') - 6);
}

}  // namespace

SuggestReport suggest_bindings(const book::Book& book, Diagnostics& diags, calc::Engine* shared) {
  SuggestReport report;
  if (!fs::is_directory(book.config.calculations)) {
    diags.error({book.config.calculations, 0, 0}, "--suggest needs the book's calculations folder");
    return report;
  }
  std::optional<calc::Engine> own;  // only when the caller has no engine (the one the numbers came from)
  calc::Engine& engine = shared ? *shared : own.emplace(book.config.calculations);
  auto all = candidates(engine, book.config.calculations);
  AuditWords words = load_audit_words(book.config.calculations, diags);
  for (const auto& eb : book.editions)
    for (const auto& ch : eb.chapters) {
      // A value with several sources is bound to the one the text is about: a scenario cited nearest
      // to the number (the same paragraph first, then the chapter), the model the line names.
      std::map<std::string, std::vector<int>> cited;  // scenario -> lines that cite it
      // A book that types its numbers cites its scenarios by links to their result files, often in a
      // footnote: the note cites them wherever it is referenced.
      // (A link the book cannot turn into a URL stays as a span that keeps its target in `href`.)
      auto linked = [](const doc::Node& n) -> std::string {
        if (n.kind == doc::Kind::Link) return scenario_of_link(n.url());
        const std::string* href = n.kind == doc::Kind::Span ? n.attr("href") : nullptr;
        return href ? scenario_of_link(*href) : std::string();
      };
      std::map<std::string, std::vector<std::string>> note_cites;
      doc::walk(ch.root, [&](const doc::Node& n) {
        if (std::string e = filters::computed_expression(n); !e.empty())
          cited[e.substr(0, e.find('.'))].push_back(n.loc.line);
        if (std::string id = linked(n); !id.empty()) cited[id].push_back(n.loc.line);
        if (n.kind == doc::Kind::FootnoteDef)
          doc::walk(n, [&](const doc::Node& m) {
            if (std::string id = linked(m); !id.empty()) note_cites[n.text].push_back(id);
          });
      });
      doc::walk(ch.root, [&](const doc::Node& n) {
        if (n.kind == doc::Kind::FootnoteRef)
          for (const auto& id : note_cites[n.text]) cited[id].push_back(n.loc.line);
      });
      std::vector<std::string> source_lines;
      {
        std::ifstream in(ch.path, std::ios::binary);
        for (std::string l; std::getline(in, l);) source_lines.push_back(lower(l));
      }
      for (const auto& u : find_unbound_numbers(ch, eb.edition, words)) {
        ++report.typed;
        auto lit = filters::parse_literal(u.text, eb.edition.numbers);
        Family fam = Family::Count;
        std::string literal = u.text;
        long double scale = 1;
        int decimals = 0;
        long double value = 0;
        if (lit && lit->unit) {
          fam = family_of_unit(lit->unit->name);
          scale = lit->unit->scale;
          decimals = lit->decimals;
          value = lit->value;
        } else {
          // A count ("36 layers"): the digits alone are bound.
          auto digits = filters::parse_literal(
              u.text.substr(0, u.text.find_first_not_of("0123456789.,\u00A0\u202F ")), eb.edition.numbers);
          if (!digits || digits->decimals > 0) continue;
          literal = u.text.substr(0, u.text.find_first_not_of("0123456789.,"));
          while (!literal.empty() && literal.back() == ',') literal.pop_back();
          value = digits->value;
        }
        if (fam == Family::None || value == 0 || u.text.find("×") != std::string::npos) continue;
        ++report.readable;
        // Too coarse to identify a source: fewer than three significant digits of a measurement
        // ("20 μs", "128 KiB") matches dozens of unrelated values.
        if (fam != Family::Count && significant_digits(literal) < 3) continue;
        std::vector<std::string> stems =
            fam == Family::Count ? count_field_stems(u.text) : std::vector<std::string>{};
        if (fam == Family::Count && stems.empty()) continue;
        auto stem_ok = [&](const std::string& expr) {
          if (stems.empty()) return true;
          std::string field = expr.substr(expr.rfind('.') + 1);
          for (const auto& st : stems)
            if (field.find(st) != std::string::npos) return true;
          return false;
        };
        long double tol = 0.5L * std::pow(10.0L, -decimals);
        std::vector<const Candidate*> hits;
        for (const auto& c : all)
          if (c.family == fam && c.value != 0 && std::fabs(c.value / scale - value) <= tol * (1 + 1e-12L) &&
              stem_ok(c.expr))
            hits.push_back(&c);
        if (hits.empty()) continue;
        const std::string line =
            u.loc.line >= 1 && static_cast<std::size_t>(u.loc.line) <= source_lines.size()
                ? source_lines[u.loc.line - 1]
                : std::string();
        // Lines between the number and the nearest citation of the candidate's scenario (a large
        // number when the chapter never cites it).
        auto distance = [&](const Candidate* c) {
          int best = 1 << 20;
          if (auto it = cited.find(c->scenario); it != cited.end())
            for (int l : it->second) best = std::min(best, std::abs(l - u.loc.line));
          return best;
        };
        bool structure = is_structure(stems);
        // A bare count matches many unrelated values: a scenario's count is only proposed when the
        // chapter cites that scenario.
        if (fam == Family::Count && !structure)
          std::erase_if(hits, [&](const Candidate* c) { return distance(c) == 1 << 20; });
        if (hits.empty()) continue;
        // The models the line is about: named in it, or computed by a scenario it cites.
        std::set<std::string> line_models;
        for (const auto& [id, lines] : cited)
          if (std::find(lines.begin(), lines.end(), u.loc.line) != lines.end()) try {
              const auto& r = engine.scenario_result(id);
              if (r.contains("model") && r["model"].is_string())
                line_models.insert(r["model"].get<std::string>());
            } catch (const calc::Error&) {
              // not computable: `check numbers` reports it
            }
        auto rank = [&](const Candidate* c) {
          std::string model = model_of(c->expr);
          // Structure counts ("36 layers") are the config's, of the model the line is about, and
          // its `num_…` field (num_hidden_layers, not max_window_layers that happens to be equal).
          int named = structure && !model.empty() &&
                              (line.find(model) != std::string::npos || line_models.count(model))
                          ? 0
                          : 1;
          int fact = structure ? (model.empty() ? 1 : 0) : 0;
          int num = c->expr.substr(c->expr.rfind('.') + 1).starts_with("num_") ? 0 : 1;
          // Counts the text states are a scenario's inputs before anything it computes from them.
          int input = fam == Family::Count && c->expr.find(".scenario.") == std::string::npos ? 1 : 0;
          return std::make_tuple(named, fact, num, distance(c), input, c->expr.size());
        };
        std::stable_sort(hits.begin(), hits.end(),
                         [&](const Candidate* a, const Candidate* b) { return rank(a) < rank(b); });
        // A span attribute cannot hold braces (`weights[model.layers.{layer}...]`).
        std::erase_if(hits,
                      [](const Candidate* c) { return c->expr.find_first_of("{}") != std::string::npos; });
        if (hits.empty()) continue;
        Suggestion s{u, literal, hits.front()->expr, {}};
        // Peaks are stored in TFLOP/s: the bound literal is the bare number before "TFLOP/s".
        if (is_tera(s.expr)) {
          if (!lit || !lit->unit || lit->unit->name != "TFLOP/s") continue;
          s.literal = u.text.substr(0, u.text.find_last_of("0123456789") + 1);
        }
        for (std::size_t i = 1; i < hits.size() && s.other.size() < 5; ++i)
          if (hits[i]->expr != s.expr) s.other.push_back(hits[i]->expr);
        report.suggestions.push_back(std::move(s));
      }
    }
  return report;
}

std::vector<ManuscriptEdit> suggestion_edits(const SuggestReport& report) {
  std::vector<ManuscriptEdit> edits;
  for (const auto& s : report.suggestions) {
    std::string expr = s.expr.find(' ') == std::string::npos ? s.expr : "\"" + s.expr + "\"";
    edits.push_back({s.number.loc, s.literal, "[" + s.literal + "]{calc=" + expr + "}"});
  }
  return edits;
}

}  // namespace bb::check
