#include "bcast/TimedLoops.hpp"

#include <stdexcept>
#include <string>

#include "common/MpiCost.hpp"

namespace pbench::bcast {

namespace {

constexpr int kPingTag = 41;
constexpr int kPongTag = 42;
constexpr int kAckTag = 43;

}  // namespace

unsigned char delivery_pattern(std::int64_t index, int root, int trial) {
  return static_cast<unsigned char>((index * 131 + (index >> 8) * 7 + root * 29 + trial * 53 + 1) &
                                    0xff);
}

void fill_delivery_pattern(unsigned char* data, std::int64_t bytes, int root, int trial) {
  for (std::int64_t k = 0; k < bytes; ++k) data[k] = delivery_pattern(k, root, trial);
}

std::int64_t wrong_bytes(const unsigned char* data, std::int64_t bytes, int root, int trial) {
  std::int64_t wrong = 0;
  for (std::int64_t k = 0; k < bytes; ++k) wrong += data[k] != delivery_pattern(k, root, trial);
  return wrong;
}

TimedLoops::TimedLoops(MPI_Comm comm, Broadcaster& broadcaster, int root, std::int64_t repetitions,
                       MessageWait wait)
    : comm_(comm), broadcaster_(broadcaster), root_(root), repetitions_(repetitions), wait_(wait) {}

unsigned char* TimedLoops::buffer(std::int64_t bytes) {
  if (static_cast<std::int64_t>(buffer_.size()) < bytes) {
    buffer_.assign(static_cast<std::size_t>(bytes), 0);
  }
  return buffer_.data();
}

void TimedLoops::barrier() {
  if (MPI_Barrier(comm_.get()) != MPI_SUCCESS) {
    throw std::runtime_error("bcast methods: MPI_Barrier failed");
  }
}

template <class Repetition>
double TimedLoops::per_repetition(Repetition&& one) {
  worker::count_loops(repetitions_ + 1);
  one();
  barrier();
  const double start = MPI_Wtime();
  for (std::int64_t x = 0; x < repetitions_; ++x) one();
  return (MPI_Wtime() - start) / static_cast<double>(repetitions_);
}

void TimedLoops::send_ack() {
  wait_.send(ack_, kAckBytes, root_, kAckTag, comm_.get());
}

void TimedLoops::receive_ack(int source) {
  wait_.receive(ack_, kAckBytes, source, kAckTag, comm_.get());
}

double TimedLoops::round_trip(int task) {
  unsigned char message[kAckBytes] = {};
  barrier();
  if (comm_.rank() == root_ || comm_.rank() == task) worker::count_loops(repetitions_);
  if (comm_.rank() == root_) {
    const double start = MPI_Wtime();
    for (std::int64_t x = 0; x < repetitions_; ++x) {
      wait_.send(message, kAckBytes, task, kPingTag, comm_.get());
      wait_.receive(message, kAckBytes, task, kPongTag, comm_.get());
    }
    return (MPI_Wtime() - start) / static_cast<double>(repetitions_);
  }
  if (comm_.rank() == task) {
    for (std::int64_t x = 0; x < repetitions_; ++x) {
      wait_.receive(message, kAckBytes, root_, kPingTag, comm_.get());
      wait_.send(message, kAckBytes, root_, kPongTag, comm_.get());
    }
  }
  return 0;
}

double TimedLoops::acknowledged_broadcasts(int task, std::int64_t bytes) {
  unsigned char* data = buffer(bytes);
  barrier();
  // The first iteration is untimed: it makes a violation of the method's assumptions affect
  // every timed iteration alike (the paper's initial broadcast/acknowledgement pair).
  worker::count_loops(repetitions_ + 1);
  if (comm_.rank() == root_) {
    broadcaster_.broadcast(data, bytes, root_);
    receive_ack(task);
    const double start = MPI_Wtime();
    for (std::int64_t x = 0; x < repetitions_; ++x) {
      broadcaster_.broadcast(data, bytes, root_);
      receive_ack(task);
    }
    return (MPI_Wtime() - start) / static_cast<double>(repetitions_);
  }
  for (std::int64_t x = 0; x <= repetitions_; ++x) {
    broadcaster_.broadcast(data, bytes, root_);
    if (comm_.rank() == task) send_ack();
  }
  return 0;
}

double TimedLoops::repeated_broadcasts(std::int64_t bytes) {
  unsigned char* data = buffer(bytes);
  return per_repetition([&] { broadcaster_.broadcast(data, bytes, root_); });
}

double TimedLoops::rounds(std::int64_t bytes, const std::vector<int>& roots) {
  unsigned char* data = buffer(bytes);
  const double per_round = per_repetition([&] {
    for (int r : roots) broadcaster_.broadcast(data, bytes, r);
  });
  return per_round / static_cast<double>(roots.size());
}

double TimedLoops::barrier_pairs(std::int64_t bytes) {
  unsigned char* data = buffer(bytes);
  worker::count_loops(repetitions_ + 1);
  broadcaster_.broadcast(data, bytes, root_);
  barrier();
  const double start = MPI_Wtime();
  for (std::int64_t x = 0; x < repetitions_; ++x) {
    broadcaster_.broadcast(data, bytes, root_);
    barrier();
  }
  return (MPI_Wtime() - start) / static_cast<double>(repetitions_);
}

double TimedLoops::all_acknowledge(std::int64_t bytes, const std::vector<int>& tasks) {
  unsigned char* data = buffer(bytes);
  bool acknowledges = false;
  for (int task : tasks) acknowledges = acknowledges || (task == comm_.rank() && task != root_);
  auto one = [&] {
    broadcaster_.broadcast(data, bytes, root_);
    if (comm_.rank() == root_) {
      for (int task : tasks) {
        if (task != root_) receive_ack(MPI_ANY_SOURCE);
      }
    } else if (acknowledges) {
      send_ack();
    }
  };
  const double time = per_repetition(one);
  return comm_.rank() == root_ ? time : 0;
}

int TimedLoops::check_delivery(std::int64_t bytes, int from, int trial) {
  unsigned char* data = buffer(bytes);
  fill_delivery_pattern(data, bytes, from, trial);
  if (comm_.rank() != from) {
    for (std::int64_t k = 0; k < bytes; ++k) data[k] = static_cast<unsigned char>(~data[k]);
  }
  broadcaster_.broadcast(data, bytes, from);
  return wrong_bytes(data, bytes, from, trial) > 0 ? 1 : 0;
}

}  // namespace pbench::bcast
