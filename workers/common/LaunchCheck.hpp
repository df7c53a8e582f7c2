#pragma once
// A worker started as other processes than its job launched refuses to measure. The job scripts
// export the partition they launch (PBENCH_PARTITION, and PBENCH_NODES, PBENCH_PROCS_PER_NODE
// for a shape); a launcher whose PMI does not match the MPI library starts N singletons (each a
// world of 1), and a launch line rewritten by a template may start fewer processes: either would
// measure something else than the point, under its name. Every worker checks this right after
// MPI starts, before anything is measured; the orchestrator checks the stored result against
// its point again at ingest (orchestrator/ingest/LaunchCheck.hpp).
#include <optional>
#include <string>

namespace pbench::worker {

/// Why a world of `world_size` processes is not the partition `partition_env` (the value of
/// PBENCH_PARTITION; null when unset: nothing to check) names; nothing when it is.
std::optional<std::string> launch_mismatch(const char* partition_env, int world_size);

}  // namespace pbench::worker
