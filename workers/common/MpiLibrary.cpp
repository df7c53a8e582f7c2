#include "common/MpiLibrary.hpp"

#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <regex>

namespace pbench::worker {
namespace {

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// The first version-like token ("4.0.2", "2021.6") after `from` in `text`.
std::string version_after(const std::string& text, std::size_t from) {
  static const std::regex version(R"(([0-9]+(\.[0-9]+)+[A-Za-z0-9.\-]*))");
  std::smatch match;
  const std::string rest = text.substr(std::min(from, text.size()));
  if (std::regex_search(rest, match, version)) return match[1].str();
  return "";
}

}  // namespace

nlohmann::json MpiLibrary::to_json() const {
  auto or_null = [](const std::string& s) {
    return s.empty() ? nlohmann::json() : nlohmann::json(s);
  };
  return {{"library", name},
          {"version", or_null(version)},
          {"standard", standard},
          {"io_layer", io_layer},
          {"io_layer_source", io_layer_source},
          {"launcher", or_null(launcher)},
          {"launch_flags", or_null(launch_flags)}};
}

MpiLibrary identify_mpi_library(const std::string& text, const std::string& ompi_mca_io) {
  MpiLibrary library;
  // The most specific names first: Cray MPICH, Intel MPI and MVAPICH all build on MPICH.
  struct Family {
    const char* marker;
    const char* name;
  };
  static const Family kFamilies[] = {{"CRAY MPICH", "Cray MPICH"},
                                     {"Intel(R) MPI Library", "Intel MPI"},
                                     {"MVAPICH", "MVAPICH"},
                                     {"Open MPI", "Open MPI"},
                                     {"MPICH", "MPICH"}};
  library.name = "unknown";
  for (const auto& family : kFamilies) {
    const auto at = text.find(family.marker);
    if (at == std::string::npos) continue;
    library.name = family.name;
    library.version = version_after(text, at + std::strlen(family.marker));
    break;
  }
  if (library.name == "Open MPI") {
    // Open MPI's io framework picks OMPIO unless told otherwise (its romio component is
    // selected by OMPI_MCA_io=romio321, or ^ompio).
    if (ompi_mca_io.find("romio") != std::string::npos ||
        ompi_mca_io.find("^ompio") != std::string::npos) {
      library.io_layer = "ROMIO";
      library.io_layer_source = "OMPI_MCA_io=" + ompi_mca_io;
    } else if (!ompi_mca_io.empty()) {
      library.io_layer = ompi_mca_io.find("ompio") != std::string::npos ? "OMPIO" : "unknown";
      library.io_layer_source = "OMPI_MCA_io=" + ompi_mca_io;
    } else {
      library.io_layer = "OMPIO";
      library.io_layer_source = "Open MPI's default io component (OMPI_MCA_io unset)";
    }
  } else if (library.name != "unknown") {
    library.io_layer = "ROMIO";
    library.io_layer_source = library.name + " ships ROMIO as its MPI-IO";
  } else {
    library.io_layer = "unknown";
    library.io_layer_source = "library not recognised";
  }
  return library;
}

MpiLibrary running_mpi_library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  MpiLibrary library = identify_mpi_library(std::string(text, strnlen(text, sizeof(text))),
                                            env_or_empty("OMPI_MCA_io"));
  int major = 0;
  int minor = 0;
  MPI_Get_version(&major, &minor);
  library.standard = std::to_string(major) + "." + std::to_string(minor);
  library.launcher = env_or_empty("PBENCH_LAUNCHER");
  library.launch_flags = env_or_empty("PBENCH_LAUNCH_FLAGS");
  return library;
}

}  // namespace pbench::worker
