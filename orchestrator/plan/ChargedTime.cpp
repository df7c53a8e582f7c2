#include "plan/ChargedTime.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "util/Time.hpp"

namespace pbench::run {

std::map<std::string, JobCharge> parse_sacct(const std::string& output) {
  std::map<std::string, JobCharge> out;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::istringstream parts(line);
    for (std::string field; std::getline(parts, field, '|');) fields.push_back(field);
    if (fields.size() < 3 || fields[0].empty()) continue;
    try {
      const double seconds = std::stod(fields[1]);
      const int nodes = std::stoi(fields[2]);
      if (seconds >= 0 && nodes > 0) out[fields[0]] = {seconds, nodes};
    } catch (const std::exception&) {
      // A line that is not a job's (a heading, a step): not a charge.
    }
  }
  return out;
}

std::map<std::string, JobCharge> sacct_charges(process::ProcessRunner& runner,
                                               const std::vector<std::string>& job_ids) {
  if (job_ids.empty() || !process::command_exists("sacct")) return {};
  std::string list;
  for (const auto& id : job_ids) list += (list.empty() ? "" : ",") + id;
  try {
    const auto result =
        runner.run({"sacct", "-n", "-P", "-X", "-j", list, "-o", "JobIDRaw,ElapsedRaw,NNodes"},
                   std::chrono::seconds(30));
    if (result.exit_code != 0) return {};
    return parse_sacct(result.out);
  } catch (const std::exception&) {
    return {};  // no accounting: the jobs' own times
  }
}

std::vector<std::string> run_job_ids(store::Store& store, const store::SweepRecord& sweep,
                                     int run_no) {
  std::vector<std::string> ids;
  for (const auto& point : store.points(sweep.id)) {
    for (const auto& a : store.attempts(point.id)) {
      if (a.run_no == run_no && a.job_id &&
          std::find(ids.begin(), ids.end(), *a.job_id) == ids.end()) {
        ids.push_back(*a.job_id);
      }
    }
  }
  return ids;
}

std::vector<ChargedRow> charged_rows(store::Store& store, const store::SweepRecord& sweep,
                                     int run_no, const CostPlan& plan,
                                     const std::map<std::string, JobCharge>& accounting) {
  std::vector<ChargedRow> rows;
  const auto points = store.points(sweep.id);
  // A job that ran several points (packed) is charged once for all: its points by their own
  // times instead.
  std::map<std::string, int> points_of_job;
  for (const auto& point : points) {
    for (const auto& a : store.attempts(point.id)) {
      if (a.run_no == run_no && a.job_id) ++points_of_job[*a.job_id];
    }
  }
  for (std::size_t i = 0; i < points.size() && i < plan.points.size(); ++i) {
    const auto& planned = plan.points[i];
    auto it = std::find_if(rows.begin(), rows.end(), [&](const ChargedRow& r) {
      return r.worker == planned.worker && r.partition == planned.partition.text();
    });
    if (it == rows.end()) {
      rows.push_back({planned.worker, planned.partition.text(), 0, 0, 0, 0, ""});
      it = std::prev(rows.end());
    }
    ++it->points;
    it->planned_node_hours += planned.nodes * planned.seconds / 3600;
    // The latest attempt of the run with an end: by the accounting where it knows the job.
    std::optional<store::AttemptRecord> last;
    for (const auto& a : store.attempts(points[i].id)) {
      if (a.run_no == run_no && a.started_at && a.ended_at) last = a;
    }
    if (!last) continue;
    std::string from = "the jobs' own times";
    double node_hours = planned.nodes * seconds_between(*last->started_at, *last->ended_at) / 3600;
    if (last->job_id && points_of_job[*last->job_id] == 1) {
      if (const auto charge = accounting.find(*last->job_id); charge != accounting.end()) {
        node_hours = charge->second.nodes * charge->second.seconds / 3600;
        from = "sacct";
      }
    }
    ++it->charged_points;
    it->charged_node_hours += node_hours;
    if (it->charged_from.find(from) == std::string::npos) {
      it->charged_from += (it->charged_from.empty() ? "" : ", ") + from;
    }
  }
  return rows;
}

}  // namespace pbench::run
