// Memory per process from the allocation (Slurm, cgroup) before the node's physical memory,
// on fake environments and files.
#include <doctest/doctest.h>

#include <map>
#include <stdexcept>
#include <string>

#include "common/ProcessMemory.hpp"

using namespace pbench::worker;

namespace {

constexpr std::int64_t kMiB = 1024 * 1024;
constexpr std::int64_t kGiB = 1024 * kMiB;

struct FakeNode {
  std::map<std::string, std::string> env;
  std::map<std::string, std::string> files{
      {"/proc/meminfo", "MemTotal:       16777216 kB\nMemFree: 1 kB\n"}};
  MemorySources sources() const {
    MemorySources s;
    s.env = [this](const std::string& name) -> std::optional<std::string> {
      auto it = env.find(name);
      if (it == env.end()) return std::nullopt;
      return it->second;
    };
    s.read_file = [this](const std::string& path) -> std::optional<std::string> {
      auto it = files.find(path);
      if (it == files.end()) return std::nullopt;
      return it->second;
    };
    s.cgroup_root = "/cg";
    return s;
  }
};

}  // namespace

TEST_CASE("process memory: without an allocation, MemTotal divided by the ranks on the node") {
  const FakeNode node;
  CHECK(physical_memory(node.sources()) == 16 * kGiB);
  const ProcessMemory m = process_memory(node.sources(), 4);
  CHECK(m.bytes == 4 * kGiB);
  CHECK(m.source == "physical memory of the node (/proc/meminfo) / 4 processes on the node");
}

TEST_CASE("process memory: SLURM_MEM_PER_NODE (megabytes) is shared by the ranks on the node") {
  FakeNode node;
  node.env["SLURM_MEM_PER_NODE"] = "4096";
  const ProcessMemory m = process_memory(node.sources(), 2);
  CHECK(m.bytes == 2 * kGiB);
  CHECK(m.source == "SLURM_MEM_PER_NODE=4096 / 2 processes on the node");
  node.env["SLURM_MEM_PER_NODE"] = "2G";
  CHECK(process_memory(node.sources(), 1).bytes == 2 * kGiB);
  CHECK(process_memory(node.sources(), 1).source ==
        "SLURM_MEM_PER_NODE=2G / 1 process on the node");
}

TEST_CASE("process memory: SLURM_MEM_PER_CPU wins, times SLURM_CPUS_PER_TASK") {
  FakeNode node;
  node.env["SLURM_MEM_PER_NODE"] = "8192";
  node.env["SLURM_MEM_PER_CPU"] = "1000";
  CHECK(process_memory(node.sources(), 8).bytes == 1000 * kMiB);
  CHECK(process_memory(node.sources(), 8).source == "SLURM_MEM_PER_CPU=1000");
  node.env["SLURM_CPUS_PER_TASK"] = "2";
  CHECK(process_memory(node.sources(), 8).bytes == 2000 * kMiB);
  CHECK(process_memory(node.sources(), 8).source ==
        "SLURM_MEM_PER_CPU=1000 x SLURM_CPUS_PER_TASK=2");
}

TEST_CASE("process memory: a Slurm value that is garbage, zero or beyond the node is skipped") {
  FakeNode node;
  node.env["SLURM_MEM_PER_NODE"] = "lots";
  CHECK(process_memory(node.sources(), 1).bytes == 16 * kGiB);
  node.env["SLURM_MEM_PER_NODE"] = "0";
  CHECK(process_memory(node.sources(), 1).bytes == 16 * kGiB);
  node.env["SLURM_MEM_PER_NODE"] = "999999999";
  CHECK(process_memory(node.sources(), 1).source.rfind("physical memory", 0) == 0);
}

TEST_CASE("process memory: cgroup v2, the smallest memory.max from this cgroup up to the root") {
  FakeNode node;
  node.files["/proc/self/cgroup"] = "0::/system.slice/job_7/step_0/task_1\n";
  node.files["/cg/system.slice/job_7/step_0/task_1/memory.max"] = "max\n";
  node.files["/cg/system.slice/job_7/step_0/memory.max"] = "3221225472\n";
  node.files["/cg/system.slice/job_7/memory.max"] = "4294967296\n";
  const ProcessMemory m = process_memory(node.sources(), 3);
  CHECK(m.bytes == kGiB);
  CHECK(m.source ==
        "cgroup limit /cg/system.slice/job_7/step_0/memory.max / 3 processes on the node");
}

TEST_CASE("process memory: cgroup v1 memory.limit_in_bytes, the unlimited value is no limit") {
  FakeNode node;
  node.files["/proc/self/cgroup"] = "12:cpu,cpuacct:/x\n7:memory:/slurm/uid_0/job_9\n";
  node.files["/cg/memory/slurm/uid_0/job_9/memory.limit_in_bytes"] = "9223372036854771712\n";
  CHECK(process_memory(node.sources(), 1).source.rfind("physical memory", 0) == 0);
  node.files["/cg/memory/slurm/uid_0/memory.limit_in_bytes"] = "2147483648\n";
  CHECK(process_memory(node.sources(), 2).bytes == kGiB);
  CHECK(process_memory(node.sources(), 2).source ==
        "cgroup limit /cg/memory/slurm/uid_0/memory.limit_in_bytes / 2 processes on the node");
}

TEST_CASE("process memory: Slurm comes before the cgroup limit, no ranks is refused") {
  FakeNode node;
  node.files["/proc/self/cgroup"] = "0::/job\n";
  node.files["/cg/job/memory.max"] = "1073741824\n";
  node.env["SLURM_MEM_PER_NODE"] = "2048";
  CHECK(process_memory(node.sources(), 1).bytes == 2 * kGiB);
  CHECK_THROWS_AS(process_memory(node.sources(), 0), std::invalid_argument);
}
