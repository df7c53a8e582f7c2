#pragma once
// Where a report's numbers come from: the sweep's specification, scheduler and jobs, and from
// its stored results the hosts, MPI library, worker builds and dates. The page's header.
#include <string>
#include <utility>
#include <vector>

#include "store/Store.hpp"

namespace pbench::report {

struct Provenance {
  std::string sweep;
  std::string spec_json;  ///< the sweep's canonical specification
  std::string scheduler;
  std::string created_at;
  std::vector<std::string> hosts;            ///< of every newest result, sorted, once each
  std::vector<std::string> mpi_versions;     ///< the MPI library version strings, once each
  std::vector<std::string> worker_versions;  ///< the builds that wrote the results, once each
  std::vector<std::string> job_ids;          ///< every attempt's job id, in submission order
  std::string first_start;                   ///< the earliest result's start ("" without one)
  std::string last_end;                      ///< the latest result's end
  std::size_t results = 0;                   ///< newest results of the sweep's points
};

/// The provenance of `sweep` (which exists) from the store.
Provenance read_provenance(store::Store& store, const std::string& sweep);

/// The specification as rows a reader can follow, never as JSON: "sweep" (the partitions, how
/// jobs are launched and the batch options given: "partitions 1, 2x2; launcher mpiexec; account
/// a"), then a row per worker of the sweep with its own dimensions and settings ("logp": "queue
/// depths 1, 8; eel_runs=10, max_size=65536"; "io": "T 30 s, 60 s; hints -, cb_nodes=1"; "the
/// method's settings" when none is given), and "environments" (each one's worker directory and
/// launcher) for a sweep made with --envs. The text itself under "sweep" when it is not a
/// specification.
std::vector<std::pair<std::string, std::string>> spec_rows(const std::string& spec_json);

/// The header's rows (label, text): the sweep's name and spec_rows, scheduler and job ids,
/// hosts, MPI library, pbench version and git describe of the report (`report_version` as the
/// build says it, "VERSION+DESCRIBE") and of the workers, dates.
std::vector<std::pair<std::string, std::string>> provenance_rows(const Provenance& provenance,
                                                                 const std::string& report_version);

}  // namespace pbench::report
