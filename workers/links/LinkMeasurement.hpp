#pragma once
// The link matrix over MPI: every step of the shift schedule (LinkSchedule.hpp) measures, at
// once on every endpoint, the latency to its send partner and the bandwidth from its receive
// partner; rank 0 gathers them into one row per ordered pair of endpoints.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "common/Deadline.hpp"
#include "links/LinkSchedule.hpp"
#include "links/LinksParameters.hpp"

namespace pbench::links {

/// One ordered pair: what `from` -> `to` measured.
struct LinkFigures {
  int from = 0;  ///< endpoint index
  int to = 0;
  int step = 0;
  double latency = 0;    ///< [s] half the round trip from -> to -> from, minimum over repetitions
  double bandwidth = 0;  ///< [B/s] bytes from -> to over the receiver's time, maximum over them
  long long wrong_bytes = 0;  ///< checked first and last bytes of received messages that differ
};

struct LinkMatrix {
  Endpoints endpoints;
  std::vector<LinkFigures> links;  ///< ordered by from, then to
  int steps_done = 0;              ///< < endpoints - 1 when a deadline stopped the run
};

/// Measures every link (collective over MPI_COMM_WORLD); the matrix on world rank 0, nothing on
/// the others. Stops between steps when `deadline` says so (steps_done tells how far it got).
std::optional<LinkMatrix> measure_links(const Endpoints& endpoints, const LinksParameters& p,
                                        worker::DeadlineWatch& deadline);

}  // namespace pbench::links
