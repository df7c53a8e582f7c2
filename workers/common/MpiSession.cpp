#include "common/MpiSession.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

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

/// FNV-1a of the kernel's boot id (/proc/sys/kernel/random/boot_id): the same on every node
/// of one machine, another after every boot and on every other machine; 0 when unreadable.
std::uint64_t boot_id_hash() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (!std::getline(in, id) || id.empty()) return 0;
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : id) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash == 0 ? 1 : hash;
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
  // The kernel the node runs on, by a hash of its boot id (nodes in containers or namespaces
  // of one machine share it, and its CPUs), and that kernel's online CPUs.
  const std::uint64_t machine = node_rank == 0 ? boot_id_hash() : 0;
  const long online = node_rank == 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 0;
  // Each node's first rank speaks for it: {is first, ranks, cores, machine (two halves), online
  // CPUs} of every rank, in rank order.
  constexpr int kFields = 6;
  const int local[kFields] = {node_rank == 0 ? 1 : 0,
                              node_size,
                              std::max(cores, 1),
                              static_cast<int>(static_cast<std::uint32_t>(machine >> 32)),
                              static_cast<int>(static_cast<std::uint32_t>(machine)),
                              static_cast<int>(std::max(online, 0L))};
  std::vector<int> every(static_cast<std::size_t>(size_) * kFields);
  MPI_Allgather(local, kFields, MPI_INT, every.data(), kFields, MPI_INT, MPI_COMM_WORLD);
  std::vector<NodeCores> nodes;
  for (int r = 0; r < size_; ++r) {
    const int* entry = every.data() + static_cast<std::size_t>(r) * kFields;
    if (entry[0] == 0) continue;
    const std::string host =
        r < static_cast<int>(rank_hosts.size()) ? rank_hosts[static_cast<std::size_t>(r)] : "";
    const std::uint64_t hash = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(entry[3]))
                                << 32) |
                               static_cast<std::uint32_t>(entry[4]);
    char hex[17] = {};
    std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(hash));
    nodes.push_back({host.empty() ? "rank " + std::to_string(r) : host, entry[1], entry[2],
                     hash == 0 ? std::string() : std::string(hex), entry[5]});
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
