#include "collect/Collector.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "ingest/Ingester.hpp"
#include "ingest/ResultChecksum.hpp"
#include "site/MachineFigures.hpp"
#include "store/PointLabel.hpp"
#include "store/ResultLayout.hpp"
#include "sweep/SweepSpec.hpp"
#include "sweepdir/Envelope.hpp"
#include "sweepdir/SweepRuns.hpp"
#include "util/Error.hpp"
#include "util/NodeList.hpp"
#include "util/StderrTail.hpp"

namespace pbench::run {

std::string failed_point_line(const store::PointRecord& point, const store::AttemptRecord& attempt,
                              const std::string& where) {
  std::string why = store::to_string(point.state);
  if (attempt.exit_status) why += ", exit status " + std::to_string(*attempt.exit_status);
  if (attempt.signal) why += ", signal " + *attempt.signal;
  // What the scheduler knows when the job itself said nothing ("exit marker unreadable").
  if (!attempt.exit_status && !attempt.signal && attempt.native_state) {
    why += ": " + *attempt.native_state;
  }
  const std::string tail = telling_line(attempt.stderr_tail.value_or(""));
  return describe_point(point) + ": " + why + where + (tail.empty() ? "" : ": " + tail);
}
using store::PointState;

namespace {

/// How a failed attempt's record begins when collect refused its result document.
constexpr const char* kRejectedPrefix = "result rejected: ";
/// The widest allocation a collect message names (a longer host list ends in "and N more").
constexpr std::size_t kAllocationWidth = 40;

// A worker that stopped on an error (a full file system, say) may have written a result with
// what it measured before, marked not valid with the reason. It is stored so that nothing
// measured is lost; a document from a failed run that claims to be valid is not. Returns what
// the collect message adds ("" when there was no document).
void record_allocation(store::Store& store, const store::AttemptRecord& attempt,
                       std::int64_t result_id);

std::string store_partial_result(store::Store& store, ingest::Ingester& ingester,
                                 const store::AttemptRecord& attempt, std::int64_t point_id,
                                 const ingest::AttemptIdentity& identity, CollectReport& report) {
  std::ifstream in(attempt.result_path, std::ios::binary);
  if (!in) return "";
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().empty()) return "";
  try {
    if (auto edited = ingest::ResultChecksum::edited(attempt.result_path, text.str());
        !edited.empty()) {
      throw ValidationError("result '" + attempt.result_path + "': " + edited + ": not stored");
    }
    const auto document = ingest::parse_and_validate(text.str(), attempt.result_path);
    if (document["validity"]["valid"].get<bool>()) {
      return "; its result document says it is valid, so it was not stored";
    }
    const auto outcome =
        ingester.ingest_text(text.str(), attempt.result_path, point_id, attempt.id, &identity);
    if (!outcome.duplicate) record_allocation(store, attempt, outcome.result_id);
    ingest::ResultChecksum::record(attempt.result_path, text.str());
    ++report.partial;
    if (!outcome.launch.empty()) {
      ++report.mislaunched;
      return "; its partial result is stored, not valid: " + outcome.launch;
    }
    return "; its partial result (not valid) is stored";
  } catch (const ValidationError& e) {
    return std::string("; its result document was not stored: ") + e.what();
  }
}

// The nodes the scheduler gave an attempt's job (its job.env's node list, expanded), beside the
// result: where the ranks ran is the result's own node_list.
void record_allocation(store::Store& store, const store::AttemptRecord& attempt,
                       std::int64_t result_id) {
  const auto hosts = allocated_hosts(attempt.job_dir);
  if (hosts.empty()) return;
  std::string joined;
  for (const auto& host : hosts) joined += (joined.empty() ? "" : ",") + host;
  store.set_result_allocation(result_id, joined);
}

/// What the attempt expects its result to name (ingest/AttemptIdentity.hpp): its sweep, point
/// and directory, the nonce its job recorded, and the worker arguments its point fixed.
ingest::AttemptIdentity identity_of(const store::SweepRecord& sweep,
                                    const store::PointRecord& point,
                                    const store::AttemptRecord& attempt) {
  ingest::AttemptIdentity identity;
  identity.sweep = sweep.name;
  identity.point = point.key;
  identity.attempt = std::filesystem::path(attempt.job_dir).filename().string();
  if (!attempt.job_dir.empty()) {
    const auto env = read_job_env(attempt.job_dir);
    if (const auto it = env.find("PBENCH_NONCE"); it != env.end()) identity.nonce = it->second;
  }
  // The arguments as the point's job script got them (SweepPlanner: sweep::worker_arguments);
  // none to hold the document to when the stored parameters are not a planned point's.
  const auto params = nlohmann::json::parse(point.params_json, nullptr, false);
  if (params.is_object()) {
    try {
      sweep::Point fixed;
      fixed.key = point.key;
      fixed.worker = point.worker;
      fixed.partition = sweep::Partition::of_point(point.partition, params);
      fixed.params = params;
      identity.arguments = sweep::worker_arguments(fixed);
    } catch (const std::exception&) {
      identity.arguments.clear();
    }
  }
  return identity;
}

}  // namespace

