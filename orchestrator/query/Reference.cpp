#include "query/Reference.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "common/MetricCatalogue.hpp"
#include "common/PhysicalLimits.hpp"
#include "query/EnvSelection.hpp"
#include "query/LinksQuery.hpp"
#include "query/SystemQuery.hpp"
#include "util/Error.hpp"
#include "util/TextSafety.hpp"

namespace pbench::query {
namespace {

// A headline figure as a reference names it: its worker and its metric there, the figure's name
// without the worker ("logp_G": logp, G; "b_eff_io": io, b_eff_io); per_partition: one figure
// per partition (logp, bcast, links) instead of one maximum over the sweep (b_eff_io, b_eff);
// labelled: one figure per link ("node1 -> node3") or node of a link matrix (links). Read from
// the metric catalogue, the one definition of the headline figures.
struct FigureName {
  std::string figure;
  std::string worker;
  std::string metric;
  bool per_partition = false;
  std::string unit;
  bool labelled = false;
};

const std::vector<FigureName>& figure_names() {
  static const std::vector<FigureName> names = [] {
    std::vector<FigureName> out;
    for (const auto& m : metrics::catalogue()) {
      if (m.figure.empty() || m.headline == metrics::Headline::legacy ||
          m.headline == metrics::Headline::no) {
        continue;
      }
      const std::string figure(m.figure), prefix = std::string(m.worker) + "_";
      out.push_back({figure, std::string(m.worker),
                     figure.rfind(prefix, 0) == 0 ? figure.substr(prefix.size()) : figure,
                     m.headline != metrics::Headline::maximum, std::string(m.unit),
                     m.headline == metrics::Headline::per_label});
    }
    return out;
  }();
  return names;
}

const FigureName* by_figure(const std::string& figure) {
  for (const auto& f : figure_names()) {
    if (figure == f.figure) return &f;
  }
  return nullptr;
}

// The known worker and metric, or a UsageError naming what is known.
const FigureName& known_figure(const std::string& worker, const std::string& metric,
                               const std::string& where) {
  std::string workers, metrics;
  for (const auto& f : figure_names()) {
    if (workers.find(f.worker) == std::string::npos) {
      workers += (workers.empty() ? "" : ", ") + f.worker;
    }
    if (worker != f.worker) continue;
    if (metric == f.metric) return f;
    metrics += (metrics.empty() ? "" : ", ") + f.metric;
  }
  if (metrics.empty()) {
    throw UsageError(where + ": unknown worker '" + printable_utf8(worker) +
                     "' (known: " + workers + ")");
  }
  throw UsageError(where + ": worker '" + worker + "' has no headline metric '" +
                   printable_utf8(metric) + "' (known: " + metrics + ")");
}

// Units a tolerance may be given in, per base unit of a figure: name -> factor to the base.
const std::map<std::string, std::map<std::string, double>>& unit_factors() {
  static const std::map<std::string, std::map<std::string, double>> units = {
      {"s", {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}}},
      {"s/B", {{"s/B", 1}, {"us/B", 1e-6}, {"ns/B", 1e-9}, {"ps/B", 1e-12}}},
      {"B/s",
       {{"B/s", 1},
        {"kB/s", 1e3},
        {"MB/s", 1e6},
        {"GB/s", 1e9},
        {"KiB/s", 1024.0},
        {"MiB/s", 1048576.0},
        {"GiB/s", 1073741824.0}}},
  };
  return units;
}

std::string text_cell(const Cell& cell) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return "";
}

std::optional<double> number_cell(const Cell& cell) {
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return static_cast<double>(*i);
  return std::nullopt;
}

std::optional<std::int64_t> integer_cell(const Cell& cell) {
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return *i;
  return std::nullopt;
}

// A measured headline figure of the sweep.
struct Measured {
  std::optional<double> value;
  bool valid = false;
  std::string unit;
  std::string reason;  // the first reason, when not valid
};

// A figure's key: its name, partition (per-partition figures), label (link or node) and
// environment (--envs).
using FigureKey = std::tuple<std::string, std::optional<std::int64_t>, std::string, std::string>;

// The headline figures of the sweep (the run the store reads), by figure, partition, label and
// environment; with the figures of every link and node of its link matrices.
std::map<FigureKey, Measured> measured_figures(store::Store& store, const std::string& sweep) {
  const auto table = system_table(store, sweep, {});
  const auto figure = column_index(table, "figure"), value = column_index(table, "value"),
             unit = column_index(table, "unit"), partition = column_index(table, "partition"),
             valid = column_index(table, "valid"), reason = column_index(table, "reason");
  const auto env = find_column(table, "env");
  std::map<FigureKey, Measured> out;
  for (const auto& row : table.rows) {
    const auto* name = by_figure(text_cell(row[figure]));
    if (name == nullptr) continue;
    const auto part = name->per_partition ? integer_cell(row[partition]) : std::nullopt;
    out[{name->figure, part, "", env ? text_cell(row[*env]) : ""}] = {
        number_cell(row[value]), text_cell(row[valid]) == "yes", text_cell(row[unit]),
        text_cell(row[reason])};
  }
  // Each matrix in its environment (--envs): two environments' links are two figures each.
  for (const auto& m : link_matrices(store, sweep)) {
    for (const auto& l : m.bandwidth) {
      out[{"link_bandwidth", m.partition, link_label(l.from, l.to), m.env}] = {l.value, m.valid,
                                                                               "B/s"};
    }
    for (const auto& [node, value] : m.node_bandwidth) {
      out[{"node_bandwidth", m.partition, node, m.env}] = {value, m.valid, "B/s"};
    }
  }
  return out;
}

// "b_eff in env mpich", "bcast_ol at 2 processes", "link_bandwidth node1 -> node2 at 4
// processes": how a figure is named in messages and notes.
std::string figure_label(const std::string& figure, const std::optional<std::int64_t>& partition,
                         const std::string& link, const std::string& env) {
  return figure + (link.empty() ? "" : " " + link) +
         (partition ? " at " + std::to_string(*partition) + " processes" : "") +
         (env.empty() ? "" : " in env " + env);
}

