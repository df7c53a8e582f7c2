#pragma once
// A result against the point that asked for it: the one rule, at ingest, for every worker.
//  - the worker the document names must be the point's, or the document is refused (it is
//    another worker's result, and stored on this point no query would show it);
//  - the processes it ran on must be the point's partition, and for a shaped point (NxP) its
//    ranks must be on N nodes with P on each: otherwise the result is stored not valid with the
//    reason first ("launch: partition 4 asked, the result is from 2 processes"; "placement: 2x2
//    asked, ranks found on 1 node (node1: 4)").
// A launch that starts fewer processes than asked (a launcher whose PMI does not match the MPI
// library starts N singletons; a template that rewrote the launch line) is caught here whatever
// the worker did; the workers also refuse to measure when started so (workers/common/
// LaunchCheck.hpp, from the PBENCH_PARTITION the job scripts export).
#include <nlohmann/json.hpp>

#include <string>

#include "store/ResultLayout.hpp"

namespace pbench::ingest {

/// What a point asked for.
struct AskedLaunch {
  std::string worker;       ///< "logp", ...
  int partition = 0;        ///< processes
  store::AskedShape shape;  ///< NxP, or none for a plain partition
};

/// The point's parameters as stored (points.worker, points.partition, points.params_json).
AskedLaunch asked_launch(const std::string& worker, int partition, const std::string& params_json);

/// Why `document` cannot be stored on a point that asked for `asked` ("names worker 'comm', but
/// its point is a logp point"); empty when it can.
std::string worker_mismatch(const nlohmann::json& document, const AskedLaunch& asked);

/// Why the result was not launched as asked, the placement's reason included: "launch:
/// partition 4 asked, the result is from 2 processes", "launch: 2x2 asked (4 processes), the
/// result is from 2 processes", "placement: 2x2 asked, ranks found on 1 node (node1: 4)";
/// empty when it was.
std::string launch_problem(const nlohmann::json& document, const AskedLaunch& asked,
                           const store::ResultLayout& layout);

}  // namespace pbench::ingest