std::string findings_text(const CollectReport& report) {
  std::string out;
  const auto add = [&out](int count, const char* what) {
    if (count > 0) out += ", " + std::to_string(count) + " " + what;
  };
  add(report.mislaunched, "not launched as asked (stored not valid)");
  add(report.impossible, "with figures that cannot be (stored not valid)");
  add(report.not_its_point, "that ran with other arguments than their points (stored not valid)");
  add(report.breaks_rules,
      "that said valid against their own parameters or figures (stored not valid)");
  add(report.rejected_earlier, "failed because an earlier collect refused their result");
  return out;
}

namespace {

/// Stores the result of a finished attempt. `latest`: the point's state follows it (a refused
/// document fails the point); an earlier attempt's refusal is said and leaves the point as it is.
void collect_done_attempt(store::Store& store, ingest::Ingester& ingester,
                          const store::SweepRecord& sweep, const store::PointRecord& point,
                          store::AttemptRecord attempt, bool latest, CollectReport& report) {
  const std::string which = latest ? ""
                                   : " (attempt " + std::to_string(attempt.attempt_no) + ", run " +
                                         std::to_string(attempt.run_no) + ")";
  try {
    const auto identity = identity_of(sweep, point, attempt);
    const auto outcome = ingester.ingest_file(attempt.result_path, point.id, attempt.id, &identity);
    if (outcome.duplicate) {
      ++report.duplicates;
      return;
    }
    ++report.stored;
    record_allocation(store, attempt, outcome.result_id);
    if (!outcome.launch.empty()) {
      ++report.mislaunched;
      report.messages.push_back(describe_point(point) + which +
                                ": stored not valid: " + outcome.launch);
    }
    if (!outcome.arguments.empty()) {
      ++report.not_its_point;
      report.messages.push_back(describe_point(point) + which +
                                ": stored not valid: not its point's run: " + outcome.arguments);
    }
    if (!outcome.impossible.empty()) {
      ++report.impossible;
      report.messages.push_back(describe_point(point) + which +
                                ": stored not valid: its document says valid, but " +
                                outcome.impossible);
    }
    if (!outcome.rules.empty()) {
      ++report.breaks_rules;
      report.messages.push_back(describe_point(point) + which +
                                ": stored not valid: its document says valid, but " +
                                outcome.rules);
    }
    if (auto reason = store.partial_reason(outcome.result_id)) {
      ++report.deadline_partial;
      report.messages.push_back(describe_point(point) + which + ": " + *reason);
    }
  } catch (const ValidationError& e) {
    ++report.rejected;
    attempt.state = PointState::failed;
    attempt.stderr_tail = std::string(kRejectedPrefix) + e.what();
    store.update_attempt(attempt);
    if (latest) store.set_point_state(point.id, PointState::failed);
    report.messages.push_back(describe_point(point) + which + ": " + e.what());
  }
}

}  // namespace

CollectReport collect_done_points(store::Store& store, const store::SweepRecord& sweep,
                                  const std::set<std::int64_t>& point_ids) {
  CollectReport report;
  if (point_ids.empty()) return report;
  ingest::Ingester ingester(store);
  ingester.set_machine_peaks(site::sweep_bandwidth_peaks(sweep.spec_json));
  for (const auto& point : store.points(sweep.id)) {
    if (point.state != PointState::done || point_ids.count(point.id) == 0) continue;
    const auto attempt = store.latest_attempt(point.id);
    if (!attempt || attempt->state != PointState::done ||
        store.has_result_for_attempt(attempt->id)) {
      continue;
    }
    collect_done_attempt(store, ingester, sweep, point, *attempt, true, report);
  }
  return report;
}

