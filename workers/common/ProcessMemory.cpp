#include "common/ProcessMemory.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace pbench::worker {

namespace {

constexpr std::int64_t kMebi = 1024 * 1024;

/// A whole non-negative decimal number, nothing for anything else.
std::optional<std::int64_t> whole_number(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.empty() || text.size() > 18) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  return std::stoll(text);
}

/// Slurm's memory variables are megabytes, sometimes with a unit suffix (K, M, G, T).
std::optional<std::int64_t> slurm_megabytes_to_bytes(std::string text) {
  std::int64_t scale = kMebi;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K':
        scale = 1024;
        break;
      case 'M':
        scale = kMebi;
        break;
      case 'G':
        scale = 1024 * kMebi;
        break;
      case 'T':
        scale = 1024 * 1024 * kMebi;
        break;
      default:
        scale = 0;
        break;
    }
    if (scale != 0)
      text.pop_back();
    else
      scale = kMebi;
  }
  const auto number = whole_number(text);
  if (!number || *number > std::numeric_limits<std::int64_t>::max() / scale) return std::nullopt;
  return *number * scale;
}

/// The cgroup directories of this process, innermost first, with the file naming their limit:
/// v2 ("0::/path") reads memory.max, v1 (a line whose controllers include "memory") reads
/// memory.limit_in_bytes.
std::vector<std::string> cgroup_limit_files(const MemorySources& sources) {
  std::vector<std::string> files;
  const auto text = sources.read_file("/proc/self/cgroup");
  if (!text) return files;
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line)) {
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    std::string base;
    std::string file;
    if (line.compare(0, first, "0") == 0 && controllers.empty()) {
      base = sources.cgroup_root;
      file = "memory.max";
    } else {
      std::istringstream names(controllers);
      std::string name;
      bool memory = false;
      while (std::getline(names, name, ',')) memory = memory || name == "memory";
      if (!memory) continue;
      base = sources.cgroup_root + "/memory";
      file = "memory.limit_in_bytes";
    }
    // This cgroup and every ancestor up to the root: a job's limit sits above its tasks.
    while (true) {
      files.push_back(base + (path == "/" ? std::string() : path) + "/" + file);
      if (path.empty() || path == "/") break;
      const auto slash = path.rfind('/');
      path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
    }
  }
  return files;
}

}  // namespace

MemorySources MemorySources::system() {
  MemorySources s;
  s.env = [](const std::string& name) -> std::optional<std::string> {
    if (const char* value = std::getenv(name.c_str())) return std::string(value);
    return std::nullopt;
  };
  s.read_file = [](const std::string& path) -> std::optional<std::string> {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return text.str();
  };
  return s;
}

std::optional<std::int64_t> physical_memory(const MemorySources& sources) {
  if (const auto text = sources.read_file("/proc/meminfo")) {
    std::istringstream lines(*text);
    std::string key;
    std::int64_t kib = 0;
    std::string unit;
    while (lines >> key >> kib) {
      std::getline(lines, unit);
      if (key == "MemTotal:" && kib > 0) return kib * 1024;
    }
  }
  return std::nullopt;
}

ProcessMemory process_memory(const MemorySources& sources, int ranks_on_node) {
  if (ranks_on_node < 1) throw std::invalid_argument("process memory: no ranks on the node");
  const auto physical = physical_memory(sources);
  const auto below_physical = [&](std::int64_t bytes) {
    return bytes > 0 && (!physical || bytes <= *physical);
  };
  const std::string ranks = std::to_string(ranks_on_node);
  const std::string per =
      " / " + ranks + (ranks_on_node == 1 ? " process" : " processes") + " on the node";

  if (const auto value = sources.env("SLURM_MEM_PER_CPU")) {
    const auto bytes = slurm_megabytes_to_bytes(*value);
    std::int64_t cpus = 1;
    if (const auto c = sources.env("SLURM_CPUS_PER_TASK")) cpus = whole_number(*c).value_or(1);
    if (bytes && *bytes > 0 && cpus > 0) {
      std::string source = "SLURM_MEM_PER_CPU=" + *value;
      if (cpus > 1) source += " x SLURM_CPUS_PER_TASK=" + std::to_string(cpus);
      return {*bytes * cpus, source};
    }
  }
  if (const auto value = sources.env("SLURM_MEM_PER_NODE")) {
    const auto bytes = slurm_megabytes_to_bytes(*value);
    if (bytes && below_physical(*bytes)) {
      return {*bytes / ranks_on_node, "SLURM_MEM_PER_NODE=" + *value + per};
    }
  }
  std::optional<std::int64_t> least;
  std::string least_file;
  for (const auto& file : cgroup_limit_files(sources)) {
    const auto text = sources.read_file(file);
    if (!text) continue;
    const auto bytes = whole_number(*text);  // "max" is no limit
    if (bytes && below_physical(*bytes) && (!least || *bytes < *least)) {
      least = *bytes;
      least_file = file;
    }
  }
  if (least) return {*least / ranks_on_node, "cgroup limit " + least_file + per};
  if (physical) {
    return {*physical / ranks_on_node, "physical memory of the node (/proc/meminfo)" + per};
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) {
    return {static_cast<std::int64_t>(pages) * page / ranks_on_node,
            "physical memory of the node (sysconf)" + per};
  }
  throw std::runtime_error(
      "cannot tell the memory per process (no Slurm allocation, cgroup limit or "
      "/proc/meminfo): give it with --memory-per-proc");
}

ProcessMemory least_process_memory(MPI_Comm comm) {
  MPI_Comm node;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int local = 1;
  MPI_Comm_size(node, &local);
  MPI_Comm_free(&node);
  const ProcessMemory mine = process_memory(MemorySources::system(), local);
  // The smallest value and the lowest rank that has it; that rank's source goes to everyone.
  struct {
    double bytes;
    int rank;
  } in{static_cast<double>(mine.bytes), rank}, out{};
  MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm);
  std::int64_t bytes = mine.bytes;
  MPI_Bcast(&bytes, 1, MPI_INT64_T, out.rank, comm);
  std::string source = mine.source;
  int length = static_cast<int>(source.size());
  MPI_Bcast(&length, 1, MPI_INT, out.rank, comm);
  source.resize(static_cast<std::size_t>(length));
  MPI_Bcast(source.data(), length, MPI_CHAR, out.rank, comm);
  return {bytes, source};
}

}  // namespace pbench::worker
