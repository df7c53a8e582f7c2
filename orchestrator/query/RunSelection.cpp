#include "query/RunSelection.hpp"

#include <string_view>

#include <charconv>

#include "util/Error.hpp"

namespace pbench::query {

RunSelection parse_run_selection(const std::string& text) {
  if (text == "latest") return {};
  if (text == "all") return {RunSelection::Kind::all, 0};
  int n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    throw UsageError("--run '" + text + "': give a run number, latest or all");
  }
  if (n < 1) throw UsageError("--run " + text + ": runs are numbered from 1");
  return {RunSelection::Kind::number, n};
}

std::pair<int, int> parse_run_range(const std::string& text, int latest) {
  const auto number = [&](std::string_view part) {
    int n = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), n);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size() || n < 1) {
      throw UsageError("--runs '" + text + "': give a count of runs (the last N) or a range A-B " +
                       "of run numbers from 1");
    }
    return n;
  };
  const auto dash = text.find('-');
  int first = 0, last = 0;
  if (dash == std::string::npos) {
    const int count = number(text);
    if (count > latest) {
      throw UsageError("--runs " + text + ": the sweep has " + std::to_string(latest) +
                       (latest == 1 ? " run" : " runs"));
    }
    first = latest - count + 1;
    last = latest;
  } else {
    first = number(std::string_view(text).substr(0, dash));
    last = number(std::string_view(text).substr(dash + 1));
    if (last < first) throw UsageError("--runs " + text + ": the range ends before it starts");
    if (last > latest) {
      throw UsageError(
          "--runs " + text + ": the sweep has " +
          (latest == 1 ? std::string("run 1 only") : "runs 1 to " + std::to_string(latest)));
    }
  }
  return {first, last};
}

int run_count(store::Store& store, const std::string& sweep) {
  auto s = store.db().prepare(
      "SELECT coalesce(max(r.run_no), 0) FROM runs r JOIN sweeps sw ON sw.id = r.sweep_id "
      "WHERE sw.name = ?1");
  s.bind(1, sweep);
  return s.step() ? static_cast<int>(s.int64(0)) : 0;
}

namespace {
// The most runs any chosen sweep has.
int most_runs(store::Store& store, const std::optional<std::string>& sweep) {
  if (sweep) {
    if (!store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
    return run_count(store, *sweep);
  }
  auto s = store.db().prepare("SELECT coalesce(max(run_no), 0) FROM runs");
  return s.step() ? static_cast<int>(s.int64(0)) : 0;
}

std::string runs_phrase(int runs) {
  return runs == 1 ? "run 1 only" : "runs 1 to " + std::to_string(runs);
}
}  // namespace

QueryTable table_for_runs(store::Store& store, const std::optional<std::string>& sweep,
                          const RunSelection& selection, const std::function<QueryTable()>& table) {
  if (selection.kind == RunSelection::Kind::latest) {
    store.choose_run(store::RunChoice::latest());
    return table();
  }
  const int most = most_runs(store, sweep);
  if (selection.kind == RunSelection::Kind::number) {
    if (selection.number > most) {
      const std::string who = sweep ? "sweep '" + *sweep + "' has " : "the sweeps have ";
      throw UsageError("--run " + std::to_string(selection.number) + ": " + who +
                       runs_phrase(most));
    }
    store.choose_run(store::RunChoice::number(selection.number));
    auto answer = table();
    store.choose_run(store::RunChoice::latest());
    return answer;
  }
  QueryTable all;
  for (int run = 1; run <= most; ++run) {
    store.choose_run(store::RunChoice::number(run));
    auto part = table();
    if (all.columns.empty()) {
      all.columns.push_back({"run", "", "run"});
      all.columns.insert(all.columns.end(), part.columns.begin(), part.columns.end());
      all.notes = part.notes;
    }
    for (auto& row : part.rows) {
      row.insert(row.begin(), Cell(static_cast<std::int64_t>(run)));
      all.rows.push_back(std::move(row));
    }
  }
  store.choose_run(store::RunChoice::latest());
  if (all.columns.empty()) all.columns.push_back({"run", "", "run"});
  return all;
}

}  // namespace pbench::query
