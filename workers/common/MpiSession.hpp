#pragma once
// One MPI session per worker process: init and finalize, rank-0 reporting, and a fatal error
// that ends every rank with a clear message and a non-zero exit.
#include <mpi.h>

#include <string>
#include <vector>

#include "common/NodeCores.hpp"

namespace pbench::worker {

class MpiSession {
 public:
  /// Initialises MPI (MPI_Init) for the named worker; MPI_Finalize runs in the destructor.
  MpiSession(std::string worker, int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  /// Rank in MPI_COMM_WORLD.
  int rank() const { return rank_; }
  /// Size of MPI_COMM_WORLD.
  int size() const { return size_; }
  /// True on rank 0, the rank that reports and writes the result.
  bool is_root() const { return rank_ == 0; }
  /// The world communicator.
  MPI_Comm world() const { return MPI_COMM_WORLD; }

  /// Prints "pbench-<worker>: error: <message> (rank r)" and aborts every rank with exit code 3.
  [[noreturn]] void fatal(const std::string& message) const;

  /// Distinct host names of all ranks, in rank order of first appearance (collective).
  std::vector<std::string> host_names() const;
  /// Host name (MPI_Get_processor_name) of every rank, rank i at index i (collective).
  std::vector<std::string> rank_hosts() const;
  /// Largest number of ranks sharing one node (collective).
  int procs_per_node() const;
  /// Every node of the run (MPI_COMM_TYPE_SHARED) in the order of its first rank: its host (from
  /// `rank_hosts`, rank_hosts()'s list), its ranks and the cores they may use, the union of their
  /// affinity masks (sched_getaffinity; the node's online CPUs where that fails) (collective).
  std::vector<NodeCores> node_cores(const std::vector<std::string>& rank_hosts) const;
  /// MPI_Get_library_version, first line.
  static std::string library_version();

 private:
  std::string worker_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace pbench::worker
