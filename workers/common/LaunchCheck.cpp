#include "common/LaunchCheck.hpp"

#include <charconv>
#include <cstring>

namespace pbench::worker {

std::optional<std::string> launch_mismatch(const char* partition_env, int world_size) {
  if (partition_env == nullptr || *partition_env == '\0') return std::nullopt;
  const char* end = partition_env + std::strlen(partition_env);
  int partition = 0;
  const auto [last, error] = std::from_chars(partition_env, end, partition);
  if (error != std::errc() || last != end || partition < 1) {
    return "launch: PBENCH_PARTITION='" + std::string(partition_env) +
           "' is not a number of processes (the job script sets it to the partition it "
           "launches); nothing was measured";
  }
  if (partition == world_size) return std::nullopt;
  const std::string asked = "the job launches partition " + std::to_string(partition) +
                            " (PBENCH_PARTITION), but this worker's MPI world has " +
                            std::to_string(world_size) +
                            (world_size == 1 ? " process" : " processes");
  if (world_size < partition) {
    return "launch: " + asked +
           ": the launcher started singletons or fewer processes than asked. Likely causes: a "
           "launcher whose PMI does not match the MPI library (srun --mpi=pmi2 with an MPI "
           "that wants PMIx, or the reverse: try another --mpi=), a worker started without "
           "mpiexec/srun, or a job template whose launch line starts fewer processes; nothing "
           "was measured";
  }
  return "launch: " + asked +
         ": the launch line starts more processes than the partition (a job template or "
         "launcher that adds its own process count); nothing was measured";
}

}  // namespace pbench::worker
