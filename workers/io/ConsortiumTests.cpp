#include "io/ConsortiumTests.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/EnumName.hpp"
#include "common/MpiCost.hpp"
#include "common/Stats.hpp"
#include "io/MpiIoSupport.hpp"

namespace pbench::io {

namespace {

constexpr const char* kDropCachesPath = "/proc/sys/vm/drop_caches";

/// Syncs and drops the page cache, dentries and inodes of this node; "" on success, else why not.
std::string drop_caches() {
  ::sync();
  const int fd = ::open(kDropCachesPath, O_WRONLY);
  std::string problem;
  if (fd < 0) {
    problem = std::string("cannot open ") + kDropCachesPath + ": " + std::strerror(errno);
  } else {
    if (::write(fd, "3\n", 2) != 2) {
      problem = std::string("cannot write ") + kDropCachesPath + ": " + std::strerror(errno);
    }
    ::close(fd);
  }
  if (!problem.empty() && ::geteuid() != 0) problem += " (not running as root)";
  return problem;
}

/// Every rank's text gathered at rank 0 of `comm` (collective); empty elsewhere.
std::vector<std::string> gather_strings(const std::string& mine, MPI_Comm comm) {
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(rank == 0 ? static_cast<std::size_t>(size) : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::vector<int> starts(lengths.size(), 0);
  int total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    starts[i] = total;
    total += lengths[i];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), starts.data(), MPI_CHAR, 0,
              comm);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    out.push_back(
        all.substr(static_cast<std::size_t>(starts[i]), static_cast<std::size_t>(lengths[i])));
  }
  return out;
}

}  // namespace

const char* test_name(ConsortiumTest test) {
  constexpr EnumName<ConsortiumTest> kNames[] = {
      {ConsortiumTest::sustained_write, "sustained_write"},
      {ConsortiumTest::cached_write, "cached_write"},
      {ConsortiumTest::sustained_read, "sustained_read"}};
  return name_of(kNames, test, "");
}

ConsortiumTests::ConsortiumTests(const worker::MpiSession& mpi, const IoConfig& io,
                                 const ConsortiumConfig& config, const ConsortiumLayout& layout,
                                 std::string directory)
    : mpi_(mpi),
      io_(io),
      config_(config),
      directory_(std::move(directory)),
      comm_(mpi.world()),
      n_(mpi.size()),
      rank_(mpi.rank()),
      root_(mpi.is_root()),
      fpp_(config.file_per_process),
      source_((rank_ + 1) % n_),
      hints_(io.hints.for_type(-1)),
      caches_dropped_(config.drop_caches) {
  // Sustained read: process r reads the data of process r+1 (mod n), never its own.
  mine_ = layout.transfers(fpp_ ? 0 : rank_);
  theirs_ = layout.transfers(fpp_ ? 0 : source_);
  // Collective calls: every process makes as many calls as the process with the most transfers.
  long long local_calls = static_cast<long long>(std::max(mine_.size(), theirs_.size()));
  MPI_Allreduce(&local_calls, &calls_, 1, MPI_LONG_LONG, MPI_MAX, comm_);

  // The buffers, page-aligned (reading cached pages into a buffer 16 bytes past a page boundary,
  // b_eff_io rev 2.1's placement, ran at a third of the aligned speed here): the writes from one
  // buffer byte per byte moved (no buffer reuse, the suite's rule for the sustained write), the
  // reads into one buffer of the largest transfer, reused for every transfer as IOR does. The
  // result's table consortium_buffers says so.
  bytes_ = layout.bytes_per_client();
  out_buffer_ =
      IoBuffer(static_cast<std::size_t>(std::max<std::int64_t>(bytes_, 1)), 0, std::byte{0});
  unsigned char* const out = reinterpret_cast<unsigned char*>(out_buffer_.data());
  std::size_t at = 0;
  for (const Transfer& t : mine_) {
    for (std::int64_t i = 0; i < t.size; ++i) out[at++] = stamp_byte(rank_, t.offset + i);
  }
  for (const Transfer& t : theirs_) largest_read_ = std::max(largest_read_, t.size);
  in_buffer_ = IoBuffer(static_cast<std::size_t>(largest_read_), 0, std::byte{0});

  // --drop-caches: one rank per node drops the node's caches before each sustained read.
  if (config_.drop_caches) {
    MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_);
    MPI_Comm_rank(node_, &node_rank_);
  }
  // --preallocate: the extent of the file a write test makes (of this process's file with
  // --file-per-process), reserved before the timing.
  std::int64_t local_end = 0;
  for (const Transfer& t : mine_) local_end = std::max(local_end, t.offset + t.size);
  file_extent_ = local_end;
  if (!fpp_) MPI_Allreduce(&local_end, &file_extent_, 1, MPI_INT64_T, MPI_MAX, comm_);
}

