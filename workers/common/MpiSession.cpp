#include "common/MpiSession.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace pbench::worker {

MpiSession::MpiSession(std::string worker, int& argc, char**& argv) : worker_(std::move(worker)) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  // Errors come back as codes so the worker can name them before aborting.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

void MpiSession::fatal(const std::string& message) const {
  std::fprintf(stderr, "pbench-%s: error: %s (rank %d)\n", worker_.c_str(), message.c_str(), rank_);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::_Exit(3);
}

std::vector<std::string> MpiSession::rank_hosts() const {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  std::vector<char> all(static_cast<std::size_t>(size_) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME,
                MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> hosts;
  for (int r = 0; r < size_; ++r) {
    const char* p = all.data() + static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME;
    hosts.emplace_back(p, strnlen(p, MPI_MAX_PROCESSOR_NAME));
  }
  return hosts;
}

std::vector<std::string> MpiSession::host_names() const {
  std::vector<std::string> hosts;
  for (auto& host : rank_hosts()) {
    if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
  }
  return hosts;
}

int MpiSession::procs_per_node() const {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  int local = 1;
  MPI_Comm_size(node, &local);
  MPI_Comm_free(&node);
  int most = local;
  MPI_Allreduce(&local, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

namespace {

/// The logical CPUs this process may run on as a bit mask of `bytes` bytes (CPU c: bit c % 8 of
/// byte c / 8): its affinity mask, or the online CPUs when the mask cannot be read.
std::vector<unsigned char> allowed_cpus(std::size_t bytes) {
  std::vector<unsigned char> mask(bytes, 0);
  const std::size_t cpus = bytes * 8;
  cpu_set_t* set = CPU_ALLOC(cpus);
  const std::size_t set_size = CPU_ALLOC_SIZE(cpus);
  bool known = false;
  if (set != nullptr) {
    CPU_ZERO_S(set_size, set);
    if (sched_getaffinity(0, set_size, set) == 0) {
      known = true;
      for (std::size_t c = 0; c < cpus; ++c) {
        if (CPU_ISSET_S(c, set_size, set)) mask[c / 8] |= static_cast<unsigned char>(1u << (c % 8));
      }
    }
    CPU_FREE(set);
  }
  if (!known) {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    for (long c = 0; c < std::max(online, 1L) && static_cast<std::size_t>(c) < cpus; ++c)
      mask[static_cast<std::size_t>(c) / 8] |= static_cast<unsigned char>(1u << (c % 8));
  }
  return mask;
}

}  // namespace

std::vector<NodeCores> MpiSession::node_cores(const std::vector<std::string>& rank_hosts) const {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  int node_rank = 0;
  int node_size = 1;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);
  // Room for every CPU the node has configured (at least 1024, cpu_set_t's), the same size on
  // every rank of the node: the union of the masks is a bitwise or over the node's ranks.
  long configured = 0;
  if (node_rank == 0) configured = std::max(sysconf(_SC_NPROCESSORS_CONF), 1024L);
  MPI_Bcast(&configured, 1, MPI_LONG, 0, node);
  const std::size_t bytes = (static_cast<std::size_t>(configured) + 7) / 8;
  const std::vector<unsigned char> mine = allowed_cpus(bytes);
  std::vector<unsigned char> all(bytes, 0);
  MPI_Allreduce(mine.data(), all.data(), static_cast<int>(bytes), MPI_UNSIGNED_CHAR, MPI_BOR, node);
  MPI_Comm_free(&node);
  int cores = 0;
  for (unsigned char byte : all) cores += __builtin_popcount(byte);
  // Each node's first rank speaks for it: {is first, ranks, cores} of every rank, in rank order.
  const int local[3] = {node_rank == 0 ? 1 : 0, node_size, std::max(cores, 1)};
  std::vector<int> every(static_cast<std::size_t>(size_) * 3);
  MPI_Allgather(local, 3, MPI_INT, every.data(), 3, MPI_INT, MPI_COMM_WORLD);
  std::vector<NodeCores> nodes;
  for (int r = 0; r < size_; ++r) {
    const int* entry = every.data() + static_cast<std::size_t>(r) * 3;
    if (entry[0] == 0) continue;
    const std::string host =
        r < static_cast<int>(rank_hosts.size()) ? rank_hosts[static_cast<std::size_t>(r)] : "";
    nodes.push_back({host.empty() ? "rank " + std::to_string(r) : host, entry[1], entry[2]});
  }
  return nodes;
}

std::string MpiSession::library_version() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string text(version, strnlen(version, sizeof(version)));
  auto end = text.find('\n');
  if (end != std::string::npos) text.resize(end);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.pop_back();
  return text.empty() ? "unknown MPI library" : text;
}

}  // namespace pbench::worker
