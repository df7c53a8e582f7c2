#pragma once
// Ingests each finished point's result document; records why failed points failed.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "schedulers/Scheduler.hpp"
#include "store/Store.hpp"

namespace pbench::run {

struct CollectReport {
  int stored = 0;
  int duplicates = 0;
  int rejected = 0;  ///< documents that failed validation (their points are now failed)
  int failed = 0;    ///< points that failed, were cancelled or timed out
  int partial = 0;   ///< partial results (not valid) of failed points, stored beside the failure
  int pending = 0;   ///< points not finished yet
  /// Results of done points that a deadline cut short (validity.partial; not valid, exit 0).
  int deadline_partial = 0;
  /// Results stored not valid because they did not run as their point asked (processes, shape:
  /// ingest/LaunchCheck.hpp); collect exits non-zero for them.
  int mislaunched = 0;
  /// Results whose documents said valid with a figure that cannot be (a negative bandwidth, a
  /// latency below the floor: the catalogue's bounds), stored not valid; collect exits non-zero.
  int impossible = 0;
  /// Results that ran with other arguments than their points fixed (another queue depth, T,
  /// hint set or --set: ingest/AttemptIdentity.hpp), stored not valid; collect exits non-zero.
  int not_its_point = 0;
  /// Results whose documents said valid where their own parameters break the method's rules or
  /// their figures disagree with each other (ingest/DocumentRules.hpp), stored not valid;
  /// collect exits non-zero.
  int breaks_rules = 0;
  /// Failed points whose result an earlier collect refused (it broke the contract): a second
  /// collect exits as the first did.
  int rejected_earlier = 0;
  std::vector<std::string> messages;
};

/// Collects every finished point of `sweep` not collected before. A failed point's result
/// document, when its worker wrote one that says it is not valid (a partial result: the run
/// stopped on an error), is stored too; the point stays failed. A failed point whose job ran on
/// several nodes is said with its nodes (a compressed host list) and, where `scheduler` tells
/// (one call for every such point), the ones among them that are now down or not responding:
/// "failed, exit status 1, on node[1-16]; node7 down*: Not responding".
CollectReport collect(store::Store& store, const store::SweepRecord& sweep,
                      schedulers::Scheduler* scheduler = nullptr);

/// Collects the results of the points `point_ids` of `sweep` that are done and not collected
/// (a driver, as each point ends: a runs directory deleted or filled later costs nothing
/// finished). Failed points and run-wide steps (the run's envelope, the headline answers) are
/// left to collect().
CollectReport collect_done_points(store::Store& store, const store::SweepRecord& sweep,
                                  const std::set<std::int64_t>& point_ids);

/// Adds what an earlier collect (`earlier`, a driver's as points ended) stored and found to
/// `report`; a result it refused is counted once, not again as refused earlier.
void merge_reports(CollectReport& report, const CollectReport& earlier);

/// What a collect found wrong with the results it stored, as clauses of its summary line
/// (", 1 not launched as asked (stored not valid), ..."); "" when nothing.
std::string findings_text(const CollectReport& report);

/// "logp p=2 q=8 [3f2a...]": how messages name a point (store/Store.hpp, store::point_label).
using store::describe_point;

/// How a point that did not finish is said, by collect and status alike: "logp p=2 q=1 [KEY]:
/// failed, exit status 2`where`: pbench-logp: error: ...; launcher: srun: error: ...": its
/// state, exit status and signal (or the scheduler's state when the job said nothing), `where`
/// (collect: the nodes it ran on), and the telling line of its stderr tail (telling_line: the
/// worker's own last error line before the launcher's).
std::string failed_point_line(const store::PointRecord& point, const store::AttemptRecord& attempt,
                              const std::string& where = "");

}  // namespace pbench::run