void ConsortiumTests::finish() {
  if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
}

std::string ConsortiumTests::path_of(ConsortiumTest test, int iteration, int process) const {
  std::string path =
      directory_ + "/" + config_.filename + "." + test_name(test) + "." + std::to_string(iteration);
  if (fpp_) path += "." + std::to_string(process);
  return path;
}

bool ConsortiumTests::fail_mpi(int code, const std::string& what, const std::string& path) {
  if (code == MPI_SUCCESS) return false;
  const int saved = errno;
  if (!local_failure_)
    local_failure_ = what + " '" + path + "' failed: " + mpi_error_text(code, saved);
  return true;
}

void ConsortiumTests::fail_posix(const std::string& what, const std::string& path,
                                 const std::string& why) {
  if (!local_failure_) local_failure_ = what + " '" + path + "' failed: " + why;
}

void ConsortiumTests::drop_node_caches() {
  std::string problem;
  if (node_rank_ == 0) {
    problem = drop_caches();
    if (!problem.empty()) {
      char host[MPI_MAX_PROCESSOR_NAME] = {};
      int length = 0;
      MPI_Get_processor_name(host, &length);
      problem = std::string(host, static_cast<std::size_t>(length)) + ": " + problem;
    }
  }
  int failed = problem.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm_);
  if (failed) caches_dropped_ = false;
  for (const std::string& p : gather_strings(problem, comm_)) {
    if (!p.empty() &&
        std::find(drop_problems_.begin(), drop_problems_.end(), p) == drop_problems_.end()) {
      drop_problems_.push_back(p);
    }
  }
}

void ConsortiumTests::preallocate(const std::string& path, MPI_Comm fcomm) {
  if (config_.posix) {
    if (fpp_ || root_) {
      const int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
      if (fd < 0) {
        fail_posix("preallocate (open)", path, std::strerror(errno));
        return;
      }
      if (const int code = ::posix_fallocate(fd, 0, static_cast<off_t>(file_extent_))) {
        fail_posix("preallocate", path, std::strerror(code));
      }
      if (::fsync(fd) != 0) fail_posix("preallocate (sync)", path, std::strerror(errno));
      if (::close(fd) != 0) fail_posix("preallocate (close)", path, std::strerror(errno));
    }
    return;
  }
  MPI_Info info = make_info(hints_);
  MPI_File fh = MPI_FILE_NULL;
  const bool open_failed =
      fail_mpi(MPI_File_open(fcomm, path.c_str(), MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY,
                             info, &fh),
               "preallocate (open)", path);
  if (!open_failed) {
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    fail_mpi(MPI_File_preallocate(fh, static_cast<MPI_Offset>(file_extent_)), "preallocate", path);
    fail_mpi(MPI_File_sync(fh), "preallocate (sync)", path);
    fail_mpi(MPI_File_close(&fh), "preallocate (close)", path);
  }
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
}

void ConsortiumTests::corrupt(int iteration) {
  // Test only (--inject-corruption): before each sustained read every process overwrites two
  // bytes of the data it wrote, the middle byte of its first transfer (only the full read check
  // sees it) and the first byte of its last (the timed spot check sees it too).
  const std::string path = path_of(ConsortiumTest::sustained_write, iteration, rank_);
  const int fd = mine_.empty() ? -1 : ::open(path.c_str(), O_WRONLY);
  if (!mine_.empty() && fd < 0) fail_posix("--inject-corruption: open", path, std::strerror(errno));
  if (fd >= 0) {
    for (const std::int64_t at :
         {mine_.front().offset + mine_.front().size / 2, mine_.back().offset}) {
      const unsigned char wrong = static_cast<unsigned char>(stamp_byte(rank_, at) ^ 0xff);
      if (::pwrite(fd, &wrong, 1, static_cast<off_t>(at)) != 1) {
        fail_posix("--inject-corruption: write", path, std::strerror(errno));
      }
    }
    if (::fsync(fd) != 0) fail_posix("--inject-corruption: sync", path, std::strerror(errno));
    ::close(fd);
  }
  MPI_Barrier(comm_);
}

void ConsortiumTests::spot_check(const unsigned char* data, const Transfer& t,
                                 long long& spot_errors) const {
  if (t.size <= 0) return;
  if (data[0] != stamp_byte(source_, t.offset)) ++spot_errors;
  if (t.size > 1 && data[t.size - 1] != stamp_byte(source_, t.offset + t.size - 1)) ++spot_errors;
}

