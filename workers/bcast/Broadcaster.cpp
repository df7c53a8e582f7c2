#include "bcast/Broadcaster.hpp"

#include <stdexcept>

#include "bcast/MpiBroadcaster.hpp"
#include "bcast/TreeBroadcaster.hpp"

namespace pbench::bcast {

const std::vector<Implementation>& implementations() {
  static const std::vector<Implementation> table = {
      {"mpi", false, std::nullopt, "MPI_Bcast of the MPI library"},
      {"linear", true, Algorithm::linear,
       "own linear chain: rank i receives from i-1 (relative to the root)"},
      {"backward", true, Algorithm::backward,
       "own backward chain: rank i receives from i+1 (relative to the root, cyclic)"},
      {"binomial", true, Algorithm::binomial, "own binomial tree (MPICH's shape)"},
  };
  return table;
}

const Implementation* find_implementation(const std::string& name) {
  for (const auto& implementation : implementations()) {
    if (implementation.name == name) return &implementation;
  }
  return nullptr;
}

std::string implementation_names() {
  std::string out;
  for (const auto& implementation : implementations()) {
    out += (out.empty() ? "" : ", ") + implementation.name;
  }
  return out;
}

std::unique_ptr<Broadcaster> make_broadcaster(const std::string& name, MPI_Comm comm,
                                              double hop_delay, MessageWait wait) {
  const Implementation* implementation = find_implementation(name);
  if (!implementation)
    throw std::invalid_argument("unknown broadcast implementation '" + name + "'");
  if (!implementation->algorithm) return std::make_unique<MpiBroadcaster>(comm);
  return std::make_unique<TreeBroadcaster>(*implementation->algorithm, comm, HopDelay(hop_delay),
                                           wait);
}

}  // namespace pbench::bcast
