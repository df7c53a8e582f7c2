#include "logp/Flood.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common/MpiCost.hpp"
#include "logp/BusyLoop.hpp"

namespace pbench::logp {

namespace {

constexpr int kFloodTag = 11;
constexpr int kReplyTag = 12;
constexpr int kReplyBytes = 8;

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw std::runtime_error(std::string("flood: ") + what + " failed");
}

std::size_t slots_of(const FloodPoint& p) {
  return std::max<std::size_t>(1, std::min(static_cast<std::size_t>(p.queue_depth), p.messages));
}

}  // namespace

Flood::Flood(MPI_Comm comm, int partner, std::size_t pool_bytes)
    : comm_(comm), partner_(partner), pool_(std::max<std::size_t>(pool_bytes, 8), 0) {
  // Touch every page now, outside the timed regions.
  std::memset(pool_.data(), 0x5a, pool_.size());
}

unsigned char* Flood::slot(std::size_t message, const FloodPoint& point) {
  const std::size_t offset = (message % slots_of(point)) * point.size;
  if (offset + point.size > pool_.size()) {
    throw std::logic_error("flood: buffer pool too small for " + std::to_string(point.size) +
                           " B at queue depth " + std::to_string(point.queue_depth));
  }
  return pool_.data() + offset;
}

unsigned char Flood::mark(std::size_t message) const {
  return static_cast<unsigned char>(message * 131 + serial_ * 29 + 7);
}

Flood::Flight Flood::begin(const FloodPoint& point) {
  ++serial_;
  const Flight flight{point.messages, slots_of(point),
                      static_cast<std::size_t>(std::max(1, point.queue_depth / 2)),
                      static_cast<int>(point.size)};
  requests_.assign(flight.slots, MPI_REQUEST_NULL);
  return flight;
}

double Flood::send(const FloodPoint& point) {
  const Flight f = begin(point);
  std::array<unsigned char, kReplyBytes> reply{};
  MPI_Request reply_request;

  auto start = [&](std::size_t i) {
    unsigned char* buffer = slot(i, point);
    buffer[0] = buffer[point.size - 1] = mark(i);
    check(MPI_Isend(buffer, f.count, MPI_BYTE, partner_, kFloodTag, comm_, &requests_[i % f.slots]),
          "MPI_Isend");
  };
  auto complete = [&](std::size_t i) {
    if (point.busy_iterations > 0) BusyLoop::spin(point.busy_iterations);
    check(MPI_Wait(&requests_[i % f.slots], MPI_STATUS_IGNORE), "MPI_Wait");
  };

  worker::count_loops(static_cast<std::int64_t>(f.n));  // one pass per message
  const double t0 = MPI_Wtime();
  check(MPI_Irecv(reply.data(), kReplyBytes, MPI_BYTE, partner_, kReplyTag, comm_,
                  &reply_request),
        "MPI_Irecv");
  std::size_t started = 0;
  std::size_t completed = 0;
  for (; started < std::min(f.slots, f.n); ++started) start(started);
  while (started < f.n) {
    const std::size_t k = std::min(f.batch, f.n - started);
    for (std::size_t j = 0; j < k; ++j) complete(completed++);
    for (std::size_t j = 0; j < k; ++j) start(started++);
  }
  while (completed < f.n) complete(completed++);
  check(MPI_Wait(&reply_request, MPI_STATUS_IGNORE), "MPI_Wait");
  return MPI_Wtime() - t0;
}

double Flood::receive(const FloodPoint& point) {
  const Flight f = begin(point);
  std::array<unsigned char, kReplyBytes> reply{};
  MPI_Request reply_request;

  auto post = [&](std::size_t i) {
    unsigned char* buffer = slot(i, point);
    // Spoil the bytes to be checked, so stale data from an earlier measurement cannot pass.
    buffer[0] = buffer[point.size - 1] = static_cast<unsigned char>(~mark(i));
    check(MPI_Irecv(buffer, f.count, MPI_BYTE, partner_, kFloodTag, comm_, &requests_[i % f.slots]),
          "MPI_Irecv");
  };
  auto complete = [&](std::size_t i) {
    if (point.busy_iterations > 0) BusyLoop::spin(point.busy_iterations);
    check(MPI_Wait(&requests_[i % f.slots], MPI_STATUS_IGNORE), "MPI_Wait");
    const unsigned char* buffer = slot(i, point);
    if (buffer[0] != mark(i) || buffer[point.size - 1] != mark(i)) ++data_errors_;
  };

  worker::count_loops(static_cast<std::int64_t>(f.n));
  const double t0 = MPI_Wtime();
  std::size_t posted = 0;
  std::size_t completed = 0;
  for (; posted < std::min(f.slots, f.n); ++posted) post(posted);
  while (completed < f.n) {
    const std::size_t k = std::min(f.batch, f.n - completed);
    for (std::size_t j = 0; j < k; ++j) complete(completed++);
    for (std::size_t j = 0; j < k && posted < f.n; ++j) post(posted++);
  }
  check(MPI_Isend(reply.data(), kReplyBytes, MPI_BYTE, partner_, kReplyTag, comm_,
                  &reply_request),
        "MPI_Isend");
  check(MPI_Wait(&reply_request, MPI_STATUS_IGNORE), "MPI_Wait");
  return MPI_Wtime() - t0;
}

}  // namespace pbench::logp
