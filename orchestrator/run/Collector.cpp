#include "run/Collector.hpp"

#include <nlohmann/json.hpp>

#include "ingest/Ingester.hpp"
#include "util/Error.hpp"
#include "util/StderrTail.hpp"

namespace pbench::run {
using store::PointState;

std::string describe_point(const store::PointRecord& point) {
  std::string out = point.worker + " p=" + std::to_string(point.partition);
  const auto params = nlohmann::json::parse(point.params_json, nullptr, false);
  if (!params.is_discarded() && params.contains("queue_depth")) {
    out += " q=" + params["queue_depth"].dump();
  }
  return out + " [" + point.key + "]";
}

CollectReport collect(store::Store& store, const store::SweepRecord& sweep) {
  CollectReport report;
  ingest::Ingester ingester(store);
  for (const auto& point : store.points(sweep.id)) {
    if (!store::is_terminal(point.state)) {
      ++report.pending;
      continue;
    }
    auto attempt = store.latest_attempt(point.id);
    if (!attempt) continue;
    if (point.state != PointState::done) {
      ++report.failed;
      std::string why = store::to_string(point.state);
      if (attempt->exit_status) why += ", exit status " + std::to_string(*attempt->exit_status);
      if (attempt->signal) why += ", signal " + *attempt->signal;
      const std::string tail = telling_line(attempt->stderr_tail.value_or(""));
      report.messages.push_back(describe_point(point) + ": " + why +
                                (tail.empty() ? "" : ": " + tail));
      continue;
    }
    if (store.has_result_for_attempt(attempt->id)) continue;
    try {
      const auto outcome = ingester.ingest_file(attempt->result_path, point.id, attempt->id);
      if (outcome.duplicate) {
        ++report.duplicates;
      } else {
        ++report.stored;
      }
    } catch (const ValidationError& e) {
      ++report.rejected;
      attempt->state = PointState::failed;
      attempt->stderr_tail = std::string("result rejected: ") + e.what();
      store.update_attempt(*attempt);
      store.set_point_state(point.id, PointState::failed);
      report.messages.push_back(describe_point(point) + ": " + e.what());
    }
  }
  return report;
}

}  // namespace pbench::run
