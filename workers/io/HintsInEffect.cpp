#include "io/HintsInEffect.hpp"

#include <map>
#include <utility>

namespace pbench::io {

HintCheck check_hints_in_effect(const std::vector<FileHints>& files, const std::string& io_layer) {
  struct Tally {
    int files = 0;    ///< files it was given on
    int missing = 0;  ///< of which get_info did not report it
    std::map<std::string, int> other_values;
  };
  std::map<std::pair<std::string, std::string>, Tally> tallies;  // by key and value given
  int silent = 0;      // files with hints given whose get_info reported nothing
  int with_hints = 0;  // files with hints given
  for (const auto& f : files) {
    if (f.given.empty()) continue;
    ++with_hints;
    if (f.effective.empty()) ++silent;
    const std::map<std::string, std::string> effective(f.effective.begin(), f.effective.end());
    for (const auto& [key, value] : f.given) {
      auto& tally = tallies[{key, value}];
      ++tally.files;
      const auto it = effective.find(key);
      if (it == effective.end()) {
        ++tally.missing;
      } else if (it->second != value) {
        ++tally.other_values[it->second];
      }
    }
  }
  HintCheck check;
  if (silent > 0) {
    check.warnings.push_back("MPI-IO hints: MPI_File_get_info reported no hints on " +
                             std::to_string(silent) + " of " + std::to_string(with_hints) +
                             " files opened with hints (MPI-IO layer " + io_layer +
                             "): whether the hints asked for are in effect is not known");
  }
  for (const auto& [hint, tally] : tallies) {
    const auto& [key, value] = hint;
    const std::string asked = "MPI-IO hint " + key + "=" + value + " asked for";
    const std::string of = " of " + std::to_string(tally.files) + " files";
    // Open MPI's OMPIO implements none of ROMIO's own hints, yet its MPI_File_get_info echoes
    // back what it was given: the echo does not make such a hint in effect.
    if (io_layer == "OMPIO" && key.rfind("romio_", 0) == 0) {
      ++check.not_in_effect;
      const int echoed = tally.files - tally.missing;
      check.warnings.push_back(
          asked + " is not in effect: a ROMIO hint, which Open MPI's OMPIO ignores (" +
          (echoed > 0
               ? "MPI_File_get_info echoes it back on " + std::to_string(echoed) + of +
                     " all the same"
               : "MPI_File_get_info does not report it on " + std::to_string(tally.missing) + of) +
          ")");
      continue;
    }
    if (tally.missing > 0 || !tally.other_values.empty()) ++check.not_in_effect;
    if (tally.missing > 0) {
      check.warnings.push_back(asked + " is not in effect: not reported on " +
                               std::to_string(tally.missing) + of + " (MPI-IO layer " + io_layer +
                               ")");
    }
    for (const auto& [other, count] : tally.other_values) {
      check.warnings.push_back(asked + " is not in effect: " + key + "=" + other + " on " +
                               std::to_string(count) + of);
    }
  }
  return check;
}

}  // namespace pbench::io
