#include "query/Reference.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <tuple>

#include <toml++/toml.h>
#include <nlohmann/json.hpp>

#include "common/MetricCatalogue.hpp"
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

std::size_t column(const QueryTable& table, const std::string& key) {
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].key == key) return i;
  }
  throw UsageError("the headline table has no column '" + key + "'");
}

// A measured headline figure of the sweep.
struct Measured {
  std::optional<double> value;
  bool valid = false;
  std::string unit;
  std::string reason;  // the first reason, when not valid
};

// A figure's key: its name, partition (per-partition figures) and label (link or node).
using FigureKey = std::tuple<std::string, std::optional<std::int64_t>, std::string>;

// The headline figures of the sweep (the run the store reads), by figure, partition and label;
// with the figures of every link and node of its link matrices.
std::map<FigureKey, Measured> measured_figures(store::Store& store, const std::string& sweep) {
  const auto table = system_table(store, sweep, {});
  const auto figure = column(table, "figure"), value = column(table, "value"),
             unit = column(table, "unit"), partition = column(table, "partition"),
             valid = column(table, "valid"), reason = column(table, "reason");
  std::map<FigureKey, Measured> out;
  for (const auto& row : table.rows) {
    const auto* name = by_figure(text_cell(row[figure]));
    if (name == nullptr) continue;
    const auto part = name->per_partition ? integer_cell(row[partition]) : std::nullopt;
    out[{name->figure, part, ""}] = {number_cell(row[value]), text_cell(row[valid]) == "yes",
                                     text_cell(row[unit]), text_cell(row[reason])};
  }
  for (const auto& m : link_matrices(store, sweep)) {
    for (const auto& l : m.bandwidth) {
      out[{"link_bandwidth", m.partition, link_label(l.from, l.to)}] = {l.value, m.valid, "B/s"};
    }
    for (const auto& [node, value] : m.node_bandwidth) {
      out[{"node_bandwidth", m.partition, node}] = {value, m.valid, "B/s"};
    }
  }
  return out;
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

}  // namespace

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
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g%%", percent);
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
  for (const auto& [key, v] : values) {
    const auto& [figure, partition, link] = key;
    const auto* name = by_figure(figure);
    const std::string label = figure + (link.empty() ? "" : " " + link) +
                              (partition ? " at " + std::to_string(*partition) + " processes" : "");
    if (v.all.empty()) {
      reference.left_out.push_back(label + ": no result in runs " + reference.runs);
      continue;
    }
    const bool valid = !v.valid.empty();
    if (!valid) reference.not_valid.push_back(label);
    const FigureSpread spread = spread_of(valid ? v.valid : v.all);
    ReferenceFigure f{name->worker, name->metric, partition, spread.median,
                      v.unit,       std::nullopt, valid,     valid ? "" : v.reason,
                      link,         spread};
    if (!tolerance) f.tolerance = auto_tolerance(spread);
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
    const auto& [figure, partition, link] = key;
    const auto* name = by_figure(figure);
    const std::string label = figure + (link.empty() ? "" : " " + link) +
                              (partition ? " at " + std::to_string(*partition) + " processes" : "");
    if (!m.value) {
      reference.left_out.push_back(label + ": no result");
      continue;
    }
    if (!m.valid) reference.not_valid.push_back(label);
    reference.figures.push_back({name->worker, name->metric, partition, *m.value, m.unit,
                                 std::nullopt, m.valid, m.valid ? "" : m.reason, link});
  }
  return reference;
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
    t.insert("worker", f.worker);
    t.insert("metric", f.metric);
    if (f.partition) t.insert("partition", *f.partition);
    if (!f.label.empty()) t.insert("label", f.label);
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
  std::ostringstream out;
  out << "# pbench reference: the headline figures of a sweep (pbench reference); valid = false\n"
      << "# marks a value from a result that did not meet its method's validity rules.\n"
      << "# Each [[figure]] may have its own tolerance: \"5%\" or an amount with a unit "
         "(\"0.2 us\", \"50 MB/s\").\n"
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
  only(root, {"sweep", "run", "run_started_at", "runs", "made", "tolerance", "figure"}, "");
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
         {"worker", "metric", "partition", "label", "value", "unit", "tolerance", "valid", "reason",
          "n", "mad", "p5", "p95"},
         ", figure " + std::to_string(index));
    ReferenceFigure f;
    const auto worker = (*t)["worker"].value<std::string>();
    const auto metric = (*t)["metric"].value<std::string>();
    if (!worker || !metric) throw UsageError(where + ": needs worker and metric (strings)");
    const auto& name = known_figure(*worker, *metric, where);
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
  if (not_valid > 0 || (strict && not_valid_as_referenced > 0)) return kExitNotValid;
  if (missing > 0) return kExitMissing;
  return 0;
}

namespace {

/// The reference's runs as a range: "3-7", or its one run.
std::pair<std::int64_t, std::int64_t> reference_runs(const Reference& reference) {
  long long first = reference.run, last = reference.run;
  if (!reference.runs.empty() &&
      std::sscanf(reference.runs.c_str(), "%lld-%lld", &first, &last) != 2) {
    first = last = reference.run;
  }
  return {first, last};
}

/// The points of `sweep` without a result in the run the store reads whose point key has a
/// result in the reference's sweep and run(s): "logp p=2 q=8 [3f2a...]" each.
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
    const std::string point = store::point_label(s.text(0), s.int64(1), s.text(2), s.text(3));
    out.push_back(printable_utf8(point) + ": no result in run " + std::to_string(s.int64(4)));
  }
  return out;
}

}  // namespace

CheckResult check_sweep(store::Store& store, const std::string& sweep, const Reference& reference,
                        bool strict) {
  CheckResult result;
  result.strict = strict;
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
  const auto measured = measured_figures(store, sweep);
  std::vector<std::string> regressed_labels;  // links and nodes that regressed
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
    const auto it = measured.find({figure, f.partition, f.label});
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
      if (as_referenced && gain >= -allowed) {
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
  table.notes.push_back(
      std::to_string(result.passed) + " pass, " + std::to_string(result.improved) +
      " improved beyond tolerance, " + std::to_string(result.regressed) + " regressed, " +
      std::to_string(result.missing) + " missing, " + std::to_string(result.not_valid) +
      " not valid, " + std::to_string(result.not_valid_as_referenced) +
      " not valid as referenced (the same reason; a failure with --strict only) (reference: "
      "sweep " +
      printable_utf8(reference.sweep) +
      (reference.runs.empty() ? " run " + std::to_string(reference.run)
                              : ", the median of runs " + printable_utf8(reference.runs)) +
      ")");
  if (!regressed_labels.empty()) table.notes.push_back(regressed_links_note(regressed_labels));
  if (result.missing_points > 0) {
    table.notes.push_back(std::to_string(result.missing_points) +
                          (result.missing_points == 1 ? " point" : " points") +
                          " of the reference without a result in this run: counted as missing");
  }
  if (!strict && result.not_valid_as_referenced > 0) {
    table.notes.push_back(std::to_string(result.not_valid_as_referenced) + " of " +
                          std::to_string(reference.figures.size()) +
                          " figures are not valid, as in the reference: they pass the gate "
                          "without --strict, which fails them (exit 11)");
  }
  return result;
}

}  // namespace pbench::query