// "regressed nodes and links: node3 (and 6 of its links), node1 -> node2": the nodes that
// regressed with how many of the regressed links they are on, then the links on none of them.
std::string regressed_links_note(const std::vector<std::string>& labels) {
  const std::string arrow = " -> ";
  std::vector<std::string> nodes, links;
  for (const auto& label : labels) {
    (label.find(arrow) == std::string::npos ? nodes : links).push_back(label);
  }
  const auto on = [&](const std::string& link, const std::string& node) {
    const auto at = link.find(arrow);
    return link.substr(0, at) == node || link.substr(at + arrow.size()) == node;
  };
  std::string text;
  for (const auto& node : nodes) {
    int count = 0;
    for (const auto& link : links) count += on(link, node);
    text += (text.empty() ? "" : ", ") + node + " (and " + std::to_string(count) + " of its links)";
  }
  for (const auto& link : links) {
    bool on_node = false;
    for (const auto& node : nodes) on_node = on_node || on(link, node);
    if (!on_node) text += (text.empty() ? "" : ", ") + link;
  }
  return "regressed nodes and links: " + printable_utf8(text);
}

// A value with its unit as the tables show it: B/s in MB/s, s below 1 ms in us, s/B in ns/B.
std::string value_text(double value, const std::string& unit) {
  if (unit == "B/s") return megabytes(value);
  return worker::physical_value_text(value, unit);
}

// Why the band `tolerance` gives `f` cannot fail ("" when it can): a relative tolerance above
// kToleranceCeilingPercent, or a lower limit at or below zero for a figure that cannot be
// (below zero for one that can be zero).
std::string wide_band(const ReferenceFigure& f, const Tolerance& tolerance) {
  const double allowed = tolerance.allowed(f.value), low = f.value - allowed,
               high = f.value + allowed;
  const auto* spec = metrics::find_figure(f.figure());
  const auto bound = spec ? metrics::bound_of(*spec) : metrics::Bound::any;
  std::string why;
  if (tolerance.relative && tolerance.amount > kToleranceCeilingPercent) {
    char ceiling[16];
    std::snprintf(ceiling, sizeof ceiling, "%g%%", kToleranceCeilingPercent);
    why = "tolerance " + tolerance.text + " is above the ceiling of " + ceiling;
  }
  const bool positive = bound == metrics::Bound::positive || bound == metrics::Bound::latency;
  if ((positive && low <= 0) || (bound == metrics::Bound::non_negative && low < 0)) {
    why += (why.empty() ? "" : ", and ") + std::string("its lower limit ") +
           value_text(low, f.unit) + " is " + (positive ? "at or below zero" : "below zero") +
           ", which " + f.figure() + " cannot be";
  }
  if (why.empty()) return "";
  return f.label_text() + ": a band that cannot fail (" + value_text(low, f.unit) + " to " +
         value_text(high, f.unit) + " around " + value_text(f.value, f.unit) + "): " + why;
}

// What would narrow the auto tolerance of a figure whose runs gave `values` (spread `s`) under
// kToleranceCeilingPercent: the tolerance is kAutoSigmas x 1.4826 x MAD, and the MAD (the
// median of the runs' distances from their median) falls under the ceiling's once more than
// half the runs lie within that distance.
std::string narrowing(const FigureSpread& s, const std::vector<double>& values,
                      const std::string& unit) {
  const double within =
      kToleranceCeilingPercent / 100.0 * std::fabs(s.median) / (kAutoSigmas * 1.4826);
  int near = 0;
  for (double v : values) near += std::fabs(v - s.median) <= within;
  const int far = s.n - near;
  const std::string distance = value_text(within, unit);
  std::string out = "; of its n = " + std::to_string(s.n) + " runs (MAD " +
                    value_text(s.mad, unit) + " around a median of " + value_text(s.median, unit) +
                    ") " + std::to_string(near) + " lie within " + distance + " of the median";
  if (near == 0) {
    return out +
           ": no run is steady enough; steadier runs (more repetitions per run, --set) "
           "would narrow it";
  }
  const int more = std::max(1, far - near + 1);
  return out + ": " + std::to_string(more) + " more " + (more == 1 ? "run" : "runs") +
         " as steady would narrow it under the ceiling (pbench reference --runs " +
         std::to_string(s.n + more) + ")";
}

}  // namespace

std::string ReferenceFigure::label_text() const {
  return figure_label(figure(), partition, label, env);
}

std::vector<std::string> wide_bands(const Reference& reference) {
  std::vector<std::string> out;
  for (const auto& f : reference.figures) {
    auto why = wide_band(f, f.tolerance ? *f.tolerance : reference.tolerance);
    if (why.empty()) continue;
    if (f.spread) {
      why += " (from n = " + std::to_string(f.spread->n) + " runs, MAD " +
             value_text(f.spread->mad, f.unit) + ")";
    }
    out.push_back(why);
  }
  return out;
}

namespace {

// After a selection: the warnings of the figures kept only (a warning starts with its figure's
// label_text, a not valid figure is its label_text).
void keep_warnings_of_kept(Reference& reference) {
  const auto kept = [&](const std::string& text, const std::string& after) {
    return std::any_of(reference.figures.begin(), reference.figures.end(), [&](const auto& f) {
      const std::string label = f.label_text() + after;
      return after.empty() ? text == label : text.rfind(label, 0) == 0;
    });
  };
  std::erase_if(reference.wide_bands, [&](const auto& why) { return !kept(why, ":"); });
  std::erase_if(reference.not_valid, [&](const auto& label) { return !kept(label, ""); });
}

}  // namespace

void select_envs(Reference& reference, const std::vector<std::string>& envs) {
  if (envs.empty()) return;
  std::set<std::string> known;
  for (const auto& f : reference.figures) {
    if (!f.env.empty()) known.insert(f.env);
  }
  require_known_envs(reference.sweep, known, envs);
  const auto chosen = [&](const std::string& env) {
    return std::find(envs.begin(), envs.end(), env) != envs.end();
  };
  std::erase_if(reference.figures, [&](const auto& f) { return !chosen(f.env); });
  std::erase_if(reference.definitions, [&](const auto& d) { return !chosen(d.env); });
  keep_warnings_of_kept(reference);
}