void merge_reports(CollectReport& report, const CollectReport& earlier) {
  report.stored += earlier.stored;
  report.duplicates += earlier.duplicates;
  report.rejected += earlier.rejected;
  // Their points failed when refused: this collect counted them as refused earlier.
  report.rejected_earlier = std::max(0, report.rejected_earlier - earlier.rejected);
  report.deadline_partial += earlier.deadline_partial;
  report.mislaunched += earlier.mislaunched;
  report.impossible += earlier.impossible;
  report.not_its_point += earlier.not_its_point;
  report.breaks_rules += earlier.breaks_rules;
  report.messages.insert(report.messages.begin(), earlier.messages.begin(), earlier.messages.end());
}

CollectReport collect(store::Store& store, const store::SweepRecord& sweep,
                      schedulers::Scheduler* scheduler) {
  CollectReport report;
  ingest::Ingester ingester(store);
  ingester.set_machine_peaks(site::sweep_bandwidth_peaks(sweep.spec_json));
  // The nodes of the failed points' jobs, asked about once for all of them.
  std::map<std::string, std::string> unavailable;
  if (scheduler != nullptr) {
    std::set<std::string> hosts;
    for (const auto& point : store.points(sweep.id)) {
      if (!store::is_terminal(point.state) || point.state == PointState::done) continue;
      const auto attempt = store.latest_attempt(point.id);
      if (!attempt) continue;
      const auto allocated = allocated_hosts(attempt->job_dir);
      if (allocated.size() > 1) hosts.insert(allocated.begin(), allocated.end());
    }
    if (!hosts.empty()) unavailable = scheduler->unavailable_nodes({hosts.begin(), hosts.end()});
  }
  for (const auto& point : store.points(sweep.id)) {
    auto attempts = store.attempts(point.id);
    // Every finished attempt before the latest (a run submitted again before this one was
    // collected, a retried failure, a driver's takeover): nothing finished is left unstored.
    for (std::size_t i = 0; i + 1 < attempts.size(); ++i) {
      const auto& earlier = attempts[i];
      if (!store::is_terminal(earlier.state) || store.has_result_for_attempt(earlier.id)) continue;
      if (earlier.state == PointState::done) {
        collect_done_attempt(store, ingester, sweep, point, earlier, false, report);
      } else if (earlier.state == PointState::failed) {
        const int stored_before = report.partial;
        const auto partial = store_partial_result(store, ingester, earlier, point.id,
                                                  identity_of(sweep, point, earlier), report);
        if (report.partial > stored_before) {
          report.messages.push_back(describe_point(point) + " (attempt " +
                                    std::to_string(earlier.attempt_no) + ")" + partial);
        }
      }
    }
    if (!store::is_terminal(point.state)) {
      ++report.pending;
      continue;
    }
    if (attempts.empty()) continue;
    auto& attempt = attempts.back();
    if (point.state != PointState::done) {
      ++report.failed;
      std::string where;
      if (attempt.stderr_tail && attempt.stderr_tail->rfind(kRejectedPrefix, 0) == 0) {
        ++report.rejected_earlier;
      }
      // Where it ran: a node that died under a job of many nodes is among these, and the
      // telling line of its stderr (the launcher's "lost communication with ... on node node7")
      // usually names it.
      const auto hosts = allocated_hosts(attempt.job_dir);
      if (hosts.size() > 1) {
        where += ", on " + compress_node_list(hosts, kAllocationWidth);
        std::string named;
        for (const auto& host : hosts) {
          if (const auto it = unavailable.find(host); it != unavailable.end()) {
            named += (named.empty() ? "; " : ", ") + host + " " + it->second;
          }
        }
        where += named;
      }
      std::string partial;
      if (point.state == PointState::failed && !store.has_result_for_attempt(attempt.id)) {
        partial = store_partial_result(store, ingester, attempt, point.id,
                                       identity_of(sweep, point, attempt), report);
      }
      report.messages.push_back(failed_point_line(point, attempt, where) + partial);
      continue;
    }
    if (store.has_result_for_attempt(attempt.id)) continue;
    collect_done_attempt(store, ingester, sweep, point, attempt, true, report);
  }
  record_run_envelope(store, sweep);
  store.answer_headlines(sweep.id);
  return report;
}

}  // namespace pbench::run
