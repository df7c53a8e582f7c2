#pragma once
// Small MPI and system helpers both io suites (b_eff_io and the consortium's) use.
#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>

#include "io/HintSet.hpp"

namespace pbench::io {

/// Broadcasts a string from rank 0 of `comm` (collective).
std::string broadcast_string(std::string text, MPI_Comm comm);
/// MPI_Info from a hint list (MPI_INFO_NULL when empty); the caller frees it.
MPI_Info make_info(const HintList& hints);
/// The node's physical memory [B], 0 when the system does not say.
std::int64_t physical_memory();
/// An MPI error as a reader wants it: "No space left on device (MPI: <first line of the MPI
/// error string>)", the errno from the error class or else `saved_errno`.
std::string mpi_error_text(int code, int saved_errno);
/// Collective over `comm`: true when some rank passed a failure; rank 0 of `comm` then gets in
/// `text` the failure of the lowest failing rank (with " (rank R)" when it is not rank 0).
bool agree_on_failure(MPI_Comm comm, const std::optional<std::string>& local, std::string& text);
/// The hints in effect on an open file (MPI_File_get_info), as key-value pairs.
HintList file_info(MPI_File fh);

}  // namespace pbench::io