void select_figures(Reference& reference, const std::vector<WhereClause>& where) {
  if (where.empty()) return;
  const std::vector<std::string> keys = {"figure", "env", "partition", "label"};
  for (const auto& clause : where) {
    if (std::find(keys.begin(), keys.end(), clause.key) == keys.end()) {
      throw unknown_where_key(clause.key, keys);
    }
  }
  const auto matches = [&](const ReferenceFigure& f) {
    for (const auto& clause : where) {
      Cell cell;
      if (clause.key == "figure") cell = f.figure();
      if (clause.key == "env" && !f.env.empty()) cell = f.env;
      if (clause.key == "partition" && f.partition) cell = *f.partition;
      if (clause.key == "label" && !f.label.empty()) cell = f.label;
      // The older spelling of a figure ("logp g") names it too.
      const auto value =
          clause.key == "figure" ? metrics::figure_spelling(clause.value) : clause.value;
      if (!cell_matches(cell, value)) return false;
    }
    return true;
  };
  auto kept = reference.figures;
  std::erase_if(kept, [&](const auto& f) { return !matches(f); });
  if (kept.empty()) {
    std::string text;
    for (const auto& c : where) text += (text.empty() ? "" : " ") + c.key + "=" + c.value;
    throw UsageError("--where " + printable_utf8(text) + ": no headline figure of sweep '" +
                     printable_utf8(reference.sweep) +
                     "' matches (keys: figure, env, partition, "
                     "label)");
  }
  reference.figures = std::move(kept);
  // The definitions of the workers and environments whose figures are kept.
  std::erase_if(reference.definitions, [&](const auto& d) {
    return std::none_of(reference.figures.begin(), reference.figures.end(),
                        [&](const auto& f) { return f.worker == d.worker && f.env == d.env; });
  });
  keep_warnings_of_kept(reference);
}

std::vector<Definition> definitions_of(store::Store& store, const std::string& sweep, int first,
                                       int last) {
  auto s = store.db().prepare(
      "SELECT DISTINCT worker, coalesce(env, ''), name, value FROM result_settings "
      "WHERE sweep = ?1 AND run BETWEEN ?2 AND ?3 AND value IS NOT NULL "
      "ORDER BY worker, 2, name");
  s.bind(1, sweep).bind(2, std::int64_t{first}).bind(3, std::int64_t{last});
  std::vector<Definition> out;
  while (s.step()) {
    if (out.empty() || out.back().worker != s.text(0) || out.back().env != s.text(1)) {
      out.push_back({s.text(0), s.text(1), {}});
    }
    auto value = nlohmann::json::parse(s.text(3), nullptr, false);
    if (value.is_discarded()) continue;
    auto& values = out.back().settings[s.text(2)];
    if (std::find(values.begin(), values.end(), value) == values.end()) {
      values.push_back(std::move(value));
    }
  }
  return out;
}

std::vector<std::string> changed_settings(const Definition& reference, const Definition& measured) {
  std::vector<std::string> out;
  const auto list = [](const std::vector<nlohmann::json>& values) {
    std::string text;
    for (const auto& v : values) text += (text.empty() ? "" : ", ") + v.dump();
    return text;
  };
  for (const auto& [name, values] : measured.settings) {
    const auto it = reference.settings.find(name);
    if (it == reference.settings.end()) continue;
    std::vector<nlohmann::json> other;
    for (const auto& v : values) {
      if (std::find(it->second.begin(), it->second.end(), v) == it->second.end()) {
        other.push_back(v);
      }
    }
    if (other.empty()) continue;
    out.push_back(
        printable_utf8(name + " = " + list(other) + " (the reference: " + list(it->second) + ")"));
  }
  return out;
}

std::string link_label(const std::string& from, const std::string& to) {
  return from + " -> " + to;
}

double Tolerance::allowed(double reference) const {
  return relative ? std::fabs(reference) * amount / 100.0 : amount;
}

Tolerance parse_tolerance(const std::string& text, const std::string& unit,
                          const std::string& where) {
  const char* begin = text.c_str();
  char* end = nullptr;
  const double amount = std::strtod(begin, &end);
  const auto bad = [&](const std::string& why) {
    return UsageError(where + ": tolerance '" + printable_utf8(text) + "' " + why +
                      " (give a percentage like \"5%\" or an amount with a unit like \"0.2 us\")");
  };
  if (end == begin) throw bad("has no number");
  if (!std::isfinite(amount) || amount < 0) throw bad("is not a finite number >= 0");
  std::string rest(end);
  while (!rest.empty() && rest.front() == ' ') rest.erase(rest.begin());
  while (!rest.empty() && rest.back() == ' ') rest.pop_back();
  Tolerance t;
  t.text = text;
  if (rest == "%") {
    t.relative = true;
    t.amount = amount;
    return t;
  }
  if (rest.empty()) throw bad("has no unit");
  const auto base = unit_factors().find(unit);
  if (base == unit_factors().end())
    throw bad("is absolute, but the figure's unit '" + unit + "' takes a percentage only");
  const auto factor = base->second.find(rest);
  if (factor == base->second.end()) {
    std::string known;
    for (const auto& [name, f] : base->second) known += (known.empty() ? "" : ", ") + name;
    throw bad("has unit '" + printable_utf8(rest) + "', not one of " + known);
  }
  t.relative = false;
  t.amount = amount * factor->second;
  return t;
}

std::string ReferenceFigure::figure() const {
  for (const auto& f : figure_names()) {
    if (worker == f.worker && metric == f.metric) return f.figure;
  }
  return worker + "_" + metric;
}

FigureSpread spread_of(std::vector<double> values) {
  FigureSpread s;
  s.n = static_cast<int>(values.size());
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const auto quantile = [](const std::vector<double>& sorted, double q) {
    const double at = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(at));
    const auto above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
  };
  s.median = quantile(values, 0.5);
  s.p5 = quantile(values, 0.05);
  s.p95 = quantile(values, 0.95);
  std::vector<double> deviations;
  for (double v : values) deviations.push_back(std::fabs(v - s.median));
  std::sort(deviations.begin(), deviations.end());
  s.mad = quantile(deviations, 0.5);
  return s;
}

