#include "logp/PingPong.hpp"

#include <stdexcept>
#include <string>

namespace pbench::logp {

namespace {

constexpr int kPingTag = 21;
constexpr int kPongTag = 22;

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw std::runtime_error(std::string("ping-pong: ") + what + " failed");
}

}  // namespace

PingPong::PingPong(MPI_Comm comm, int partner) : comm_(comm), partner_(partner) {}

double PingPong::initiate(std::int64_t roundtrips) {
  MPI_Request send;
  MPI_Request recv;
  const double start = MPI_Wtime();
  for (std::int64_t i = 0; i < roundtrips; ++i) {
    const auto mark = static_cast<unsigned char>(++serial_ * 151 + 3);
    out_[0] = mark;
    out_[kMessageBytes - 1] = mark;
    check(MPI_Irecv(in_.data(), kMessageBytes, MPI_BYTE, partner_, kPongTag, comm_, &recv),
          "MPI_Irecv");
    check(MPI_Isend(out_.data(), kMessageBytes, MPI_BYTE, partner_, kPingTag, comm_, &send),
          "MPI_Isend");
    check(MPI_Wait(&send, MPI_STATUS_IGNORE), "MPI_Wait");
    check(MPI_Wait(&recv, MPI_STATUS_IGNORE), "MPI_Wait");
    if (in_[0] != mark || in_[kMessageBytes - 1] != mark) ++data_errors_;
  }
  return MPI_Wtime() - start;
}

void PingPong::respond(std::int64_t roundtrips) {
  MPI_Request send;
  MPI_Request recv;
  for (std::int64_t i = 0; i < roundtrips; ++i) {
    check(MPI_Irecv(in_.data(), kMessageBytes, MPI_BYTE, partner_, kPingTag, comm_, &recv),
          "MPI_Irecv");
    check(MPI_Wait(&recv, MPI_STATUS_IGNORE), "MPI_Wait");
    // The reply carries the received bytes back, so the initiator can check them.
    check(MPI_Isend(in_.data(), kMessageBytes, MPI_BYTE, partner_, kPongTag, comm_, &send),
          "MPI_Isend");
    check(MPI_Wait(&send, MPI_STATUS_IGNORE), "MPI_Wait");
  }
}

}  // namespace pbench::logp
