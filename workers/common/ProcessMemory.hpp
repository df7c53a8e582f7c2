#pragma once
// Memory per process when the user does not give it: from the allocation first (Slurm's
// SLURM_MEM_PER_CPU or SLURM_MEM_PER_NODE, then the cgroup limit memory.max (v2) or
// memory.limit_in_bytes (v1) of this process and its ancestors), and only then the node's
// physical memory (/proc/meminfo MemTotal), divided by the processes on the node. The source is
// recorded with the value. The environment and the files come through MemorySources so the
// rules are unit-tested on fake environments.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace pbench::worker {

struct MemorySources {
  /// The value of an environment variable, or nothing when unset.
  std::function<std::optional<std::string>(const std::string&)> env;
  /// The whole text of a file, or nothing when it cannot be read.
  std::function<std::optional<std::string>(const std::string&)> read_file;
  /// Where the cgroup file systems are mounted.
  std::string cgroup_root = "/sys/fs/cgroup";

  /// The real environment and file system.
  static MemorySources system();
};

struct ProcessMemory {
  std::int64_t bytes = 0;  ///< [B] memory per process
  std::string source;      ///< where it came from, e.g. "SLURM_MEM_PER_NODE=4096M / 2 processes"
};

/// Memory per process for one of `ranks_on_node` processes on this node (ranks_on_node >= 1):
/// SLURM_MEM_PER_CPU × SLURM_CPUS_PER_TASK (default 1); else SLURM_MEM_PER_NODE / ranks; else
/// the smallest cgroup limit on the way from this process's cgroup to the root / ranks; else
/// MemTotal / ranks. A limit above MemTotal (an unlimited cgroup, --mem=0) is not a limit.
/// Throws std::runtime_error when no source gives a size.
ProcessMemory process_memory(const MemorySources& sources, int ranks_on_node);

/// The node's physical memory (MemTotal of /proc/meminfo) in bytes, nothing when unknown.
std::optional<std::int64_t> physical_memory(const MemorySources& sources);

/// process_memory() on every rank of `comm` with the ranks on its node (MPI_COMM_TYPE_SHARED),
/// then the smallest over the ranks with its source, so every rank sizes alike (collective).
ProcessMemory least_process_memory(MPI_Comm comm);

}  // namespace pbench::worker
