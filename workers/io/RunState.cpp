#include "io/RunState.hpp"

#include <cerrno>

#include "io/MpiIoSupport.hpp"

namespace pbench::io {

bool RunState::check(int code, const std::string& what, const std::string& path) {
  if (code == MPI_SUCCESS) return true;
  const int saved = errno;
  if (!local_failure) {
    local_failure = what + " '" + path + "' failed: " + mpi_error_text(code, saved);
  }
  return false;
}

bool RunState::agree_on_failure(MPI_Comm comm) {
  std::string text;
  if (!io::agree_on_failure(comm, local_failure, text)) return false;
  if (!text.empty()) failure_text = text;
  return true;
}

std::string RunState::path_of(int partition, int type, int rank) const {
  return benchmark_file(m.directory, partition, type, rank);
}

}  // namespace pbench::io