Tolerance auto_tolerance(const FigureSpread& spread) {
  double percent = kAutoFloorPercent;
  if (spread.median != 0) {
    percent = std::max(percent, kAutoSigmas * spread.sigma() / std::fabs(spread.median) * 100.0);
  }
  // Three significant digits, never in e-notation ("2.5%", "116%", "1040%").
  char text[32];
  std::snprintf(text, sizeof(text), percent >= 100 ? "%.0f%%" : "%.3g%%", percent);
  Tolerance t;
  t.relative = true;
  t.amount = std::strtod(text, nullptr);  // the amount the file will say
  t.text = text;
  return t;
}

Reference reference_over_runs(store::Store& store, const std::string& sweep, int first, int last,
                              const std::optional<Tolerance>& tolerance) {
  const auto record = store.find_sweep(sweep);
  if (!record) throw UsageError("no sweep named '" + sweep + "'");
  const auto runs = store.runs(record->id);
  const int latest = runs.empty() ? 0 : runs.back().run_no;
  if (first < 1 || last < first || last > latest) {
    throw UsageError("--runs " + std::to_string(first) + "-" + std::to_string(last) + ": sweep '" +
                     sweep + "' has " +
                     (latest == 1 ? "run 1 only" : "runs 1 to " + std::to_string(latest)));
  }
  if (!tolerance && last - first + 1 < 3) {
    throw UsageError("--tolerance auto needs a spread: give --runs 3 or more (got " +
                     std::to_string(last - first + 1) + ")");
  }
  // Per figure, the values of the runs, valid ones apart.
  struct Values {
    std::vector<double> valid, all;
    std::string unit;
    std::string reason;  // the latest run's first reason, when it was not valid
  };
  std::map<FigureKey, Values> values;
  Reference reference;
  reference.sweep = sweep;
  for (const auto& run : runs) {
    if (run.run_no < first || run.run_no > last) continue;
    store.choose_run(store::RunChoice::number(run.run_no));
    for (const auto& [key, m] : measured_figures(store, sweep)) {
      auto& v = values[key];
      v.unit = m.unit;
      if (!m.value) continue;
      v.all.push_back(*m.value);
      if (m.valid) v.valid.push_back(*m.value);
      v.reason = m.valid ? "" : m.reason;
    }
    reference.run = run.run_no;
    reference.started_at = run.started_at;
  }
  store.choose_run(store::RunChoice::latest());
  reference.runs = std::to_string(first) + "-" + std::to_string(last);
  // The file's default tolerance: the one given, or auto's floor (each figure has its own).
  char floor_text[16];
  std::snprintf(floor_text, sizeof(floor_text), "%g%%", kAutoFloorPercent);
  reference.tolerance = tolerance ? *tolerance : parse_tolerance(floor_text, "", "auto");
  reference.made = "the median of runs " + reference.runs +
                   " (of the runs with a valid result, n per figure); tolerance " +
                   (tolerance ? tolerance->text
                              : "auto: " + std::to_string(static_cast<int>(kAutoSigmas)) +
                                    " x the robust standard deviation (1.4826 x MAD) of the runs, "
                                    "at least " +
                                    floor_text + " of the median");
  reference.definitions = definitions_of(store, sweep, first, last);
  for (const auto& [key, v] : values) {
    const auto& [figure, partition, link, env] = key;
    const auto* name = by_figure(figure);
    const std::string label = figure_label(figure, partition, link, env);
    if (v.all.empty()) {
      reference.left_out.push_back(label + ": no result in runs " + reference.runs);
      continue;
    }
    const bool valid = !v.valid.empty();
    if (!valid) reference.not_valid.push_back(label);
    const FigureSpread spread = spread_of(valid ? v.valid : v.all);
    ReferenceFigure f{name->worker, name->metric, partition, spread.median,
                      v.unit,       std::nullopt, valid,     valid ? "" : v.reason,
                      link,         spread,       env};
    if (!tolerance) f.tolerance = auto_tolerance(spread);
    if (const auto why = wide_band(f, f.tolerance ? *f.tolerance : reference.tolerance);
        !why.empty()) {
      // With --tolerance auto the spread set the band: say what would narrow it.
      reference.wide_bands.push_back(
          why + (tolerance ? "" : narrowing(spread, valid ? v.valid : v.all, v.unit)));
    }
    reference.figures.push_back(std::move(f));
  }
  return reference;
}

Reference reference_of(store::Store& store, const std::string& sweep, const Tolerance& tolerance) {
  Reference reference;
  reference.sweep = sweep;
  reference.tolerance = tolerance;
  auto run = store.db().prepare(
      "SELECT r.run_no, r.started_at FROM runs r JOIN sweeps sw ON sw.id = r.sweep_id "
      "WHERE sw.name = ?1 AND r.run_no = (SELECT run_no FROM temp.chosen_run "
      "WHERE sweep_id = sw.id)");
  run.bind(1, sweep);
  if (run.step()) {
    reference.run = static_cast<int>(run.int64(0));
    reference.started_at = run.text(1);
  }
  for (const auto& [key, m] : measured_figures(store, sweep)) {
    const auto& [figure, partition, link, env] = key;
    const auto* name = by_figure(figure);
    const std::string label = figure_label(figure, partition, link, env);
    if (!m.value) {
      reference.left_out.push_back(label + ": no result");
      continue;
    }
    if (!m.valid) reference.not_valid.push_back(label);
    reference.figures.push_back({name->worker, name->metric, partition, *m.value, m.unit,
                                 std::nullopt, m.valid, m.valid ? "" : m.reason, link, std::nullopt,
                                 env});
  }
  if (reference.run > 0) {
    reference.definitions = definitions_of(store, sweep, reference.run, reference.run);
  }
  reference.wide_bands = wide_bands(reference);
  return reference;
}

