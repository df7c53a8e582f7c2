#include "comm/Benchmark.hpp"

#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/MpiCost.hpp"

namespace pbench::comm {
namespace {

void check(int rc, const char* call) {
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(rc, text, &length);
    throw std::runtime_error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
  }
}

std::int64_t round8(std::int64_t size) { return (size + 7) / 8 * 8; }

// The stamp of the first byte of the message a sender sends in step `step` of iteration `it`
// (-1 is the warm-up); the last byte gets another value unless the message has one byte.
unsigned char first_stamp(int step, std::int64_t it, int sender) {
  return static_cast<unsigned char>(1 + 37 * step + 11 * (it + 1) + 101 * sender);
}
unsigned char last_stamp(unsigned char first, std::int64_t size) {
  return size == 1 ? first : static_cast<unsigned char>(7 * first + 3);
}

}  // namespace

std::size_t Benchmark::buffer_bytes(std::int64_t l_max) {
  return static_cast<std::size_t>(kMaxSteps) * static_cast<std::size_t>(round8(l_max) + 8);
}

Benchmark::Benchmark(MPI_Comm world, const PatternSet& patterns,
                     std::array<const GridCommunicator*, 2> grids, std::int64_t l_max)
    : world_(world), patterns_(patterns), grids_(grids), length_(buffer_bytes(l_max)) {
  MPI_Comm_rank(world_, &rank_);
  MPI_Comm_size(world_, &nprocs_);
  send_ = static_cast<unsigned char*>(std::aligned_alloc(4096, (length_ + 4095) / 4096 * 4096));
  recv_ = static_cast<unsigned char*>(std::aligned_alloc(4096, (length_ + 4095) / 4096 * 4096));
  if (send_ == nullptr || recv_ == nullptr) {
    std::free(send_);
    std::free(recv_);
    throw std::runtime_error("cannot allocate 2 x " + std::to_string(length_) +
                             " B of message buffers; give a smaller --memory-per-proc");
  }
  std::memset(send_, 0, length_);
  std::memset(recv_, 0, length_);
}

Benchmark::~Benchmark() {
  std::free(send_);
  std::free(recv_);
}

std::size_t Benchmark::next_offset(std::int64_t size) {
  const auto step = static_cast<std::size_t>(round8(size));
  if (base_ + step > length_) base_ = 0;
  const std::size_t offset = base_;
  base_ += step;
  return offset;
}

void Benchmark::stamp(std::size_t offset, std::int64_t size, int step, std::int64_t it) {
  const unsigned char first = first_stamp(step, it, rank_);
  send_[offset] = first;
  send_[offset + static_cast<std::size_t>(size) - 1] = last_stamp(first, size);
}

bool Benchmark::received_ok(std::size_t offset, std::int64_t size, int step, std::int64_t it,
                            int sender) const {
  const unsigned char first = first_stamp(step, it, sender);
  return recv_[offset] == first &&
         recv_[offset + static_cast<std::size_t>(size) - 1] == last_stamp(first, size);
}

std::int64_t Benchmark::iterate_sendrecv(const std::vector<Step>& steps, std::int64_t size,
                                         std::int64_t it) {
  std::int64_t errors = 0;
  const int count = static_cast<int>(size);
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const Step& step = steps[s];
    const int tag = static_cast<int>(s);
    const std::size_t offset = next_offset(size);
    if (step.send_to != kNoRank) stamp(offset, size, tag, it);
    if (step.send_to != kNoRank && step.recv_from != kNoRank) {
      check(MPI_Sendrecv(send_ + offset, count, MPI_BYTE, step.send_to, tag, recv_ + offset, count,
                         MPI_BYTE, step.recv_from, tag, world_, MPI_STATUS_IGNORE),
            "MPI_Sendrecv");
    } else if (step.send_to != kNoRank) {
      check(MPI_Send(send_ + offset, count, MPI_BYTE, step.send_to, tag, world_), "MPI_Send");
    } else if (step.recv_from != kNoRank) {
      check(MPI_Recv(recv_ + offset, count, MPI_BYTE, step.recv_from, tag, world_,
                     MPI_STATUS_IGNORE),
            "MPI_Recv");
    }
    if (step.recv_from != kNoRank && !received_ok(offset, size, tag, it, step.recv_from)) ++errors;
  }
  return errors;
}

