#include "query/CheckResult.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "common/MetricCatalogue.hpp"
#include "query/HeadlineFigures.hpp"
#include "util/Error.hpp"
#include "util/TextSafety.hpp"

namespace pbench::query {

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

namespace {

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

// The run scored (the one the store reads): its number and start.
std::pair<std::int64_t, std::string> scored_run_of(store::Store& store, const std::string& sweep) {
  auto s = store.db().prepare(
      "SELECT r.run_no, r.started_at FROM runs r JOIN sweeps sw ON sw.id = r.sweep_id "
      "JOIN temp.chosen_run c ON c.sweep_id = sw.id AND c.run_no = r.run_no "
      "WHERE sw.name = ?1");
  s.bind(1, sweep);
  if (s.step()) return {s.int64(0), s.text(1)};
  return {0, ""};
}

// "sweep nightly, the median of runs 3-7 (started ...)": the reference as the notes name it.
std::string reference_text_of(const Reference& reference) {
  return "sweep " + printable_utf8(reference.sweep) +
         (reference.runs.empty() ? " run " + std::to_string(reference.run)
                                 : ", the median of runs " + printable_utf8(reference.runs)) +
         (reference.started_at.empty() ? "" : " (started " + reference.started_at + ")");
}

using ChangedSettings = std::map<std::pair<std::string, std::string>, std::vector<std::string>>;

// The settings each worker and environment of the scored run ran with, against the reference's:
// from the reference file, else (an older file) from the store when it holds the reference's
// runs. `known` says whether there was anything to compare with.
ChangedSettings changed_definitions(store::Store& store, const std::string& sweep,
                                    const Reference& reference, std::int64_t scored_run,
                                    bool& known) {
  const auto [first, last] = reference_runs(reference);
  auto reference_definitions = reference.definitions;
  known = !reference_definitions.empty();
  if (!known && store.find_sweep(reference.sweep)) {
    reference_definitions =
        definitions_of(store, reference.sweep, static_cast<int>(first), static_cast<int>(last));
    known = !reference_definitions.empty();
  }
  ChangedSettings changed;
  for (const auto& m :
       definitions_of(store, sweep, static_cast<int>(scored_run), static_cast<int>(scored_run))) {
    for (const auto& r : reference_definitions) {
      if (r.worker != m.worker || r.env != m.env) continue;
      auto differ = changed_settings(r, m);
      if (!differ.empty()) changed[{m.worker, m.env}] = std::move(differ);
    }
  }
  return changed;
}

std::vector<QueryColumn> check_columns() {
  return {
      label_column("figure"),
      label_column("partition", "procs"),
      {"reference", "", "reference", "", 1, 6, "unit"},
      {"measured", "", "measured", "", 1, 6, "unit"},
      label_column("unit"),
      {"ratio", "", "ratio", "", 1, 4},
      label_column("tolerance"),
      // The runs the reference value is the median of (1: one run), and the band it allows.
      label_column("n"),
      {"band_low", "", "band low", "", 1, 6, "unit"},
      {"band_high", "", "band high", "", 1, 6, "unit"},
      label_column("better"),
      label_column("verdict"),
      // The link ("node1 -> node3") or node of a link matrix's figure; empty for the others.
      label_column("label", "link/node"),
  };
}

// The verdict of reference figure `f` against its measured value (`measured`, nullptr when the
// sweep has none), counted in `result`; the measured value and ratio go into `row`.
std::string verdict_of(const ReferenceFigure& f, const Tolerance& tolerance,
                       const MeasuredFigure* measured, bool changed, metrics::Better better,
                       std::vector<Cell>& row, CheckResult& result) {
  if (measured == nullptr || !measured->value) {
    ++result.missing;
    return "missing";
  }
  const double value = *measured->value;
  row[3] = value;
  if (f.value != 0) row[5] = value / f.value;
  if (!measured->unit.empty() && measured->unit != f.unit) {
    throw UsageError("reference figure " + f.figure() + " is in " + f.unit +
                     ", the sweep measures it in " + printable_utf8(measured->unit));
  }
  const double allowed = tolerance.allowed(f.value);
  const double gain = better == metrics::Better::lower ? f.value - value : value - f.value;
  const bool as_referenced = !measured->valid && !f.valid && !f.reason.empty() &&
                             reason_kind(measured->reason) == reason_kind(f.reason);
  if (changed) {
    // Measured under other settings: not the reference's figure, whatever its value.
    ++result.changed_definition;
    return "changed definition";
  }
  if (as_referenced && gain >= -allowed) {
    // As in the reference (a rehearsal with quick settings; a method the machine cannot meet),
    // and no worse: said, and a failure only with --strict. Worse is regressed.
    ++result.not_valid_as_referenced;
    return "not valid (as referenced)";
  }
  if (!measured->valid && !as_referenced) {
    ++result.not_valid;
    return "not valid";
  }
  if (gain < -allowed) {
    ++result.regressed;
    return "regressed";
  }
  if (gain > allowed) {
    ++result.improved;
    return "improved";
  }
  ++result.passed;
  return "pass";
}

// What the figures' verdicts regressed: figures and the links and nodes of link matrices.
struct Regressions {
  std::vector<std::string> labels;  // links and nodes
  std::vector<std::string> figures;
};

// One row per reference figure, with its verdict.
Regressions score_figures(store::Store& store, const std::string& sweep, const Reference& reference,
                          const ChangedSettings& changed, bool with_env, CheckResult& result) {
  const auto measured = measured_figures(store, sweep);
  Regressions regressions;
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
    const std::string verdict =
        verdict_of(f, tolerance, it == measured.end() ? nullptr : &it->second,
                   changed.count({f.worker, f.env}) > 0, better, row, result);
    row[11] = verdict;
    if (verdict == "regressed") {
      (f.label.empty() ? regressions.figures : regressions.labels)
          .push_back(f.label.empty() ? f.label_text() : f.label);
    }
    if (with_env) row.insert(row.begin() + 1, f.env.empty() ? Cell{} : Cell{f.env});
    result.table.rows.push_back(std::move(row));
  }
  return regressions;
}

// The counts line, the regressions and the changed definitions.
void add_outcome_notes(const CheckResult& result, const Regressions& regressions,
                       const ChangedSettings& changed, const std::string& reference_text,
                       std::vector<std::string>& notes) {
  notes.push_back(
      std::to_string(result.passed) + " pass, " + std::to_string(result.improved) +
      " improved beyond tolerance, " + std::to_string(result.regressed) + " regressed, " +
      std::to_string(result.changed_definition) + " changed definition, " +
      std::to_string(result.missing) + " missing, " + std::to_string(result.not_valid) +
      " not valid, " + std::to_string(result.not_valid_as_referenced) +
      " not valid as referenced (the same reason; a failure with --strict only) (reference: " +
      reference_text + ")");
  if (!regressions.figures.empty()) {
    std::string text;
    for (const auto& r : regressions.figures) text += (text.empty() ? "" : ", ") + r;
    notes.push_back("regressed: " + text);
  }
  if (!regressions.labels.empty()) notes.push_back(regressed_links_note(regressions.labels));
  for (const auto& [key, differ] : changed) {
    std::string text;
    for (const auto& d : differ) text += (text.empty() ? "" : "; ") + d;
    notes.push_back("changed definition: " + key.first +
                    (key.second.empty() ? "" : " in env " + key.second) +
                    " ran under other settings than the reference: " + text +
                    ". Its figures are not the reference's (verdict 'changed definition', "
                    "exit 13): make a reference of the new definition, or run the old one");
  }
}

}  // namespace

CheckResult check_sweep(store::Store& store, const std::string& sweep, const Reference& reference,
                        const CheckOptions& options) {
  CheckResult result;
  result.strict = options.strict;
  const auto [scored_run, scored_at] = scored_run_of(store, sweep);
  const auto [first, last] = reference_runs(reference);
  const std::string reference_text = reference_text_of(reference);
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
  bool definitions_known = false;
  const auto changed = changed_definitions(store, sweep, reference, scored_run, definitions_known);
  bool with_env = false;
  for (const auto& f : reference.figures) with_env = with_env || !f.env.empty();
  auto& table = result.table;
  table.columns = check_columns();
  // A reference of a sweep made with --envs: each figure's environment after its name.
  if (with_env) table.columns.insert(table.columns.begin() + 1, label_column("env"));
  const auto regressions = score_figures(store, sweep, reference, changed, with_env, result);
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
  add_outcome_notes(result, regressions, changed, reference_text, table.notes);
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