ProcessTimes ConsortiumTests::transfer_posix(ConsortiumTest test, const std::string& path,
                                             long long& spot_errors) {
  const bool writing = test != ConsortiumTest::sustained_read;
  const std::vector<Transfer>& plan = writing ? mine_ : theirs_;
  unsigned char* const out = reinterpret_cast<unsigned char*>(out_buffer_.data());
  unsigned char* const in = reinterpret_cast<unsigned char*>(in_buffer_.data());
  const char* verb = writing ? "write to" : "read from";
  // POSIX: the run directory is new, so a shared file is created by whoever opens first.
  const int flags = !writing              ? O_RDONLY
                    : config_.preallocate ? O_WRONLY
                                          : O_CREAT | O_WRONLY | (fpp_ ? O_EXCL : 0);
  MPI_Barrier(comm_);
  const double start = worker::now();
  const int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) fail_posix("open", path, std::strerror(errno));
  const double opened = worker::now();
  std::size_t at = 0;
  for (const Transfer& t : plan) {
    if (fd < 0 || local_failure_) break;
    // The buffer of a transfer: the writes' own bytes, the reads' one reused buffer.
    unsigned char* data = writing ? out + at : in;
    std::int64_t done = 0;
    while (done < t.size) {  // a POSIX call may move fewer bytes than asked
      const ssize_t moved = writing
                                ? ::pwrite(fd, data + done, static_cast<std::size_t>(t.size - done),
                                           static_cast<off_t>(t.offset + done))
                                : ::pread(fd, data + done, static_cast<std::size_t>(t.size - done),
                                          static_cast<off_t>(t.offset + done));
      if (moved <= 0) {
        fail_posix(verb, path, moved == 0 ? "unexpected end of file" : std::strerror(errno));
        break;
      }
      done += moved;
    }
    if (done == t.size && !writing) spot_check(data, t, spot_errors);
    at += static_cast<std::size_t>(t.size);
  }
  if (fd >= 0 && test == ConsortiumTest::sustained_write && ::fsync(fd) != 0) {
    fail_posix("sync", path, std::strerror(errno));
  }
  const double transferred = worker::now();
  if (fd >= 0 && ::close(fd) != 0) fail_posix("close", path, std::strerror(errno));
  const double closed = worker::now();
  return {opened - start, transferred - opened, closed - transferred, closed - start};
}

ProcessTimes ConsortiumTests::transfer_mpiio(ConsortiumTest test, const std::string& path,
                                             int amode, long long& spot_errors) {
  const bool writing = test != ConsortiumTest::sustained_read;
  const std::vector<Transfer>& plan = writing ? mine_ : theirs_;
  unsigned char* const out = reinterpret_cast<unsigned char*>(out_buffer_.data());
  unsigned char* const in = reinterpret_cast<unsigned char*>(in_buffer_.data());
  const char* verb = writing ? "write to" : "read from";
  const MPI_Comm fcomm = fpp_ ? MPI_COMM_SELF : comm_;
  MPI_Info info = make_info(hints_);
  MPI_File fh = MPI_FILE_NULL;
  MPI_Barrier(comm_);
  const double start = worker::now();
  // ROMIO agrees on the outcome of a collective open, so every rank of fcomm sees a failure.
  const bool open_failed =
      fail_mpi(MPI_File_open(fcomm, path.c_str(), amode, info, &fh), "open", path);
  const double opened = worker::now();
  double transferred = 0;
  if (!open_failed) {
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    std::size_t at = 0;
    for (long long c = 0; c < calls_; ++c) {
      // After a failure: independent calls stop, collective ones go on empty to the end.
      const bool real = c < static_cast<long long>(plan.size()) && !local_failure_;
      if (!real && !config_.collective) break;
      const MPI_Offset offset = real ? plan[c].offset : 0;
      const int count = real ? static_cast<int>(plan[c].size) : 0;
      unsigned char* data = writing ? out + at : in;
      worker::count_loops(1);  // one transfer
      int code = MPI_SUCCESS;
      if (writing) {
        code = config_.collective
                   ? MPI_File_write_at_all(fh, offset, data, count, MPI_BYTE, MPI_STATUS_IGNORE)
                   : MPI_File_write_at(fh, offset, data, count, MPI_BYTE, MPI_STATUS_IGNORE);
      } else {
        code = config_.collective
                   ? MPI_File_read_at_all(fh, offset, data, count, MPI_BYTE, MPI_STATUS_IGNORE)
                   : MPI_File_read_at(fh, offset, data, count, MPI_BYTE, MPI_STATUS_IGNORE);
      }
      if (!fail_mpi(code, verb, path) && real && !writing) spot_check(data, plan[c], spot_errors);
      at += static_cast<std::size_t>(count);
    }
    if (test == ConsortiumTest::sustained_write) fail_mpi(MPI_File_sync(fh), "sync", path);
    transferred = worker::now();
    fail_mpi(MPI_File_close(&fh), "close", path);
  } else {
    transferred = worker::now();
  }
  const double closed = worker::now();
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  return {opened - start, transferred - opened, closed - transferred, closed - start};
}

