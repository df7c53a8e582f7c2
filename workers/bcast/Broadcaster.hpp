#pragma once
// A broadcast implementation the methods measure: MPI_Bcast, or one of the worker's own
// point-to-point algorithms of known shape (linear, backward, binomial). The implementations
// are listed in one table and looked up by their --impl name.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bcast/BroadcastShape.hpp"
#include "bcast/MessageWait.hpp"

namespace pbench::bcast {

class Broadcaster {
 public:
  virtual ~Broadcaster() = default;
  /// Broadcasts `bytes` bytes of `buffer` from `root` to every rank (collective).
  virtual void broadcast(void* buffer, std::int64_t bytes, int root) = 0;
  /// The shape of the algorithm, or nothing when it is unknown (MPI_Bcast).
  virtual std::optional<BroadcastShape> shape() const = 0;
};

/// One entry of the implementation table.
struct Implementation {
  std::string name;  ///< as --impl spells it
  bool own;          ///< the worker's own point-to-point algorithm (takes a hop delay)
  std::optional<Algorithm> algorithm;  ///< the shape, for own algorithms
  std::string description;             ///< one line for the protocol
};

/// The table of implementations, in the order --help lists them.
const std::vector<Implementation>& implementations();
/// The implementation called `name`, or nothing when there is none.
const Implementation* find_implementation(const std::string& name);
/// "mpi, linear, backward, binomial".
std::string implementation_names();

/// A broadcaster for implementation `name` over a duplicate of `comm` (collective; the name must
/// be in the table); an own algorithm waits `hop_delay` seconds before each send and waits for
/// its messages with `wait`.
std::unique_ptr<Broadcaster> make_broadcaster(const std::string& name, MPI_Comm comm,
                                              double hop_delay, MessageWait wait);

}  // namespace pbench::bcast