std::int64_t Benchmark::iterate_nonblocking(const std::vector<Step>& steps, std::int64_t size,
                                            std::int64_t it) {
  MPI_Request requests[2 * kMaxSteps];
  std::size_t offsets[kMaxSteps];
  int pending = 0;
  const int count = static_cast<int>(size);
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const Step& step = steps[s];
    const int tag = static_cast<int>(s);
    offsets[s] = next_offset(size);
    if (step.recv_from != kNoRank) {
      check(MPI_Irecv(recv_ + offsets[s], count, MPI_BYTE, step.recv_from, tag, world_,
                      &requests[pending++]),
            "MPI_Irecv");
    }
    if (step.send_to != kNoRank) {
      stamp(offsets[s], size, tag, it);
      check(MPI_Isend(send_ + offsets[s], count, MPI_BYTE, step.send_to, tag, world_,
                      &requests[pending++]),
            "MPI_Isend");
    }
  }
  check(MPI_Waitall(pending, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
  std::int64_t errors = 0;
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const Step& step = steps[s];
    if (step.recv_from != kNoRank &&
        !received_ok(offsets[s], size, static_cast<int>(s), it, step.recv_from)) {
      ++errors;
    }
  }
  return errors;
}

std::int64_t Benchmark::iterate_alltoallv(const std::vector<Step>& steps,
                                          const std::vector<int>& send_peer,
                                          const std::vector<int>& recv_peer, MPI_Comm comm,
                                          std::int64_t size, std::int64_t it) {
  std::size_t offsets[kMaxSteps];
  for (std::size_t s = 0; s < steps.size(); ++s) {
    offsets[s] = next_offset(size);
    if (send_peer[s] >= 0) {
      stamp(offsets[s], size, static_cast<int>(s), it);
      displs_send_[static_cast<std::size_t>(send_peer[s])] = static_cast<int>(offsets[s]);
    }
    if (recv_peer[s] >= 0) {
      displs_recv_[static_cast<std::size_t>(recv_peer[s])] = static_cast<int>(offsets[s]);
    }
  }
  check(MPI_Alltoallv(send_, counts_send_.data(), displs_send_.data(), MPI_BYTE, recv_,
                      counts_recv_.data(), displs_recv_.data(), MPI_BYTE, comm),
        "MPI_Alltoallv");
  std::int64_t errors = 0;
  for (std::size_t s = 0; s < steps.size(); ++s) {
    if (steps[s].recv_from != kNoRank &&
        !received_ok(offsets[s], size, static_cast<int>(s), it, steps[s].recv_from)) {
      ++errors;
    }
  }
  return errors;
}

Benchmark::Local Benchmark::execute(const Pattern& pattern, Method method, std::int64_t size,
                                    std::int64_t looplength) {
  const std::vector<Step>& steps = pattern.steps[static_cast<std::size_t>(rank_)];
  Local local;
  if (method != Method::kAlltoallv) {
    if (steps.empty()) return local;
    double start = 0;
    for (std::int64_t it = -1; it < looplength; ++it) {
      if (it == 0) start = MPI_Wtime();
      local.errors += method == Method::kSendrecv ? iterate_sendrecv(steps, size, it)
                                                  : iterate_nonblocking(steps, size, it);
    }
    local.seconds = MPI_Wtime() - start;
    worker::count_loops(looplength + 1);  // the untimed first pass included
    return local;
  }

  // MPI_Alltoallv: every process of the pattern's communicator calls it, with zero counts to
  // and from every process that is not a neighbour; the grid patterns use the grid's
  // communicator, the others MPI_COMM_WORLD.
  MPI_Comm comm = world_;
  const GridCommunicator* grid = nullptr;
  if (pattern.grid_dims != 0) {
    grid = grids_[static_cast<std::size_t>(pattern.grid_dims - 2)];
    comm = grid->comm();
    if (comm == MPI_COMM_NULL) return local;
  }
  int comm_size = 0;
  MPI_Comm_size(comm, &comm_size);
  const auto peer = [&](int world_rank) {
    if (world_rank == kNoRank) return -1;
    return grid != nullptr ? grid->grid_rank_of(world_rank) : world_rank;
  };
  counts_send_.assign(static_cast<std::size_t>(comm_size), 0);
  counts_recv_.assign(static_cast<std::size_t>(comm_size), 0);
  displs_send_.assign(static_cast<std::size_t>(comm_size), 0);
  displs_recv_.assign(static_cast<std::size_t>(comm_size), 0);
  std::vector<int> send_peer;
  std::vector<int> recv_peer;
  for (const Step& step : steps) {
    send_peer.push_back(peer(step.send_to));
    recv_peer.push_back(peer(step.recv_from));
    if (send_peer.back() >= 0) counts_send_[static_cast<std::size_t>(send_peer.back())] = static_cast<int>(size);
    if (recv_peer.back() >= 0) counts_recv_[static_cast<std::size_t>(recv_peer.back())] = static_cast<int>(size);
  }
  double start = 0;
  for (std::int64_t it = -1; it < looplength; ++it) {
    if (it == 0) start = MPI_Wtime();
    local.errors += iterate_alltoallv(steps, send_peer, recv_peer, comm, size, it);
  }
  if (!steps.empty()) local.seconds = MPI_Wtime() - start;
  worker::count_loops(looplength + 1);
  return local;
}

