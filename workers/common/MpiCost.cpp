#include "common/MpiCost.hpp"

#include <mpi.h>

#include "common/MpiSession.hpp"

namespace pbench::worker {
namespace {

CostCounts process_counts;

std::int64_t bytes_of(int count, MPI_Datatype type) {
  int size = 0;
  if (count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0;
  return static_cast<std::int64_t>(count) * size;
}

void count_sent(int count, MPI_Datatype type) {
  ++process_counts.messages;
  process_counts.bytes += bytes_of(count, type);
}

void count_collective(std::int64_t bytes) {
  ++process_counts.collectives;
  process_counts.collective_bytes += bytes;
}

void count_io(int count, MPI_Datatype type) {
  ++process_counts.io_calls;
  process_counts.io_bytes += bytes_of(count, type);
}

bool is_root_of(int root, MPI_Comm comm) {
  int rank = -1;
  PMPI_Comm_rank(comm, &rank);
  return rank == root;
}

}  // namespace

const CostCounts& cost_counts() {
  return process_counts;
}

void count_loops(std::int64_t passes) {
  process_counts.loops += passes;
}

nlohmann::json run_cost(const MpiSession& session, double start) {
  const CostCounts mine = process_counts;  // before the sums below
  const std::int64_t local[7] = {
      mine.messages, mine.bytes,    mine.collectives, mine.collective_bytes,
      mine.io_calls, mine.io_bytes, mine.loops};
  std::int64_t total[7] = {};
  PMPI_Allreduce(local, total, 7, MPI_INT64_T, MPI_SUM, session.world());
  const double elapsed = MPI_Wtime() - start;
  double longest = elapsed;
  PMPI_Allreduce(&elapsed, &longest, 1, MPI_DOUBLE, MPI_MAX, session.world());
  return {{"messages", total[0]},    {"bytes", total[1]},
          {"collectives", total[2]}, {"collective_bytes", total[3]},
          {"io_calls", total[4]},    {"io_bytes", total[5]},
          {"loops", total[6]},       {"wall_time", longest}};
}

}  // namespace pbench::worker

// The MPI calls the workers make, counted on their way into MPI (the profiling interface: the
// definitions here take the place of the library's, which stay reachable as PMPI_).
using pbench::worker::bytes_of;
using pbench::worker::count_collective;
using pbench::worker::count_io;
using pbench::worker::count_sent;
using pbench::worker::is_root_of;

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  count_sent(count, type);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  count_sent(count, type);
  return PMPI_Ssend(buf, count, type, dest, tag, comm);
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  count_sent(count, type);
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  count_sent(sendcount, sendtype);
  return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                       source, recvtag, comm, status);
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  // b_eff's Alltoallv carries the pattern's messages: one to each peer with a count.
  int size = 0;
  int rank = 0;
  PMPI_Comm_size(comm, &size);
  PMPI_Comm_rank(comm, &rank);
  for (int peer = 0; peer < size; ++peer) {
    if (peer != rank && sendcounts[peer] > 0) count_sent(sendcounts[peer], sendtype);
  }
  count_collective(0);  // its bytes are the messages'
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm);
}

int MPI_Barrier(MPI_Comm comm) {
  count_collective(0);
  return PMPI_Barrier(comm);
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  count_collective(is_root_of(root, comm) ? bytes_of(count, type) : 0);
  return PMPI_Bcast(buffer, count, type, root, comm);
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm) {
  count_collective(bytes_of(count, type));
  return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  count_collective(bytes_of(count, type));
  return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  count_collective(bytes_of(sendcount, sendtype));
  return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  count_collective(bytes_of(sendcount, sendtype));
  return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm);
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  count_collective(bytes_of(sendcount, sendtype));
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_File_write(MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Status* status) {
  count_io(count, type);
  return PMPI_File_write(fh, buf, count, type, status);
}

int MPI_File_read(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
  count_io(count, type);
  return PMPI_File_read(fh, buf, count, type, status);
}

int MPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype type,
                       MPI_Status* status) {
  count_io(count, type);
  return PMPI_File_write_all(fh, buf, count, type, status);
}

int MPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
  count_io(count, type);
  return PMPI_File_read_all(fh, buf, count, type, status);
}

int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype type,
                      MPI_Status* status) {
  count_io(count, type);
  return PMPI_File_write_at(fh, offset, buf, count, type, status);
}

int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                     MPI_Status* status) {
  count_io(count, type);
  return PMPI_File_read_at(fh, offset, buf, count, type, status);
}

int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count,
                          MPI_Datatype type, MPI_Status* status) {
  count_io(count, type);
  return PMPI_File_write_at_all(fh, offset, buf, count, type, status);
}

int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                         MPI_Status* status) {
  count_io(count, type);
  return PMPI_File_read_at_all(fh, offset, buf, count, type, status);
}

int MPI_File_write_ordered(MPI_File fh, const void* buf, int count, MPI_Datatype type,
                           MPI_Status* status) {
  count_io(count, type);
  return PMPI_File_write_ordered(fh, buf, count, type, status);
}

int MPI_File_read_ordered(MPI_File fh, void* buf, int count, MPI_Datatype type,
                          MPI_Status* status) {
  count_io(count, type);
  return PMPI_File_read_ordered(fh, buf, count, type, status);
}

}  // extern "C"