long long ConsortiumTests::read_check(const std::string& path) {
  // Every byte must be the source process's stamp, read again transfer by transfer into the
  // reused buffer (independently, whatever the test's API).
  unsigned char* const in = reinterpret_cast<unsigned char*>(in_buffer_.data());
  long long errors = 0;
  MPI_File fh = MPI_FILE_NULL;
  if (fail_mpi(MPI_File_open(MPI_COMM_SELF, path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
               "open (read check)", path)) {
    return errors;
  }
  MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
  for (const Transfer& t : theirs_) {
    MPI_Status status;
    if (fail_mpi(MPI_File_read_at(fh, t.offset, in, static_cast<int>(t.size), MPI_BYTE, &status),
                 "read (read check)", path)) {
      break;
    }
    int got = 0;
    MPI_Get_count(&status, MPI_BYTE, &got);
    errors += t.size - got;
    for (std::int64_t i = 0; i < got; ++i) {
      if (in[i] != stamp_byte(source_, t.offset + i)) ++errors;
    }
  }
  fail_mpi(MPI_File_close(&fh), "close (read check)", path);
  return errors;
}

TestOutcome ConsortiumTests::run(ConsortiumTest test, int iteration) {
  const bool writing = test != ConsortiumTest::sustained_read;
  const int owner = writing ? rank_ : source_;
  const std::string path =
      path_of(test == ConsortiumTest::cached_write ? ConsortiumTest::cached_write
                                                   : ConsortiumTest::sustained_write,
              iteration, owner);
  const MPI_Comm fcomm = fpp_ ? MPI_COMM_SELF : comm_;
  // With --preallocate the write tests open the file made (and its space reserved) before.
  const int amode = !writing              ? MPI_MODE_RDONLY
                    : config_.preallocate ? MPI_MODE_WRONLY
                                          : MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY;
  if (writing && config_.preallocate) preallocate(path, fcomm);
  if (test == ConsortiumTest::sustained_read && io_.inject_corruption) corrupt(iteration);
  if (test == ConsortiumTest::sustained_read && config_.drop_caches) drop_node_caches();
  // Reads: the first and last byte of every timed transfer are checked as it ends (two
  // compares a call); every byte is checked after the timing, by a second, untimed read.
  long long errors = 0;
  const ProcessTimes times = config_.posix ? transfer_posix(test, path, errors)
                                           : transfer_mpiio(test, path, amode, errors);
  if (!writing && !local_failure_) errors += read_check(path);
  TestOutcome outcome;
  MPI_Reduce(&errors, &outcome.errors, 1, MPI_LONG_LONG, MPI_SUM, 0, comm_);
  double mine_times[4] = {times.open, times.transfer, times.close, times.total};
  std::vector<double> gathered(root_ ? static_cast<std::size_t>(4 * n_) : 0);
  MPI_Gather(mine_times, 4, MPI_DOUBLE, gathered.data(), 4, MPI_DOUBLE, 0, comm_);
  for (int p = 0; root_ && p < n_; ++p) {
    outcome.per_process.push_back(
        {gathered[4 * p], gathered[4 * p + 1], gathered[4 * p + 2], gathered[4 * p + 3]});
  }
  return outcome;
}

void ConsortiumTests::remove_files() {
  MPI_Barrier(comm_);
  for (int iteration = 0; iteration < config_.iterations; ++iteration) {
    for (ConsortiumTest test : {ConsortiumTest::sustained_write, ConsortiumTest::cached_write}) {
      if (fpp_) {
        MPI_File_delete(path_of(test, iteration, rank_).c_str(), MPI_INFO_NULL);
      } else if (root_) {
        MPI_File_delete(path_of(test, iteration, 0).c_str(), MPI_INFO_NULL);
      }
    }
  }
  MPI_Barrier(comm_);
  if (root_) rmdir(directory_.c_str());
}

}  // namespace pbench::io
