// The reduction of the synchronized-clock method (BcastSummary.hpp): OL from the arrivals, the
// missed windows, the cross-check against OL_i, and the clock model's measured error against
// its bound.
#include <algorithm>
#include <cmath>

#include "bcast/BcastSummary.hpp"
#include "common/PhysicalLimits.hpp"
#include "common/TextFormat.hpp"

namespace pbench::bcast {

using worker::microseconds;
using worker::percent;

void summarise_clock(const BcastMeasurements& m, BcastSummary& out) {
  if (m.method != "sync") return;
  const double bound = m.parameters.clock_error_bound_us * 1e-6;
  std::string where;
  for (std::size_t k = 0; k < m.learned_errors.size(); ++k) {
    if (m.learned_errors[k] > out.clock_error) {
      out.clock_error = m.learned_errors[k];
      where = "right after learning " + std::to_string(k + 1);
    }
  }
  for (std::size_t j = 0; j < m.clocks.size(); ++j) {
    if (m.clocks[j].measured_error > out.clock_error) {
      out.clock_error = m.clocks[j].measured_error;
      where = "rank " + std::to_string(j) + " at the end of the run";
    }
  }
  if (out.clock_error > bound) {
    out.invalid_reasons.push_back(
        "the clock model's measured error " + microseconds(out.clock_error) + " (" + where +
        ") exceeds its bound " + microseconds(bound) +
        " (--clock-error-bound-us): the arrival times on the global clock, and with them the "
        "sync method's OL, may be off by that much (table clock)");
  }
}

void summarise_sync(const BcastMeasurements& m, const SizeMeasurements& sm, SizeSummary& s,
                    BcastSummary& out) {
  const SyncMeasurements& sy = *sm.sync;
  const BcastParameters& p = m.parameters;
  const std::string at = "size " + std::to_string(sm.size) + " B: ";
  SyncSummary z;
  z.window = sy.window;
  z.windows = sy.windows;
  z.spoiled = sy.spoiled;
  z.missed = sy.missed;
  z.predicted_error = sy.predicted_error;
  z.learnings = sy.learnings;
  z.ol = {sy.ol.stats(), sy.ol.stable(m.rule),
          sy.ol.count() * static_cast<std::size_t>(p.repetitions)};
  bool found = false;
  for (int j = 0; j < static_cast<int>(sy.arrivals.size()); ++j) {
    const worker::Stats a = sy.arrivals[static_cast<std::size_t>(j)].stats();
    z.arrivals.push_back(a);
    if (j == p.root || a.count == 0) continue;
    if (!found || a.mean > s.ol) {
      s.ol = a.mean;
      s.ol_task = j;
      found = true;
    }
  }
  if (!found) {
    s.ol = 0;
    out.invalid_reasons.push_back(at +
                                  "every synchronized window was missed by some rank: "
                                  "no arrival was measured");
  }
  std::vector<std::string> disagree;
  for (int task : sy.checked) {
    const auto row =
        std::find_if(s.rows.begin(), s.rows.end(), [&](const OlRow& r) { return r.task == task; });
    if (row == s.rows.end() || task >= static_cast<int>(z.arrivals.size())) continue;
    CheckRow c;
    c.task = task;
    c.sync = z.arrivals[static_cast<std::size_t>(task)].mean;
    c.ol_i = row->ol.mean;
    c.allowed = p.agreement_band * std::abs(c.ol_i) + out.clock_error;
    c.agree = std::abs(c.sync - c.ol_i) <= c.allowed;
    c.random = task == sy.random_task;
    if (!c.agree) {
      disagree.push_back("task " + std::to_string(task) + (c.random ? " (random)" : "") +
                         ": sync " + microseconds(c.sync) + ", OL_i " + microseconds(c.ol_i) +
                         ", apart " + microseconds(std::abs(c.sync - c.ol_i)) + " > " +
                         microseconds(c.allowed));
    }
    z.checks.push_back(c);
  }
  if (!disagree.empty()) {
    out.invalid_reasons.push_back(
        at + "the sync and OL_i methods disagree beyond " + percent(p.agreement_band) +
        " of OL_i plus the clock's measured error " + microseconds(out.clock_error) +
        " (--agreement-band) for " + std::to_string(disagree.size()) + " of " +
        std::to_string(z.checks.size()) + " checked task(s): " +
        worker::few_listed(disagree, worker::kPhysicalListed) + " (table sync_check)");
  }
  if (z.spoiled_share() > p.max_missed_share) {
    std::vector<std::pair<std::int64_t, int>> by_missed;
    for (std::size_t j = 0; j < z.missed.size(); ++j) {
      if (z.missed[j] > 0) by_missed.emplace_back(z.missed[j], static_cast<int>(j));
    }
    std::stable_sort(by_missed.begin(), by_missed.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> ranks;
    for (const auto& [count, rank] : by_missed) {
      ranks.push_back("rank " + std::to_string(rank) + " " + std::to_string(count));
    }
    out.invalid_reasons.push_back(
        at + std::to_string(z.spoiled) + " of " + std::to_string(z.windows) +
        " synchronized windows (" + percent(z.spoiled_share()) +
        ") were missed by some rank, more than --max-missed-share " + percent(p.max_missed_share) +
        " (window " + microseconds(z.window) +
        "; missed most: " + worker::few_listed(ranks, worker::kPhysicalListed) + ")");
  }
  if (z.predicted_error > p.clock_error_bound_us * 1e-6) {
    out.warnings.push_back(
        at + "the clock model's predicted error " + microseconds(z.predicted_error) +
        " exceeded its bound " + microseconds(p.clock_error_bound_us * 1e-6) +
        " at the start of the series (" + std::to_string(z.learnings) + " learning(s) so far)");
  }
  s.sync = std::move(z);
}

}  // namespace pbench::bcast
