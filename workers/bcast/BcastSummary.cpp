#include "bcast/BcastSummary.hpp"

#include <algorithm>

#include "common/PhysicalLimits.hpp"
#include "common/TextFormat.hpp"

namespace pbench::bcast {

namespace {

Figure figure_of(const MeasurementSeries& series, const StopRule& rule, std::int64_t m) {
  return {series.stats(), series.stable(rule), series.count() * static_cast<std::size_t>(m)};
}

using worker::microseconds;
using worker::percent;

std::string spread(const Figure& f) {
  return percent(f.stats.mean != 0 ? f.stats.stddev / f.stats.mean : 0);
}

/// The figures of `s` that missed the 3% rule, the widest spread first: a few named, their count
/// said, every figure's stability in the table statistics (a reason stays short at any P).
std::optional<std::string> unstable_reason(const SizeSummary& s, const BcastParameters& p) {
  const int root = p.root;
  std::vector<std::pair<double, std::string>> unstable;
  const auto note = [&](const Figure& f, std::string name) {
    if (f.stable) return;
    const double fraction = f.stats.mean != 0 ? f.stats.stddev / f.stats.mean : 0;
    unstable.emplace_back(fraction, std::move(name) + " (" + spread(f) + ")");
  };
  for (std::size_t j = 0; j < s.gaps.size(); ++j) {
    note(s.gaps[j], std::string(static_cast<int>(j) == root ? "send_latency/" : "") +
                        "gap of rank " + std::to_string(j));
  }
  for (const auto& row : s.rows) {
    note(row.rtl, "ol_i task " + std::to_string(row.task) + " rtl");
    note(row.e, "ol_i task " + std::to_string(row.task) + " e_i");
  }
  if (s.sync) note(s.sync->ol, "sync OL");
  note(s.rounds, "rounds_latency");
  note(s.barrier, "barrier_latency");
  note(s.ack, "ack_latency");
  if (unstable.empty()) return std::nullopt;
  std::stable_sort(unstable.begin(), unstable.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> names;
  for (const auto& u : unstable) names.push_back(u.second);
  const std::size_t figures = s.gaps.size() + 2 * s.rows.size() + 3 + (s.sync ? 1 : 0);
  return "the standard deviation stayed at or above 3% of the mean after " +
         std::to_string(p.max_measurements) + " measurements (--max-measurements) for " +
         std::to_string(unstable.size()) + " of " + std::to_string(figures) +
         " figures, the widest first: " + worker::few_listed(names, worker::kPhysicalListed) +
         (names.size() > worker::kPhysicalListed ? " (each figure: table statistics)" : "");
}

}  // namespace

worker::PhysicalLimits physical_limits(const SizeSummary& s) {
  // A broadcast and an acknowledgement cannot take less than half a round trip: an OL_i <= 0
  // means the round trips were disturbed (on a loaded machine, a rank waiting for a core), so
  // that OL_i is no latency and OL, their maximum, may be too low.
  const std::string disturbed = "RTL_i/2 exceeded E_i, the round trips were disturbed";
  worker::PhysicalLimits limits;
  if (s.rows.empty()) return limits;
  const OlRow& top = s.ol_row();
  limits.positive("OL (task " + std::to_string(s.ol_task) + ")", s.ol, "s",
                  s.sync ? "the synchronized windows saw no arrival after their start" : disturbed);
  std::vector<worker::LabelledValue> others, rtl, e;
  for (const auto& row : s.rows) {
    const std::string task = "task " + std::to_string(row.task);
    // With sync, OL is not from the rows: every checked task's OL_i is checked.
    if (s.sync || row.task != top.task) others.push_back({task, row.ol.mean});
    if (row.rtl.stats.count > 0) rtl.push_back({task, row.rtl.stats.mean});
    if (row.e.stats.count > 0) e.push_back({task, row.e.stats.mean});
  }
  limits.positive_each("OL_i", others, "s", disturbed);
  limits.positive_each("RTL_i", rtl, "s");
  limits.positive_each("E_i", e, "s");
  std::vector<worker::LabelledValue> gaps;
  for (std::size_t j = 0; j < s.gaps.size(); ++j) {
    if (s.gaps[j].stats.count > 0)
      gaps.push_back({"rank " + std::to_string(j), s.gaps[j].stats.mean});
  }
  limits.positive_each("broadcast gap g_j", gaps, "s");
  for (const auto& [name, f] : {std::pair<const char*, const Figure*>{"rounds_latency", &s.rounds},
                                {"barrier_latency", &s.barrier},
                                {"ack_latency", &s.ack}}) {
    if (f->stats.count > 0) limits.positive(name, f->stats.mean, "s");
  }
  return limits;
}

PathGap gap_on_path(const std::vector<double>& gaps, const std::vector<int>& path) {
  std::vector<int> ranks = path;
  if (ranks.empty()) {
    for (int j = 0; j < static_cast<int>(gaps.size()); ++j) ranks.push_back(j);
  }
  PathGap out;
  bool first = true;
  for (int j : ranks) {
    if (j < 0 || j >= static_cast<int>(gaps.size())) continue;
    const double g = gaps[static_cast<std::size_t>(j)];
    if (first || g > out.gap) out = {g, j};
    first = false;
  }
  return out;
}

BcastSummary summarise(const BcastMeasurements& m) {
  BcastSummary out;
  const BcastParameters& p = m.parameters;
  for (const auto& deviation : p.deviations()) out.warnings.push_back(deviation);
  if (m.nprocs < 2) {
    out.invalid_reasons.push_back(
        "1 process: there is no task other than the root to broadcast to; nothing was measured "
        "(run with 2 or more processes)");
    return out;
  }
  const double hop = p.hop_delay_us * 1e-6;
  const int root = p.root;
  out.method = m.method;
  summarise_clock(m, out);
  for (const SizeMeasurements& sm : m.sizes) {
    if (sm.tasks.empty()) continue;
    SizeSummary s;
    s.size = sm.size;
    std::vector<std::string> wrong_roots;
    for (std::size_t r = 0; r < sm.delivery_errors.size(); ++r) {
      if (sm.delivery_errors[r] == 0) continue;
      s.delivery_errors += sm.delivery_errors[r];
      wrong_roots.push_back(std::to_string(
          r < sm.delivery_roots.size() ? sm.delivery_roots[r] : static_cast<int>(r)));
    }
    const std::string at = "size " + std::to_string(sm.size) + " B: ";

    std::vector<double> gap_means;
    for (const auto& g : sm.gaps) {
      s.gaps.push_back(figure_of(g, m.rule, p.repetitions));
      gap_means.push_back(g.stats().mean);
    }
    const PathGap largest_gap = gap_on_path(gap_means, {});
    s.max_gap = largest_gap.gap;
    s.max_gap_rank = largest_gap.rank;
    if (root >= 0 && root < static_cast<int>(s.gaps.size()))
      s.send = s.gaps[static_cast<std::size_t>(root)];
    s.rounds = figure_of(sm.rounds, m.rule, p.repetitions);
    s.barrier = figure_of(sm.barrier, m.rule, p.repetitions);
    s.ack = figure_of(sm.ack, m.rule, p.repetitions);

    for (const TaskMeasurements& t : sm.tasks) {
      OlRow row;
      row.task = t.task;
      row.rtl = figure_of(t.rtl, m.rule, p.repetitions);
      row.e = figure_of(t.e, m.rule, p.repetitions);
      std::vector<double> ol;
      const std::size_t n = std::min(t.rtl.count(), t.e.count());
      for (std::size_t k = 0; k < n; ++k)
        ol.push_back(ol_estimate(t.e.values()[k], t.rtl.values()[k]));
      row.ol = worker::describe(ol);
      std::vector<int> path;
      if (m.shape) {
        const int relative = relative_rank(t.task, root, m.nprocs);
        for (int r : m.shape->path(relative)) path.push_back(absolute_rank(r, root, m.nprocs));
        if (hop > 0) row.model = m.shape->model_completion(relative, hop);
      }
      const PathGap largest = gap_on_path(gap_means, path);
      row.gap = largest.gap;
      row.gap_rank = largest.rank;
      row.assumption_holds = assumption_holds(row.e.stats.mean, row.gap);
      s.rows.push_back(row);
    }
    for (std::size_t k = 0; k < s.rows.size(); ++k) {
      if (k == 0 || s.rows[k].ol.mean > s.rows[s.argmax].ol.mean) s.argmax = k;
    }
    s.ol = s.ol_row().ol.mean;
    s.ol_task = s.ol_row().task;
    for (const auto& row : s.rows) {
      if (row.model) s.model_ol = std::max(s.model_ol.value_or(0), *row.model);
    }
    if (sm.sync) summarise_sync(m, sm, s, out);

    // Validity and warnings: first the figures that cannot be (worker::PhysicalLimits).
    for (const auto& reason : physical_limits(s).reasons())
      out.invalid_reasons.push_back(at + reason);
    if (s.delivery_errors > 0) {
      out.invalid_reasons.push_back(at + std::to_string(s.delivery_errors) +
                                    " rank(s) did not receive the root's bytes in the delivery "
                                    "check (from root(s) " +
                                    worker::few_listed(wrong_roots, worker::kPhysicalListed) + ")");
    }
    if (auto reason = unstable_reason(s, p)) out.invalid_reasons.push_back(at + *reason);
    const OlRow& top = s.ol_row();
    // With sync, OL does not rest on an OL_i: a failed assumption only weakens a check.
    if (!top.assumption_holds && !s.sync) {
      out.invalid_reasons.push_back(
          at + "OL rests on task " + std::to_string(top.task) + ", whose E_i " +
          microseconds(top.e.stats.mean) + " does not exceed the broadcast gap " +
          microseconds(top.gap) + " of rank " + std::to_string(top.gap_rank) +
          (m.shape ? " on its path" : " (the largest; the path of MPI_Bcast is unknown)") +
          ": the OL_i method's assumption does not hold, OL may be too high");
    }
    std::vector<std::string> flagged;
    for (const auto& row : s.rows) {
      if (!row.assumption_holds && (s.sync || row.task != top.task))
        flagged.push_back(std::to_string(row.task));
    }
    if (!flagged.empty()) {
      out.warnings.push_back(at + "the assumption check fails for task(s) " +
                             worker::few_listed(flagged, worker::kPhysicalListed) +
                             " (E_i does not exceed the gap on the path): their OL_i may be too "
                             "high; OL, from task " +
                             std::to_string(s.ol_task) + (s.sync ? " by the sync method" : "") +
                             ", is not affected");
    }
    out.sizes.push_back(std::move(s));
  }
  return out;
}

}  // namespace pbench::bcast
