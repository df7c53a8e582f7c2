#pragma once
// Small MPI and system helpers both io suites (b_eff_io and the consortium's) use.
#include <mpi.h>

#include <cstdint>
#include <string>

#include "io/HintSet.hpp"

namespace pbench::io {

/// Broadcasts a string from rank 0 of `comm` (collective).
std::string broadcast_string(std::string text, MPI_Comm comm);
/// MPI_Info from a hint list (MPI_INFO_NULL when empty); the caller frees it.
MPI_Info make_info(const HintList& hints);
/// The node's physical memory [B], 0 when the system does not say.
std::int64_t physical_memory();

}  // namespace pbench::io
