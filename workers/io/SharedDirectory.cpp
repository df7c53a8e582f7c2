#include "io/SharedDirectory.hpp"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "common/WorkerMain.hpp"
#include "io/MpiIoSupport.hpp"

namespace pbench::io {

namespace {

constexpr std::int64_t kChunkBytes = 64 * 1024;
constexpr const char* kMarkerName = "/.pbench-visible";
constexpr const char* kCheckName = "/.pbench-read-back";
/// A file written on one node may take a moment to appear in another node's view of a network
/// file system (cached directory entries): retry for this long before calling it invisible.
constexpr auto kVisibilityPatience = std::chrono::seconds(3);

bool marker_readable(const std::string& path, const std::string& token) {
  const auto deadline = std::chrono::steady_clock::now() + kVisibilityPatience;
  while (true) {
    std::ifstream in(path);
    std::stringstream text;
    if (in) text << in.rdbuf();
    if (in && text.str() == token) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

std::string joined(const std::vector<int>& ranks) {
  std::string text;
  for (int r : ranks) text += (text.empty() ? "" : ", ") + std::to_string(r);
  return text;
}

}  // namespace

int read_back_source(const worker::NodeLayout& layout, int rank) {
  const int n = layout.size();
  for (int step = 1; step < n; ++step) {
    const int other = (rank + step) % n;
    if (!layout.same_node(rank, other)) return other;
  }
  return (rank + 1) % n;
}

std::optional<std::string> visibility_problem(const std::string& directory,
                                              const worker::NodeLayout& layout,
                                              const std::vector<bool>& sees) {
  std::map<int, std::vector<int>> blind;  // node -> ranks that cannot see the marker
  for (int r = 0; r < layout.size(); ++r) {
    if (!sees[static_cast<std::size_t>(r)]) blind[layout.node_of(r)].push_back(r);
  }
  if (blind.empty()) return std::nullopt;
  std::string nodes;
  for (const auto& [node, ranks] : blind) {
    nodes += (nodes.empty() ? "" : ", ") + layout.hosts()[static_cast<std::size_t>(node)] +
             (ranks.size() == 1 ? " (rank " : " (ranks ") + joined(ranks) + ")";
  }
  return "--dir: the benchmark directory '" + directory + "' is not visible from " +
         (blind.size() == 1 ? "node " : "nodes ") + nodes + ": rank 0 on " + layout.host_of(0) +
         " wrote a marker there that they cannot read; give --dir on a file system that every "
         "node shares";
}

unsigned char read_back_byte(int rank, std::int64_t i) {
  return static_cast<unsigned char>((rank * 131 + i * 7 + (i >> 8) + 0x5a) & 0xff);
}

int ReadBackCheck::across_nodes() const {
  int count = 0;
  for (const auto& row : rows) count += row.host != row.source_host ? 1 : 0;
  return count;
}

int ReadBackCheck::wrong_chunks() const {
  int count = 0;
  for (const auto& row : rows) count += row.wrong_bytes > 0 ? 1 : 0;
  return count;
}

void ReadBackCheck::report(worker::ResultDocument& result) const {
  auto& table = result.add_table("read_back_across_nodes", {{"rank", ""},
                                                            {"host", ""},
                                                            {"source_rank", ""},
                                                            {"source_host", ""},
                                                            {"bytes", "B"},
                                                            {"wrong_bytes", "B"}});
  for (const auto& row : rows) {
    table.add_row({row.rank, row.host, row.source, row.source_host, row.bytes, row.wrong_bytes});
  }
  if (failure) {
    result.invalidate("read-back check across nodes failed: " + *failure);
  } else if (wrong_chunks() > 0) {
    result.invalidate("read-back check across nodes: " + std::to_string(wrong_chunks()) + " of " +
                      std::to_string(rows.size()) +
                      " chunks read on one node differ from what another rank wrote");
  } else if (rows.size() > 1 && across_nodes() == 0) {
    result.add_warning(
        "every rank runs on one node: the read-back check verified data written "
        "by another rank of the same node, not across nodes");
  }
}

ReadBackCheck check_shared_directory(const worker::MpiSession& mpi, const std::string& directory,
                                     const HintList& hints) {
  const MPI_Comm world = mpi.world();
  const int rank = mpi.rank();
  const int n = mpi.size();
  const worker::NodeLayout layout(mpi.rank_hosts());

  // 1. The marker: written by rank 0, read by every rank.
  const std::string marker = directory + kMarkerName;
  std::string token;
  if (mpi.is_root()) {
    token = "pbench-io marker " + layout.host_of(0) + " " + std::to_string(getpid()) + " " +
            std::to_string(std::chrono::system_clock::now().time_since_epoch().count()) + "\n";
    std::ofstream out(marker, std::ios::trunc);
    out << token;
    out.close();
    if (!out) token.clear();  // nobody will read it; the check below names rank 0 itself
  }
  token = broadcast_string(token, world);
  const int sees_mine = !token.empty() && marker_readable(marker, token) ? 1 : 0;
  std::vector<int> sees_all(static_cast<std::size_t>(n), 0);
  MPI_Allgather(&sees_mine, 1, MPI_INT, sees_all.data(), 1, MPI_INT, world);
  MPI_Barrier(world);
  if (mpi.is_root()) unlink(marker.c_str());
  const std::vector<bool> sees(sees_all.begin(), sees_all.end());
  if (const auto problem = visibility_problem(directory, layout, sees)) {
    MPI_Barrier(world);
    if (mpi.is_root()) rmdir(directory.c_str());
    throw worker::UsageError(*problem);
  }

  // 2. Read-back: every rank writes its chunk, then reads the chunk of a rank on another node.
  ReadBackCheck check;
  const std::string path = directory + kCheckName;
  const int source = read_back_source(layout, rank);
  std::vector<unsigned char> chunk(static_cast<std::size_t>(kChunkBytes));
  for (std::int64_t i = 0; i < kChunkBytes; ++i) {
    chunk[static_cast<std::size_t>(i)] = read_back_byte(rank, i);
  }
  std::optional<std::string> local;
  const auto failed = [&](int code, const char* what) {
    if (code == MPI_SUCCESS) return false;
    if (!local)
      local = std::string(what) + " '" + path + "' failed: " + mpi_error_text(code, errno);
    return true;
  };
  MPI_Info info = make_info(hints);
  MPI_File fh = MPI_FILE_NULL;
  if (!failed(MPI_File_open(world, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh),
              "open for writing")) {
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    MPI_Status status;
    failed(MPI_File_write_at(fh, rank * kChunkBytes, chunk.data(), static_cast<int>(kChunkBytes),
                             MPI_BYTE, &status),
           "write to");
    failed(MPI_File_sync(fh), "sync");
    failed(MPI_File_close(&fh), "close");
  }
  std::string text;
  bool stopped = agree_on_failure(world, local, text);
  std::int64_t wrong = 0;
  if (!stopped) {
    MPI_Barrier(world);
    std::vector<unsigned char> read(static_cast<std::size_t>(kChunkBytes), 0);
    if (!failed(MPI_File_open(world, path.c_str(), MPI_MODE_RDONLY, info, &fh),
                "open for reading")) {
      MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
      MPI_Status status;
      failed(MPI_File_read_at(fh, source * kChunkBytes, read.data(), static_cast<int>(kChunkBytes),
                              MPI_BYTE, &status),
             "read from");
      failed(MPI_File_close(&fh), "close");
    }
    for (std::int64_t i = 0; i < kChunkBytes; ++i) {
      wrong += read[static_cast<std::size_t>(i)] != read_back_byte(source, i) ? 1 : 0;
    }
    stopped = agree_on_failure(world, local, text);
  }
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  MPI_Barrier(world);
  if (mpi.is_root()) MPI_File_delete(path.c_str(), MPI_INFO_NULL);

  std::vector<long long> wrong_all(static_cast<std::size_t>(n), 0);
  long long mine = wrong;
  MPI_Gather(&mine, 1, MPI_LONG_LONG, wrong_all.data(), 1, MPI_LONG_LONG, 0, world);
  if (!mpi.is_root()) return check;
  if (stopped) check.failure = text;
  for (int r = 0; r < n; ++r) {
    const int s = read_back_source(layout, r);
    check.rows.push_back({r, layout.host_of(r), s, layout.host_of(s), kChunkBytes,
                          stopped ? 0 : wrong_all[static_cast<std::size_t>(r)]});
  }
  return check;
}

RunDirectory make_run_directory(const worker::MpiSession& mpi, const std::string& parent,
                                const HintList& hints) {
  const std::string where = parent.empty() ? "." : parent;
  std::string path;
  std::string problem;
  if (mpi.is_root()) {
    std::string pattern = where + "/pbench-io.XXXXXX";
    std::vector<char> text(pattern.begin(), pattern.end());
    text.push_back('\0');
    if (mkdtemp(text.data()) == nullptr) {
      problem = "--dir: cannot create a directory in '" + where + "': " + std::strerror(errno);
    } else {
      char resolved[PATH_MAX];
      path = realpath(text.data(), resolved) ? resolved : text.data();
    }
  }
  problem = broadcast_string(problem, mpi.world());
  if (!problem.empty()) throw worker::UsageError(problem);
  RunDirectory directory;
  directory.path = broadcast_string(path, mpi.world());
  // The directory is seen from every node, and data written on one node reads back on another.
  directory.read_back = check_shared_directory(mpi, directory.path, hints);
  return directory;
}

}  // namespace pbench::io
