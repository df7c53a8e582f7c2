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

/// The specification as one line a reader can follow: "workers logp, comm; partitions 1, 2;
/// settings comm.repetitions=1; ..." (the name left out); the raw text when it is not JSON.
std::string spec_summary(const std::string& spec_json);

/// The header's rows (label, text): sweep and specification, scheduler and job ids, hosts, MPI
/// library, pbench version and git describe of the report (`report_version` as the build says
/// it, "VERSION+DESCRIBE") and of the workers, dates.
std::vector<std::pair<std::string, std::string>> provenance_rows(const Provenance& provenance,
                                                                 const std::string& report_version);

}  // namespace pbench::report