QueryTable reference_table(const Reference& reference) {
  QueryTable table;
  table.columns = {
      {"figure", "", "figure", "", 1, 0},
      {"partition", "", "procs", "", 1, 0},
      {"label", "", "link/node", "", 1, 0},
      {"value", "", "value", "", 1, 6, "unit"},
      {"unit", "", "unit", "", 1, 0},
      {"tolerance", "", "tolerance", "", 1, 0},
      {"n", "", "n", "", 1, 0},
      {"band_low", "", "band low", "", 1, 6, "unit"},
      {"band_high", "", "band high", "", 1, 6, "unit"},
      {"valid", "", "valid", "", 1, 0},
      reason_column(),
  };
  bool with_env = false;
  for (const auto& f : reference.figures) with_env = with_env || !f.env.empty();
  if (with_env) table.columns.insert(table.columns.begin() + 1, {"env", "", "env", "", 1, 0});
  for (const auto& f : reference.figures) {
    const auto& tolerance = f.tolerance ? *f.tolerance : reference.tolerance;
    const double band = tolerance.allowed(f.value);
    std::vector<Cell> row = {f.figure(),
                             f.partition ? Cell{*f.partition} : Cell{},
                             f.label.empty() ? Cell{} : Cell{f.label},
                             f.value,
                             f.unit,
                             tolerance.text,
                             std::int64_t{f.spread ? f.spread->n : 1},
                             f.value - band,
                             f.value + band,
                             std::string(f.valid ? "yes" : "no"),
                             f.reason.empty() ? Cell{} : Cell{f.reason}};
    if (with_env) row.insert(row.begin() + 1, f.env.empty() ? Cell{} : Cell{f.env});
    table.rows.push_back(std::move(row));
  }
  for (const auto& why : reference.left_out) table.notes.push_back("left out: " + why);
  for (const auto& figure : reference.not_valid) {
    table.notes.push_back("from a result that is not valid: " + figure);
  }
  for (const auto& why : reference.wide_bands) table.notes.push_back("warning: " + why);
  return table;
}

std::string to_toml(const Reference& reference) {
  toml::table root;
  root.insert("sweep", reference.sweep);
  root.insert("run", reference.run);
  if (!reference.started_at.empty()) root.insert("run_started_at", reference.started_at);
  if (!reference.runs.empty()) root.insert("runs", reference.runs);
  if (!reference.made.empty()) root.insert("made", reference.made);
  root.insert("tolerance", reference.tolerance.text);
  toml::array figures;
  for (const auto& f : reference.figures) {
    toml::table t;
    t.insert("figure", f.figure());
    if (f.partition) t.insert("partition", *f.partition);
    if (!f.label.empty()) t.insert("label", f.label);
    if (!f.env.empty()) t.insert("env", f.env);
    t.insert("value", f.value);
    t.insert("unit", f.unit);
    if (f.tolerance) t.insert("tolerance", f.tolerance->text);
    if (!f.valid) t.insert("valid", false);
    if (!f.valid && !f.reason.empty()) t.insert("reason", f.reason);
    if (f.spread) {
      t.insert("n", f.spread->n);
      t.insert("mad", f.spread->mad);
      t.insert("p5", f.spread->p5);
      t.insert("p95", f.spread->p95);
    }
    figures.push_back(std::move(t));
  }
  root.insert("figure", std::move(figures));
  // The settings the reference's results ran with: check compares a run's with them.
  toml::array definitions;
  for (const auto& d : reference.definitions) {
    toml::table t;
    t.insert("worker", d.worker);
    if (!d.env.empty()) t.insert("env", d.env);
    toml::table settings;
    for (const auto& [name, values] : d.settings) {
      toml::array list;
      for (const auto& v : values) list.push_back(v.dump());
      settings.insert(name, std::move(list));
    }
    t.insert("settings", std::move(settings));
    definitions.push_back(std::move(t));
  }
  if (!definitions.empty()) root.insert("definition", std::move(definitions));
  std::ostringstream out;
  out << "# pbench reference: the headline figures of a sweep (pbench reference); valid = false\n"
      << "# marks a value from a result that did not meet its method's validity rules.\n"
      << "# Each [[figure]] may have its own tolerance: \"5%\" or an amount with a unit "
         "(\"0.2 us\", \"50 MB/s\").\n"
      << "# [[definition]]: the settings the reference's results ran with, per worker and\n"
      << "# environment (each value as JSON); check calls a run under others a changed "
         "definition.\n"
      << root << "\n";
  return out.str();
}

