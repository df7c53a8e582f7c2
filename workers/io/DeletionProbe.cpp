#include "io/DeletionProbe.hpp"

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <thread>

#include "common/Stats.hpp"
#include "io/MpiIoSupport.hpp"
#include "io/TimePlan.hpp"

namespace pbench::io {

DeletionProbe probe_deletion(const std::string& directory, IoBuffer& buffer, double delay_per_gb) {
  DeletionProbe probe;
  const std::string path = directory + "/deletion_probe";
  auto ok = [&](int code, const char* what) {
    if (code != MPI_SUCCESS && probe.problem.empty()) {
      probe.problem = std::string(what) + " '" + path + "' failed: " + mpi_error_text(code, errno);
    }
    return code == MPI_SUCCESS;
  };
  MPI_File fh = MPI_FILE_NULL;
  if (ok(MPI_File_open(MPI_COMM_SELF, path.c_str(), MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR,
                       MPI_INFO_NULL, &fh),
         "open")) {
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    const std::int64_t chunk =
        std::min<std::int64_t>(static_cast<std::int64_t>(buffer.size()), 4LL * 1024 * 1024);
    const auto pass = [&](bool write) {
      bool going = true;
      for (std::int64_t at = 0; going && at < kDeletionProbeBytes; at += chunk) {
        MPI_Status status;
        const int count = static_cast<int>(chunk);
        going = write ? ok(MPI_File_write_at(fh, at, buffer.data(), count, MPI_BYTE, &status),
                           "write to")
                      : ok(MPI_File_read_at(fh, at, buffer.data(), count, MPI_BYTE, &status),
                           "read from");
      }
      return going;
    };
    const double write_start = worker::now();
    if (pass(true) && ok(MPI_File_sync(fh), "sync of")) {
      const double read_start = worker::now();
      probe.write_seconds = read_start - write_start;
      if (pass(false)) probe.read_seconds = worker::now() - read_start;
    }
    ok(MPI_File_close(&fh), "close");
  }
  const double start = worker::now();
  if (probe.problem.empty() && delay_per_gb > 0) {
    const double seconds = delay_per_gb * static_cast<double>(kDeletionProbeBytes) / 1e9;
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  }
  ok(MPI_File_delete(path.c_str(), MPI_INFO_NULL), "delete");
  if (probe.problem.empty()) {
    probe.seconds = worker::now() - start;
    probe.bytes = static_cast<double>(kDeletionProbeBytes);
  }
  return probe;
}

}  // namespace pbench::io
