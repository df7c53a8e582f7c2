#include "logp/PingPong.hpp"

#include <stdexcept>
#include <string>

#include "common/MpiCost.hpp"

namespace pbench::logp {

namespace {

constexpr int kPingTag = 21;
constexpr int kPongTag = 22;

[[noreturn, gnu::cold, gnu::noinline]] void fail(const char* what) {
  throw std::runtime_error(std::string("ping-pong: ") + what + " failed");
}

// Inline, so a round trip pays a compare per call and no function call for its error checks.
inline void check(int code, const char* what) {
  if (code != MPI_SUCCESS) [[unlikely]]
    fail(what);
}

void stamp(std::array<unsigned char, PingPong::kMessageBytes>& message, unsigned char mark) {
  message.front() = mark;
  message.back() = mark;
}

}  // namespace

PingPong::PingPong(MPI_Comm comm, int partner) : comm_(comm), partner_(partner) {}

void PingPong::verify(const Message& reply, unsigned char mark) {
  if (reply.front() != mark || reply.back() != mark) ++data_errors_;
}

double PingPong::initiate(std::int64_t roundtrips) {
  MPI_Request send;
  MPI_Request recv;
  int slot = 0;
  unsigned char mark = next_mark();
  stamp(out_[0], mark);
  unsigned char previous = 0;
  worker::count_loops(roundtrips);
  const double start = MPI_Wtime();
  for (std::int64_t i = 0; i < roundtrips; ++i) {
    check(MPI_Irecv(in_[slot].data(), kMessageBytes, MPI_BYTE, partner_, kPongTag, comm_, &recv),
          "MPI_Irecv");
    check(MPI_Isend(out_[slot].data(), kMessageBytes, MPI_BYTE, partner_, kPingTag, comm_, &send),
          "MPI_Isend");
    // While this ping and its reply are in flight: the previous reply's check and the next
    // ping's marks, in the other buffers, so that neither lengthens the round trip.
    if (i > 0) verify(in_[1 - slot], previous);
    const unsigned char next = next_mark();
    stamp(out_[1 - slot], next);
    check(MPI_Wait(&send, MPI_STATUS_IGNORE), "MPI_Wait");
    check(MPI_Wait(&recv, MPI_STATUS_IGNORE), "MPI_Wait");
    previous = mark;
    mark = next;
    slot = 1 - slot;
  }
  const double elapsed = MPI_Wtime() - start;
  if (roundtrips > 0) verify(in_[1 - slot], previous);  // the last reply
  return elapsed;
}

void PingPong::respond(std::int64_t roundtrips) {
  MPI_Request send;
  MPI_Request recv;
  Message& message = in_[0];
  worker::count_loops(roundtrips);
  for (std::int64_t i = 0; i < roundtrips; ++i) {
    check(MPI_Irecv(message.data(), kMessageBytes, MPI_BYTE, partner_, kPingTag, comm_, &recv),
          "MPI_Irecv");
    check(MPI_Wait(&recv, MPI_STATUS_IGNORE), "MPI_Wait");
    // The reply carries the received bytes back, so the initiator can check them.
    check(MPI_Isend(message.data(), kMessageBytes, MPI_BYTE, partner_, kPongTag, comm_, &send),
          "MPI_Isend");
    check(MPI_Wait(&send, MPI_STATUS_IGNORE), "MPI_Wait");
  }
}

}  // namespace pbench::logp