BenchmarkOutcome Benchmark::run(const BenchmarkPlan& plan, const Progress& progress) {
  BenchmarkOutcome outcome;
  const auto methods_of = [&](const Pattern& p) {
    return p.sendrecv_only ? std::vector<Method>{Method::kSendrecv} : plan.methods;
  };
  for (const Pattern& p : patterns_.patterns) outcome.planned += methods_of(p).size();
  outcome.planned *= plan.positions.size() * static_cast<std::size_t>(plan.repetitions);

  // Rank 0's loop-length state: the last measurement of each (pattern, method) in this
  // repetition, as (looplength, max time, size).
  struct Previous {
    std::int64_t looplength;
    double seconds;
    std::int64_t size;
  };
  std::map<std::pair<int, Method>, Previous> previous;
  std::vector<double> gathered(static_cast<std::size_t>(2 * nprocs_));
  std::vector<double> times;
  std::vector<double> messages;
  for (const Pattern& p : patterns_.patterns) {
    messages.push_back(static_cast<double>(p.messages_per_iteration()));
  }

  std::size_t done = 0;  // measurements started, on every rank
  MPI_Barrier(world_);
  const double begin = MPI_Wtime();
  for (int rep = 0; rep < plan.repetitions && !outcome.stopped; ++rep) {
    previous.clear();
    for (std::size_t k = 0; k < plan.positions.size() && !outcome.stopped; ++k) {
      const int position = plan.positions[k];
      const std::int64_t size = plan.sizes[static_cast<std::size_t>(position)];
      if (rank_ == 0 && progress) progress(rep, position, MPI_Wtime() - begin);
      for (std::size_t pi = 0; pi < patterns_.patterns.size() && !outcome.stopped; ++pi) {
        const Pattern& pattern = patterns_.patterns[pi];
        for (Method method : methods_of(pattern)) {
          if (plan.deadline &&
              plan.deadline->reached(world_, "measurement " + std::to_string(done + 1) + " of " +
                                                 std::to_string(outcome.planned) + " (repetition " +
                                                 std::to_string(rep + 1) + ", size " +
                                                 std::to_string(size) + " B, pattern " +
                                                 std::to_string(pi) + ")")) {
            outcome.stopped = true;
            outcome.deadline = true;
            break;
          }
          ++done;
          std::int64_t looplength = 0;  // 0: stop
          if (rank_ == 0) {
            const bool out_of_time = plan.max_time > 0 && MPI_Wtime() - begin >= plan.max_time;
            const auto before = previous.find({static_cast<int>(pi), method});
            if (!out_of_time) {
              looplength = before == previous.end()
                               ? plan.loop.start()
                               : plan.loop.next(before->second.looplength, before->second.seconds,
                                                before->second.size, size);
            }
          }
          check(MPI_Bcast(&looplength, 1, MPI_INT64_T, 0, world_), "MPI_Bcast");
          if (looplength == 0) {
            outcome.stopped = true;
            break;
          }
          check(MPI_Barrier(world_), "MPI_Barrier");
          const Local local = execute(pattern, method, size, looplength);
          const double mine[2] = {local.seconds, static_cast<double>(local.errors)};
          check(MPI_Gather(mine, 2, MPI_DOUBLE, gathered.data(), 2, MPI_DOUBLE, 0, world_),
                "MPI_Gather");
          if (rank_ != 0) continue;
          Measurement m;
          m.pattern = static_cast<int>(pi);
          m.position = position;
          m.size = size;
          m.method = method;
          m.repetition = rep;
          m.looplength = looplength;
          times.clear();
          for (int r = 0; r < nprocs_; ++r) {
            const double seconds = gathered[static_cast<std::size_t>(2 * r)];
            if (seconds >= 0) times.push_back(seconds);
            m.check_errors += static_cast<std::int64_t>(gathered[static_cast<std::size_t>(2 * r + 1)]);
          }
          m.time = worker::describe(times);
          m.bandwidth = static_cast<double>(size) * messages[pi] *
                        static_cast<double>(looplength) / m.time.max;
          previous[{static_cast<int>(pi), method}] = {looplength, m.time.max, size};
          outcome.rows.push_back(m);
        }
      }
    }
  }
  outcome.elapsed = MPI_Wtime() - begin;
  return outcome;
}

}  // namespace pbench::comm
