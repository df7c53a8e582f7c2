#include "query/Reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "common/MetricCatalogue.hpp"
#include "query/EnvSelection.hpp"
#include "util/Error.hpp"
#include "util/TextSafety.hpp"

namespace pbench::query {

namespace {

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

std::string ReferenceFigure::figure() const {
  for (const auto& f : figure_names()) {
    if (worker == f.worker && metric == f.metric) return f.figure;
  }
  return worker + "_" + metric;
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
      label_column("figure"),
      label_column("partition", "procs"),
      label_column("label", "link/node"),
      {"value", "", "value", "", 1, 6, "unit"},
      label_column("unit"),
      label_column("tolerance"),
      label_column("n"),
      {"band_low", "", "band low", "", 1, 6, "unit"},
      {"band_high", "", "band high", "", 1, 6, "unit"},
      label_column("valid"),
      reason_column(),
  };
  bool with_env = false;
  for (const auto& f : reference.figures) with_env = with_env || !f.env.empty();
  if (with_env) table.columns.insert(table.columns.begin() + 1, label_column("env"));
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

std::pair<std::int64_t, std::int64_t> reference_runs(const Reference& reference) {
  long long first = reference.run, last = reference.run;
  if (!reference.runs.empty() &&
      std::sscanf(reference.runs.c_str(), "%lld-%lld", &first, &last) != 2) {
    first = last = reference.run;
  }
  return {first, last};
}

}  // namespace pbench::query
