#include "io/MpiIoSupport.hpp"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

namespace pbench::io {

namespace {

constexpr int kFailureTag = 4243;

/// The errno an MPI error class stands for, or 0.
int errno_of_class(int error_class) {
  if (error_class == MPI_ERR_NO_SPACE) return ENOSPC;
  if (error_class == MPI_ERR_QUOTA) return EDQUOT;
  if (error_class == MPI_ERR_ACCESS) return EACCES;
  if (error_class == MPI_ERR_READ_ONLY) return EROFS;
  if (error_class == MPI_ERR_NO_SUCH_FILE) return ENOENT;
  if (error_class == MPI_ERR_FILE_EXISTS) return EEXIST;
  if (error_class == MPI_ERR_BAD_FILE) return ENAMETOOLONG;
  return 0;
}

}  // namespace

std::string mpi_error_text(int code, int saved_errno) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(code, text, &length);
  std::string mpi(text, static_cast<std::size_t>(length));
  for (const char* cut : {"\n", ", error stack"}) {
    const auto at = mpi.find(cut);
    if (at != std::string::npos) mpi.resize(at);
  }
  while (!mpi.empty() && (mpi.back() == ' ' || mpi.back() == '.')) mpi.pop_back();
  int error_class = MPI_SUCCESS;
  MPI_Error_class(code, &error_class);
  int error = errno_of_class(error_class);
  if (error == 0) error = saved_errno;
  if (error == 0) return mpi;
  return std::string(std::strerror(error)) + " (MPI: " + mpi + ")";
}

bool agree_on_failure(MPI_Comm comm, const std::optional<std::string>& local, std::string& text) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int mine = local ? rank : INT_MAX;
  int first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == INT_MAX) return false;
  if (first == 0) {
    if (rank == 0) text = *local;
  } else if (rank == first) {
    const std::string mine_text = *local + " (rank " + std::to_string(rank) + ")";
    MPI_Send(mine_text.data(), static_cast<int>(mine_text.size()), MPI_CHAR, 0, kFailureTag, comm);
  } else if (rank == 0) {
    MPI_Status status;
    MPI_Probe(first, kFailureTag, comm, &status);
    int length = 0;
    MPI_Get_count(&status, MPI_CHAR, &length);
    text.assign(static_cast<std::size_t>(length), '\0');
    MPI_Recv(text.data(), length, MPI_CHAR, first, kFailureTag, comm, MPI_STATUS_IGNORE);
  }
  return true;
}

std::string broadcast_string(std::string text, MPI_Comm comm) {
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, 0, comm);
  return text;
}

MPI_Info make_info(const HintList& hints) {
  if (hints.empty()) return MPI_INFO_NULL;
  MPI_Info info;
  MPI_Info_create(&info);
  for (const auto& [key, value] : hints) MPI_Info_set(info, key.c_str(), value.c_str());
  return info;
}

std::int64_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::int64_t>(pages) * page : 0;
}

HintList file_info(MPI_File fh) {
  HintList out;
  MPI_Info info;
  if (MPI_File_get_info(fh, &info) != MPI_SUCCESS) return out;
  int keys = 0;
  MPI_Info_get_nkeys(info, &keys);
  for (int i = 0; i < keys; ++i) {
    char key[MPI_MAX_INFO_KEY + 1] = {};
    MPI_Info_get_nthkey(info, i, key);
    int length = 0;
    int flag = 0;
    MPI_Info_get_valuelen(info, key, &length, &flag);
    if (!flag) continue;
    std::string value(static_cast<std::size_t>(length) + 1, '\0');
    MPI_Info_get(info, key, length + 1, value.data(), &flag);
    value.resize(static_cast<std::size_t>(length));
    out.emplace_back(key, value);
  }
  MPI_Info_free(&info);
  return out;
}

}  // namespace pbench::io
