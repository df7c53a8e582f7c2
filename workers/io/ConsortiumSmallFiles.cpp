#include "io/ConsortiumSmallFiles.hpp"

#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

#include "common/Stats.hpp"
#include "io/ConsortiumPattern.hpp"
#include "io/MpiIoSupport.hpp"

namespace pbench::io {

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::runtime_error(what + " '" + path + "' failed: " + std::strerror(errno));
}

/// What each phase of the test does to one file: create (and write `content`), stat (and check
/// its size), open and close, remove; each throws std::runtime_error naming the call that failed.
std::map<std::string, std::function<void(const std::string&)>> small_file_actions(
    const std::vector<unsigned char>& content, std::int64_t file_size) {
  // `content` is the caller's and outlives the actions; `file_size` is copied.
  return {{"create",
           [&content](const std::string& path) {
             const int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
             if (fd < 0) fail("create", path);
             if (!content.empty() && ::write(fd, content.data(), content.size()) !=
                                         static_cast<ssize_t>(content.size())) {
               const int saved = errno;
               ::close(fd);
               errno = saved;
               fail("write to", path);
             }
             if (::close(fd) != 0) fail("close", path);
           }},
          {"stat",
           [file_size](const std::string& path) {
             struct stat info;
             if (::stat(path.c_str(), &info) != 0) fail("stat", path);
             if (info.st_size != file_size) {
               throw std::runtime_error("'" + path + "' has " + std::to_string(info.st_size) +
                                        " B, not the " + std::to_string(file_size) + " B written");
             }
           }},
          {"open_close",
           [](const std::string& path) {
             const int fd = ::open(path.c_str(), O_RDONLY);
             if (fd < 0) fail("open", path);
             if (::close(fd) != 0) fail("close", path);
           }},
          {"remove", [](const std::string& path) {
             if (::unlink(path.c_str()) != 0) fail("remove", path);
           }}};
}

}  // namespace

SmallFilesStop measure_small_files(const worker::MpiSession& mpi,
                                   const SmallFilesSettings& settings,
                                   worker::ResultDocument& result, std::ostream& protocol) {
  const MPI_Comm comm = mpi.world();
  const int n = mpi.size();
  const int rank = mpi.rank();
  const bool root = mpi.is_root();
  const std::int64_t count = settings.files_per_process;
  std::vector<unsigned char> content(static_cast<std::size_t>(settings.file_size));
  for (std::size_t i = 0; i < content.size(); ++i) content[i] = stamp_byte(rank, std::int64_t(i));

  const std::vector<std::string> phases = {"create", "stat", "open_close", "remove"};
  worker::Table rows({{"directory", ""},
                      {"phase", ""},
                      {"iteration", "count"},
                      {"files", "count"},
                      {"aggregate_time", "s"},
                      {"rate", "1/s"},
                      {"time_min", "s"},
                      {"time_mean", "s"},
                      {"time_max", "s"},
                      {"time_deviation", "s"}});
  std::map<std::pair<std::string, std::string>, double> best;
  std::map<std::pair<std::string, std::string>, std::size_t> samples;
  SmallFilesStop stop;
  std::optional<std::string> local_failure;

  for (const std::string mode : {"shared", "per_process"}) {
    if (stop.stopped()) break;
    const std::string dir = settings.directory + "/small." +
                            (mode == "shared" ? std::string("shared") : std::to_string(rank));
    if (mode == "per_process" || root) {
      if (::mkdir(dir.c_str(), 0755) != 0) {
        local_failure = "create the directory '" + dir + "' failed: " + std::strerror(errno);
      }
    }
    if (agree_on_failure(comm, local_failure, stop.failure)) {
      stop.where = "small files, " + mode + " directory";
      if (!local_failure && (mode == "per_process" || root)) ::rmdir(dir.c_str());
      break;
    }
    auto path_of = [&](std::int64_t i) {
      return dir + "/f." + std::to_string(rank) + "." + std::to_string(i);
    };
    const auto actions = small_file_actions(content, settings.file_size);
    for (int iteration = 0; iteration < settings.iterations && !stop.stopped(); ++iteration) {
      for (const std::string& phase : phases) {
        const auto& action = actions.at(phase);
        MPI_Barrier(comm);
        const double start = worker::now();
        try {
          for (std::int64_t i = 0; i < count; ++i) action(path_of(i));
        } catch (const std::runtime_error& e) {
          local_failure = e.what();
        }
        const double mine = worker::now() - start;
        if (agree_on_failure(comm, local_failure, stop.failure)) {
          stop.where = "small files, " + mode + " directory, iteration " +
                       std::to_string(iteration) + ", " + phase;
          // Remove whatever this process made (errors ignored: some files never existed).
          for (std::int64_t i = 0; i < count; ++i) ::unlink(path_of(i).c_str());
          break;
        }
        std::vector<double> times(root ? static_cast<std::size_t>(n) : 0);
        MPI_Gather(&mine, 1, MPI_DOUBLE, times.data(), 1, MPI_DOUBLE, 0, comm);
        if (!root) continue;
        const double aggregate = *std::max_element(times.begin(), times.end());
        const std::int64_t files = count * n;
        const double rate = aggregate > 0 ? static_cast<double>(files) / aggregate : 0;
        double mean = 0;
        for (double t : times) mean += t;
        mean /= n;
        rows.add_row({mode, phase, iteration, files, aggregate,
                      aggregate > 0 ? nlohmann::json(rate) : nlohmann::json(nullptr),
                      *std::min_element(times.begin(), times.end()), mean, aggregate,
                      consortium_deviation(times)});
        double& b = best[{mode, phase}];
        b = std::max(b, rate);
        ++samples[{mode, phase}];
      }
    }
    MPI_Barrier(comm);
    if (mode == "per_process" || root) {
      if (::rmdir(dir.c_str()) != 0 && !stop.stopped()) {
        local_failure = "remove the directory '" + dir + "' failed: " + std::strerror(errno);
      }
    }
    if (!stop.stopped() && agree_on_failure(comm, local_failure, stop.failure)) {
      stop.where = "small files, " + mode + " directory, removing it";
    }
  }
  if (!root) return stop;
  result.add_table("consortium_small_files", rows.columns()) = rows;
  for (const std::string mode : {"shared", "per_process"}) {
    for (const std::string& phase : phases) {
      const double rate = best[{mode, phase}];
      result.add_metric(phase + "_rate", rate > 0 ? std::optional<double>(rate) : std::nullopt,
                        "1/s", samples[{mode, phase}],
                        {{"directory", mode},
                         {"files_per_process", count},
                         {"file_size", settings.file_size},
                         {"statistic", "maximum over iterations"}});
      protocol << "  small files, " << mode << " directory: " << phase << " " << rate
               << " files/s (" << count * n << " files)\n";
    }
  }
  return stop;
}

}  // namespace pbench::io