Reference parse_reference(const std::string& text, const std::string& origin) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw UsageError("reference '" + origin + "' is not TOML (line " + std::to_string(where.line) +
                     ", column " + std::to_string(where.column) +
                     "): " + printable_utf8(e.description()));
  }
  const auto only = [&](const toml::table& table, std::initializer_list<const char*> keys,
                        const std::string& where) {
    for (const auto& [key, node] : table) {
      bool known = false;
      for (const char* k : keys) known = known || key.str() == k;
      if (!known) {
        throw UsageError("reference '" + origin + "'" + where + ": unknown key '" +
                         printable_utf8(key.str()) + "'");
      }
    }
  };
  only(root,
       {"sweep", "run", "run_started_at", "runs", "made", "tolerance", "figure", "definition"}, "");
  Reference reference;
  reference.sweep = root["sweep"].value_or(std::string());
  reference.run = static_cast<int>(root["run"].value_or(std::int64_t{0}));
  reference.started_at = root["run_started_at"].value_or(std::string());
  reference.runs = root["runs"].value_or(std::string());
  reference.made = root["made"].value_or(std::string());
  if (const auto* t = root["tolerance"].as_string()) {
    reference.tolerance = parse_tolerance(t->get(), "", "reference '" + origin + "'");
    if (!reference.tolerance.relative) {
      throw UsageError("reference '" + origin +
                       "': the default tolerance must be a "
                       "percentage; give absolute ones per figure");
    }
  } else if (root.contains("tolerance")) {
    throw UsageError("reference '" + origin + "': tolerance must be a string like \"5%\"");
  }
  const auto* figures = root["figure"].as_array();
  if (figures == nullptr) {
    throw UsageError("reference '" + origin + "' has no [[figure]] entries");
  }
  int index = 0;
  for (const auto& node : *figures) {
    ++index;
    const std::string where = "reference '" + origin + "', figure " + std::to_string(index);
    const auto* t = node.as_table();
    if (t == nullptr) throw UsageError(where + ": not a table");
    only(*t,
         {"figure", "worker", "metric", "partition", "label", "env", "value", "unit", "tolerance",
          "valid", "reason", "n", "mad", "p5", "p95"},
         ", figure " + std::to_string(index));
    ReferenceFigure f;
    // The figure's one name ("logp_EEL"); a file of an older pbench names it by worker and
    // metric ("logp", "EEL").
    const FigureName* named = nullptr;
    if (t->contains("figure")) {
      const auto figure = (*t)["figure"].value<std::string>();
      if (!figure) throw UsageError(where + ": figure must be a string (\"logp_g\")");
      if (t->contains("worker") || t->contains("metric")) {
        throw UsageError(where + ": give figure, or worker and metric (an older file), not both");
      }
      named = by_figure(metrics::figure_spelling(*figure));
      if (named == nullptr) {
        std::string known;
        for (const auto& n : figure_names()) known += (known.empty() ? "" : ", ") + n.figure;
        throw UsageError(where + ": unknown figure '" + printable_utf8(*figure) +
                         "' (known: " + known + ")");
      }
    } else {
      const auto worker = (*t)["worker"].value<std::string>();
      const auto metric = (*t)["metric"].value<std::string>();
      if (!worker || !metric) {
        throw UsageError(where + ": needs figure (a string; an older file: worker and metric)");
      }
      named = &known_figure(*worker, *metric, where);
    }
    const auto& name = *named;
    f.worker = name.worker;
    f.metric = name.metric;
    const auto value = (*t)["value"].value<double>();
    if (!value || !std::isfinite(*value)) throw UsageError(where + ": value must be a number");
    f.value = *value;
    const auto unit = (*t)["unit"].value<std::string>();
    if (!unit) throw UsageError(where + ": needs its unit (a string)");
    if (*unit != name.unit) {
      throw UsageError(where + ": " + name.figure + " is in " + name.unit + ", not '" +
                       printable_utf8(*unit) + "'");
    }
    f.unit = *unit;
    if (name.per_partition) {
      const auto partition = (*t)["partition"].value<std::int64_t>();
      if (!partition || *partition < 1) {
        throw UsageError(where + ": " + name.figure + " needs a partition (processes, >= 1)");
      }
      f.partition = *partition;
    } else if (t->contains("partition")) {
      throw UsageError(where + ": " + name.figure +
                       " is the maximum over partitions; it takes no partition");
    }
    if (name.labelled) {
      const auto label = (*t)["label"].value<std::string>();
      if (!label || label->empty()) {
        throw UsageError(where + ": " + name.figure +
                         " needs a label (the link \"A -> B\" or node)");
      }
      f.label = *label;
    } else if (t->contains("label")) {
      throw UsageError(where + ": " + name.figure + " takes no label");
    }
    if (t->contains("env")) {
      const auto env = (*t)["env"].value<std::string>();
      if (!env || env->empty()) throw UsageError(where + ": env must be an environment's name");
      f.env = *env;
    }
    if (t->contains("tolerance")) {
      const auto tolerance = (*t)["tolerance"].value<std::string>();
      if (!tolerance) throw UsageError(where + ": tolerance must be a string like \"5%\"");
      f.tolerance = parse_tolerance(*tolerance, f.unit, where);
    }
    if (t->contains("valid")) {
      const auto valid = (*t)["valid"].value<bool>();
      if (!valid) throw UsageError(where + ": valid must be true or false");
      f.valid = *valid;
    }
    if (t->contains("reason")) {
      const auto reason = (*t)["reason"].value<std::string>();
      if (!reason) throw UsageError(where + ": reason must be a string");
      if (f.valid) throw UsageError(where + ": a reason goes with valid = false");
      f.reason = *reason;
    }
    if (t->contains("n")) {
      const auto n = (*t)["n"].value<std::int64_t>();
      if (!n || *n < 1) throw UsageError(where + ": n must be a count of runs (>= 1)");
      FigureSpread spread;
      spread.n = static_cast<int>(*n);
      spread.median = f.value;
      for (const auto& [key, field] : {std::pair<const char*, double*>{"mad", &spread.mad},
                                       {"p5", &spread.p5},
                                       {"p95", &spread.p95}}) {
        const auto x = (*t)[key].value<double>();
        if (!x || !std::isfinite(*x)) {
          throw UsageError(where + ": " + key + " must be a number (with n)");
        }
        *field = *x;
      }
      f.spread = spread;
    }
    reference.figures.push_back(std::move(f));
  }
  if (root.contains("definition")) {
    const auto* definitions = root["definition"].as_array();
    if (definitions == nullptr) {
      throw UsageError("reference '" + origin + "': definition must be [[definition]] tables");
    }
    index = 0;
    for (const auto& node : *definitions) {
      ++index;
      const std::string where = "reference '" + origin + "', definition " + std::to_string(index);
      const auto* t = node.as_table();
      if (t == nullptr) throw UsageError(where + ": not a table");
      only(*t, {"worker", "env", "settings"}, ", definition " + std::to_string(index));
      Definition d;
      const auto worker = (*t)["worker"].value<std::string>();
      if (!worker) throw UsageError(where + ": needs worker (a string)");
      d.worker = *worker;
      d.env = (*t)["env"].value_or(std::string());
      const auto* settings = (*t)["settings"].as_table();
      if (settings == nullptr) throw UsageError(where + ": needs settings (a table)");
      for (const auto& [name, values] : *settings) {
        const auto* list = values.as_array();
        if (list == nullptr) {
          throw UsageError(where + ": setting '" + printable_utf8(std::string(name.str())) +
                           "' must be a list of values (JSON texts)");
        }
        auto& out = d.settings[std::string(name.str())];
        for (const auto& v : *list) {
          const auto text = v.value<std::string>();
          auto value = text ? nlohmann::json::parse(*text, nullptr, false)
                            : nlohmann::json(nlohmann::json::value_t::discarded);
          if (value.is_discarded()) {
            throw UsageError(where + ": setting '" + printable_utf8(std::string(name.str())) +
                             "' has a value that is not a JSON text");
          }
          out.push_back(std::move(value));
        }
      }
      reference.definitions.push_back(std::move(d));
    }
  }
  return reference;
}

std::string reason_kind(const std::string& reason) {
  // A number: digits with an optional sign, decimal point and exponent.
  std::string out;
  for (std::size_t i = 0; i < reason.size();) {
    const auto digit = [&](std::size_t k) {
      return k < reason.size() && std::isdigit(static_cast<unsigned char>(reason[k]));
    };
    const bool sign = (reason[i] == '-' || reason[i] == '+') && digit(i + 1) &&
                      (i == 0 || !std::isalnum(static_cast<unsigned char>(reason[i - 1])));
    if (!digit(i) && !sign && !(reason[i] == '.' && digit(i + 1))) {
      out += reason[i++];
      continue;
    }
    if (sign) ++i;
    while (digit(i) || reason[i] == '.') ++i;
    if (i < reason.size() && (reason[i] == 'e' || reason[i] == 'E') &&
        (digit(i + 1) || ((reason[i + 1] == '-' || reason[i + 1] == '+') && digit(i + 2)))) {
      i += 2;
      while (digit(i)) ++i;
    }
    out += '#';
  }
  return out;
}

