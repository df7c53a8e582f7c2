#include "io/MpiIoSupport.hpp"

#include <unistd.h>

namespace pbench::io {

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

}  // namespace pbench::io
