#include "links/LinkMeasurement.hpp"

#include <algorithm>
#include <limits>

#include "common/MpiCost.hpp"

namespace pbench::links {
namespace {

constexpr int kPingTag = 71;
constexpr int kPongTag = 72;
constexpr int kDataTag = 73;

/// The byte every message from endpoint `i` carries, so a receiver can tell its source.
unsigned char stamp_of(int i) {
  return static_cast<unsigned char>(i % 251 + 1);
}

/// Mean round trip to `dst` over `roundtrips` 8-byte pings, while serving the pings of `src`
/// (which pings us in the same step): both directions progress in one loop, so a round trip
/// waits only for the partner's answer, not for the rest of the ring.
double round_trip(MPI_Comm comm, int dst, int src, std::int64_t roundtrips) {
  char ping[8] = {}, served[8] = {}, pong[8] = {};
  MPI_Request requests[2];
  std::int64_t to_serve = roundtrips, to_receive = roundtrips;
  const double start = MPI_Wtime();
  MPI_Irecv(served, 8, MPI_CHAR, src, kPingTag, comm, &requests[0]);
  MPI_Irecv(pong, 8, MPI_CHAR, dst, kPongTag, comm, &requests[1]);
  MPI_Send(ping, 8, MPI_CHAR, dst, kPingTag, comm);
  while (to_serve > 0 || to_receive > 0) {
    int index = MPI_UNDEFINED;
    MPI_Waitany(2, requests, &index, MPI_STATUS_IGNORE);
    if (index == 0) {
      MPI_Send(served, 8, MPI_CHAR, src, kPongTag, comm);
      if (--to_serve > 0) MPI_Irecv(served, 8, MPI_CHAR, src, kPingTag, comm, &requests[0]);
    } else if (index == 1) {
      if (--to_receive > 0) {
        MPI_Irecv(pong, 8, MPI_CHAR, dst, kPongTag, comm, &requests[1]);
        MPI_Send(ping, 8, MPI_CHAR, dst, kPingTag, comm);
      }
    }
  }
  return (MPI_Wtime() - start) / static_cast<double>(roundtrips);
}

/// Counts the received messages in `in` whose first or last byte is not `src_index`'s stamp.
long long wrong_stamps(const std::vector<unsigned char>& in, int size, std::int64_t count,
                       int src_index) {
  long long wrong = 0;
  for (std::int64_t m = 0; m < count; ++m) {
    const unsigned char* message = in.data() + m * size;
    wrong += (message[0] != stamp_of(src_index)) + (message[size - 1] != stamp_of(src_index));
  }
  return wrong;
}

/// Posts `count` receives from `src` (if receiving) and `count` sends to `dst` (if sending), all
/// at once after a barrier; returns the time until the last receive completed (0 when not
/// receiving).
double exchange(MPI_Comm comm, int dst, int src, int size, std::int64_t count, bool send,
                bool receive, const std::vector<unsigned char>& out,
                std::vector<unsigned char>& in) {
  std::vector<MPI_Request> receives, sends;
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  for (std::int64_t m = 0; receive && m < count; ++m) {
    receives.emplace_back();
    MPI_Irecv(in.data() + m * size, size, MPI_BYTE, src, kDataTag, comm, &receives.back());
  }
  for (std::int64_t m = 0; send && m < count; ++m) {
    sends.emplace_back();
    MPI_Isend(out.data(), size, MPI_BYTE, dst, kDataTag, comm, &sends.back());
  }
  MPI_Waitall(static_cast<int>(receives.size()), receives.data(), MPI_STATUSES_IGNORE);
  const double elapsed = receive ? MPI_Wtime() - start : 0;
  MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  return elapsed;
}

/// Sends `count` messages to `dst` and receives as many from `src`; returns the receiver's time
/// for them (from the end of the barrier before it to its last receive) and adds the received
/// messages with a wrong stamp to `wrong`. When the partners are each other's (the step k = N/2,
/// and N = 2) the two directions go one after the other, lower endpoint first: over one TCP
/// connection, MPICH 4.0.2 + UCX 1.13 let one direction starve the other (the two together
/// reached about one direction's rate), which would be the stack's figure, not the link's.
double stream(MPI_Comm comm, int i, int dst, int src, int size, std::int64_t count,
              const std::vector<unsigned char>& out, std::vector<unsigned char>& in,
              long long& wrong) {
  std::fill(in.begin(), in.end(), 0);
  double elapsed = 0;
  if (dst == src) {
    for (const bool lower_sends : {true, false}) {
      const bool send = (i < dst) == lower_sends;
      elapsed += exchange(comm, dst, src, size, count, send, !send, out, in);
    }
  } else {
    elapsed = exchange(comm, dst, src, size, count, true, true, out, in);
  }
  wrong += wrong_stamps(in, size, count, src);
  return elapsed;
}

}  // namespace

std::optional<LinkMatrix> measure_links(const Endpoints& endpoints, const LinksParameters& p,
                                        worker::DeadlineWatch& deadline) {
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  const auto found = std::find(endpoints.ranks.begin(), endpoints.ranks.end(), world_rank);
  const bool measuring = found != endpoints.ranks.end();
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, measuring ? 0 : MPI_UNDEFINED, world_rank, &comm);
  const int n = static_cast<int>(endpoints.ranks.size());
  // Per endpoint and step: latency to the send partner, bandwidth from the receive partner, and
  // wrong bytes; gathered on endpoint 0 (world rank 0, the first rank of the first node).
  constexpr int kValues = 3;
  std::vector<double> mine(static_cast<std::size_t>(kValues * (n - 1)), -1.0);
  int steps_done = 0;
  if (measuring) {
    const int i = static_cast<int>(found - endpoints.ranks.begin());
    const auto size = static_cast<int>(p.message_size);
    std::vector<unsigned char> out(static_cast<std::size_t>(size), stamp_of(i));
    std::vector<unsigned char> in(static_cast<std::size_t>(size * p.messages));
    for (int k = 1; k < n; ++k) {
      if (deadline.reached(comm, "step " + std::to_string(k) + " of " + std::to_string(n - 1))) {
        break;
      }
      const int dst = send_partner(i, k, n), src = receive_partner(i, k, n);
      double latency = std::numeric_limits<double>::infinity(), bandwidth = 0;
      long long wrong = 0;
      // Untimed: a round trip and one message each way open the connections of this step.
      MPI_Barrier(comm);
      round_trip(comm, dst, src, 1);
      stream(comm, i, dst, src, size, 1, out, in, wrong);
      wrong = 0;
      for (std::int64_t r = 0; r < p.repetitions; ++r) {
        worker::count_loops(p.latency_roundtrips + p.messages);  // its round trips and messages
        MPI_Barrier(comm);
        latency = std::min(latency, round_trip(comm, dst, src, p.latency_roundtrips) / 2);
        const double elapsed = stream(comm, i, dst, src, size, p.messages, out, in, wrong);
        bandwidth = std::max(bandwidth, static_cast<double>(p.message_size * p.messages) / elapsed);
      }
      const auto at = static_cast<std::size_t>(kValues * (k - 1));
      mine[at] = latency;
      mine[at + 1] = bandwidth;
      mine[at + 2] = static_cast<double>(wrong);
      steps_done = k;
    }
  }
  // The ranks that measured nothing learn of a stop too (for the result's reason).
  MPI_Bcast(&steps_done, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (steps_done < n - 1 && !measuring) {
    deadline.stop("step " + std::to_string(steps_done + 1) + " of " + std::to_string(n - 1));
  }
  std::vector<double> all;
  if (measuring) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) all.resize(mine.size() * static_cast<std::size_t>(n));
    MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(),
               static_cast<int>(mine.size()), MPI_DOUBLE, 0, comm);
    MPI_Comm_free(&comm);
  }
  if (world_rank != 0) return std::nullopt;
  LinkMatrix matrix;
  matrix.endpoints = endpoints;
  matrix.steps_done = steps_done;
  const auto value = [&](int endpoint, int step, int which) {
    return all[static_cast<std::size_t>(endpoint) * mine.size() +
               static_cast<std::size_t>(kValues * (step - 1) + which)];
  };
  for (int from = 0; from < n; ++from) {
    for (int to = 0; to < n; ++to) {
      if (from == to) continue;
      const int step = step_of(from, to, n);
      if (step > steps_done) continue;
      // The sender measured the round trip to `to`; the receiver the bandwidth from `from`.
      matrix.links.push_back({from, to, step, value(from, step, 0), value(to, step, 1),
                              static_cast<long long>(value(to, step, 2))});
    }
  }
  return matrix;
}

}  // namespace pbench::links