int CheckResult::exit_code() const {
  if (regressed > 0) return kExitRegressed;
  if (changed_definition > 0) return kExitChangedDefinition;
  if (not_valid > 0 || (strict && not_valid_as_referenced > 0)) return kExitNotValid;
  if (missing > 0) return kExitMissing;
  return 0;
}

std::pair<std::int64_t, std::int64_t> reference_runs(const Reference& reference) {
  long long first = reference.run, last = reference.run;
  if (!reference.runs.empty() &&
      std::sscanf(reference.runs.c_str(), "%lld-%lld", &first, &last) != 2) {
    first = last = reference.run;
  }
  return {first, last};
}

namespace {

/// The points of `sweep` without a result in the run the store reads whose point key has a
/// result in the reference's sweep and run(s), of a worker and environment (and partition, for a
/// figure per partition) the reference has a figure of (those --envs and --where kept): "logp
/// p=2 q=8 [3f2a...]" each.
std::vector<std::string> missing_points(store::Store& store, const std::string& sweep,
                                        const Reference& reference) {
  const auto [first, last] = reference_runs(reference);
  auto s = store.db().prepare(
      "SELECT p.worker, p.partition, p.params_json, p.point_key, c.run_no FROM points p JOIN "
      "sweeps sw ON sw.id = p.sweep_id "
      "JOIN temp.chosen_run c ON c.sweep_id = sw.id "
      "WHERE sw.name = ?1 AND NOT EXISTS (SELECT 1 FROM results r WHERE r.point_id = p.id "
      "AND r.run_no = c.run_no) "
      "AND EXISTS (SELECT 1 FROM points rp JOIN sweeps rs ON rs.id = rp.sweep_id "
      "JOIN results rr ON rr.point_id = rp.id WHERE rs.name = ?2 AND rp.point_key = p.point_key "
      "AND rr.run_no BETWEEN ?3 AND ?4) ORDER BY p.id");
  s.bind(1, sweep).bind(2, reference.sweep).bind(3, first).bind(4, last);
  std::vector<std::string> out;
  while (s.step()) {
    const auto params = nlohmann::json::parse(s.text(2), nullptr, false);
    const std::string env =
        params.is_object() && params.contains("env") && params["env"].is_string()
            ? params["env"].get<std::string>()
            : std::string();
    const bool gated = std::any_of(reference.figures.begin(), reference.figures.end(),
                                   [&](const ReferenceFigure& f) {
                                     return f.worker == s.text(0) && f.env == env &&
                                            (!f.partition || *f.partition == s.int64(1));
                                   });
    if (!gated) continue;
    const std::string point = store::point_label(s.text(0), s.int64(1), s.text(2), s.text(3));
    out.push_back(printable_utf8(point) + ": no result in run " + std::to_string(s.int64(4)));
  }
  return out;
}

}  // namespace

