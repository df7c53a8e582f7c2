#pragma once
// Whether the MPI-IO hints asked for took effect: what MPI_File_get_info says on each file,
// against what was given at open. A hint given and not reported, or reported with another
// value, is stated; so is a library that reports no hints at all. Open MPI's OMPIO ignores
// ROMIO's own hints (romio_*) yet echoes back what it was given (Open MPI 4.1.4): under OMPIO a
// romio_* hint is stated as not in effect whatever MPI_File_get_info says.
#include <string>
#include <vector>

#include "io/IoMeasurements.hpp"

namespace pbench::io {

struct HintCheck {
  std::vector<std::string> warnings;  ///< one per hint key and value, and one for silence
  int not_in_effect = 0;              ///< hints (key and value) given and not in effect
};

/// Checks every file's hints; `io_layer` ("ROMIO", "OMPIO") names the likely cause.
HintCheck check_hints_in_effect(const std::vector<FileHints>& files, const std::string& io_layer);

}  // namespace pbench::io
