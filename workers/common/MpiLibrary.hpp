#pragma once
// Which MPI library a worker runs on, as every result records it (`mpi` of the result): the
// library's name and version from MPI_Get_library_version, the MPI standard it implements, its
// MPI-IO layer (ROMIO or Open MPI's OMPIO, whose hints differ) and the launch flags the job's
// launcher was given (PBENCH_LAUNCH_FLAGS, e.g. Open MPI's --oversubscribe --allow-run-as-root).
#include <nlohmann/json.hpp>
#include <string>

namespace pbench::worker {

struct MpiLibrary {
  std::string name;      ///< "MPICH", "Open MPI", "Intel MPI", "MVAPICH", "Cray MPICH", "unknown"
  std::string version;   ///< "4.0.2"; "" when the library does not say
  std::string standard;  ///< the MPI standard version, "4.0"
  std::string io_layer;  ///< "ROMIO", "OMPIO" or "unknown"
  std::string io_layer_source;  ///< how io_layer is known
  std::string launcher;         ///< PBENCH_LAUNCHER: the launcher the job used ("" when unknown)
  std::string launch_flags;     ///< PBENCH_LAUNCH_FLAGS: flags the launch needed ("" for none)

  nlohmann::json to_json() const;
};

/// The library's name, version and MPI-IO layer from the text of MPI_Get_library_version and,
/// for Open MPI, the io framework's selection (`ompi_mca_io`, the value of OMPI_MCA_io, "" when
/// unset). Pure: the unit tests feed it the strings of each library.
MpiLibrary identify_mpi_library(const std::string& library_version_text,
                                const std::string& ompi_mca_io);

/// The running library (after MPI_Init), with the launch from the environment.
MpiLibrary running_mpi_library();

}  // namespace pbench::worker