CheckResult check_sweep(store::Store& store, const std::string& sweep, const Reference& reference,
                        const CheckOptions& options) {
  CheckResult result;
  result.strict = options.strict;
  // The run scored: the one the store reads.
  std::int64_t scored_run = 0;
  std::string scored_at;
  {
    auto s = store.db().prepare(
        "SELECT r.run_no, r.started_at FROM runs r JOIN sweeps sw ON sw.id = r.sweep_id "
        "JOIN temp.chosen_run c ON c.sweep_id = sw.id AND c.run_no = r.run_no "
        "WHERE sw.name = ?1");
    s.bind(1, sweep);
    if (s.step()) {
      scored_run = s.int64(0);
      scored_at = s.text(1);
    }
  }
  const auto [first, last] = reference_runs(reference);
  const std::string reference_text =
      "sweep " + printable_utf8(reference.sweep) +
      (reference.runs.empty() ? " run " + std::to_string(reference.run)
                              : ", the median of runs " + printable_utf8(reference.runs)) +
      (reference.started_at.empty() ? "" : " (started " + reference.started_at + ")");
  if (reference.sweep == sweep && scored_run >= first && scored_run <= last &&
      !options.allow_reference_run) {
    throw UsageError("run " + std::to_string(scored_run) + " of sweep '" + sweep +
                     "' is one of the reference's own (" + reference_text +
                     "): scored against itself it passes by construction. Score a later run "
                     "(pbench run " +
                     sweep +
                     " --again), another with --run, or give "
                     "--allow-reference-run");
  }
  // The settings each worker and environment ran with, against the reference's: from the
  // reference file, else (an older file) from the store when it holds the reference's runs.
  auto reference_definitions = reference.definitions;
  bool definitions_known = !reference_definitions.empty();
  if (!definitions_known && store.find_sweep(reference.sweep)) {
    reference_definitions =
        definitions_of(store, reference.sweep, static_cast<int>(first), static_cast<int>(last));
    definitions_known = !reference_definitions.empty();
  }
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> changed;
  for (const auto& m :
       definitions_of(store, sweep, static_cast<int>(scored_run), static_cast<int>(scored_run))) {
    for (const auto& r : reference_definitions) {
      if (r.worker != m.worker || r.env != m.env) continue;
      auto differ = changed_settings(r, m);
      if (!differ.empty()) changed[{m.worker, m.env}] = std::move(differ);
    }
  }
  bool with_env = false;
  for (const auto& f : reference.figures) with_env = with_env || !f.env.empty();
  auto& table = result.table;
  table.columns = {
      {"figure", "", "figure", "", 1, 0},
      {"partition", "", "procs", "", 1, 0},
      {"reference", "", "reference", "", 1, 6, "unit"},
      {"measured", "", "measured", "", 1, 6, "unit"},
      {"unit", "", "unit", "", 1, 0},
      {"ratio", "", "ratio", "", 1, 4},
      {"tolerance", "", "tolerance", "", 1, 0},
      // The runs the reference value is the median of (1: one run), and the band it allows.
      {"n", "", "n", "", 1, 0},
      {"band_low", "", "band low", "", 1, 6, "unit"},
      {"band_high", "", "band high", "", 1, 6, "unit"},
      {"better", "", "better", "", 1, 0},
      {"verdict", "", "verdict", "", 1, 0},
      // The link ("node1 -> node3") or node of a link matrix's figure; empty for the others.
      {"label", "", "link/node", "", 1, 0},
  };
  // A reference of a sweep made with --envs: each figure's environment after its name.
  if (with_env) table.columns.insert(table.columns.begin() + 1, {"env", "", "env", "", 1, 0});
  const auto measured = measured_figures(store, sweep);
  std::vector<std::string> regressed_labels;  // links and nodes that regressed
  std::vector<std::string> regressed_figures;
  for (const auto& f : reference.figures) {
    const std::string figure = f.figure();
    const auto* spec = metrics::find_figure(figure);
    const auto better = spec ? spec->better : metrics::Better::higher;
    const auto& tolerance = f.tolerance ? *f.tolerance : reference.tolerance;
    const double band = tolerance.allowed(f.value);
    std::vector<Cell> row = {figure,
                             f.partition ? Cell{*f.partition} : Cell{},
                             f.value,
                             Cell{},
                             f.unit,
                             Cell{},
                             tolerance.text,
                             std::int64_t{f.spread ? f.spread->n : 1},
                             f.value - band,
                             f.value + band,
                             std::string(metrics::to_string(better)),
                             Cell{},
                             f.label};
    const auto it = measured.find({figure, f.partition, f.label, f.env});
    std::string verdict;
    if (it == measured.end() || !it->second.value) {
      verdict = "missing";
      ++result.missing;
    } else {
      const double value = *it->second.value;
      row[3] = value;
      if (f.value != 0) row[5] = value / f.value;
      if (!it->second.unit.empty() && it->second.unit != f.unit) {
        throw UsageError("reference figure " + figure + " is in " + f.unit +
                         ", the sweep measures it in " + printable_utf8(it->second.unit));
      }
      const double allowed = tolerance.allowed(f.value);
      const double gain = better == metrics::Better::lower ? f.value - value : value - f.value;
      const bool as_referenced = !it->second.valid && !f.valid && !f.reason.empty() &&
                                 reason_kind(it->second.reason) == reason_kind(f.reason);
      if (changed.count({f.worker, f.env})) {
        // Measured under other settings: not the reference's figure, whatever its value.
        verdict = "changed definition";
        ++result.changed_definition;
      } else if (as_referenced && gain >= -allowed) {
        // As in the reference (a rehearsal with quick settings; a method the machine cannot
        // meet), and no worse: said, and a failure only with --strict. Worse is regressed.
        verdict = "not valid (as referenced)";
        ++result.not_valid_as_referenced;
      } else if (!it->second.valid && !as_referenced) {
        verdict = "not valid";
        ++result.not_valid;
      } else if (gain < -allowed) {
        verdict = "regressed";
        ++result.regressed;
      } else if (gain > allowed) {
        verdict = "improved";
        ++result.improved;
      } else {
        verdict = "pass";
        ++result.passed;
      }
    }
    row[11] = verdict;
    if (verdict == "regressed" && !f.label.empty()) regressed_labels.push_back(f.label);
    if (verdict == "regressed" && f.label.empty()) regressed_figures.push_back(f.label_text());
    if (with_env) row.insert(row.begin() + 1, f.env.empty() ? Cell{} : Cell{f.env});
    table.rows.push_back(std::move(row));
  }
  // Every point the reference measured and this run has no result for, whatever the figures
  // say: a best-of figure read from another point is not the same figure.
  const auto points = missing_points(store, sweep, reference);
  result.missing_points = static_cast<int>(points.size());
  result.missing += result.missing_points;
  for (const auto& point : points) {
    table.notes.push_back("missing: " + point + " (the reference's run has one)");
  }
  table.notes.push_back("scored: sweep " + sweep + " run " + std::to_string(scored_run) +
                        (scored_at.empty() ? "" : ", started " + scored_at));
  table.notes.push_back(
      std::to_string(result.passed) + " pass, " + std::to_string(result.improved) +
      " improved beyond tolerance, " + std::to_string(result.regressed) + " regressed, " +
      std::to_string(result.changed_definition) + " changed definition, " +
      std::to_string(result.missing) + " missing, " + std::to_string(result.not_valid) +
      " not valid, " + std::to_string(result.not_valid_as_referenced) +
      " not valid as referenced (the same reason; a failure with --strict only) (reference: " +
      reference_text + ")");
  if (!regressed_figures.empty()) {
    std::string text;
    for (const auto& r : regressed_figures) text += (text.empty() ? "" : ", ") + r;
    table.notes.push_back("regressed: " + text);
  }
  if (!regressed_labels.empty()) table.notes.push_back(regressed_links_note(regressed_labels));
  for (const auto& [key, differ] : changed) {
    std::string text;
    for (const auto& d : differ) text += (text.empty() ? "" : "; ") + d;
    table.notes.push_back("changed definition: " + key.first +
                          (key.second.empty() ? "" : " in env " + key.second) +
                          " ran under other settings than the reference: " + text +
                          ". Its figures are not the reference's (verdict 'changed definition', "
                          "exit 13): make a reference of the new definition, or run the old one");
  }
  if (!definitions_known && !reference.figures.empty()) {
    table.notes.push_back(
        "settings not compared: the reference records none (a file of an older pbench) and the "
        "store does not hold its sweep's runs");
  }
  for (const auto& why : wide_bands(reference)) table.notes.push_back("warning: " + why);
  if (result.missing_points > 0) {
    table.notes.push_back(std::to_string(result.missing_points) +
                          (result.missing_points == 1 ? " point" : " points") +
                          " of the reference without a result in this run: counted as missing");
  }
  if (!options.strict && result.not_valid_as_referenced > 0) {
    table.notes.push_back(std::to_string(result.not_valid_as_referenced) + " of " +
                          std::to_string(reference.figures.size()) +
                          " figures are not valid, as in the reference: they pass the gate "
                          "without --strict, which fails them (exit 11)");
  }
  return result;
}

}  // namespace pbench::query
