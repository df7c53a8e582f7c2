#include "sweep/Partition.hpp"

#include <charconv>
#include <cstdint>

#include "sweep/ListParser.hpp"
#include "util/Error.hpp"

namespace pbench::sweep {
namespace {

/// As parse_positive_list: larger counts are refused (no machine has a billion processes).
constexpr long long kMaxCount = 1'000'000'000;

/// The whole of `digits` as a count, or -1 when it is not a whole number (or -2 when too large).
long long count_of(const std::string& digits) {
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
  long long value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc::result_out_of_range || value > kMaxCount) return -2;
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return -1;
  return value;
}

UsageError not_a_partition(const std::string& where, const std::string& item) {
  return UsageError(where + ": '" + item +
                    "' is not a partition (P processes, or NxP: N nodes x P processes per node, "
                    "e.g. 8 or 2x4)");
}

}  // namespace

Partition Partition::shape(int nodes, int procs_per_node) {
  Partition p(nodes * procs_per_node);
  p.nodes = nodes;
  p.procs_per_node = procs_per_node;
  return p;
}

std::string Partition::text() const {
  if (!has_shape()) return std::to_string(processes);
  return std::to_string(nodes) + "x" + std::to_string(procs_per_node);
}

nlohmann::json Partition::to_json() const {
  if (!has_shape()) return processes;
  return text();
}

Partition Partition::from_json(const nlohmann::json& j) {
  if (j.is_number_integer()) {
    const auto value = j.get<std::int64_t>();
    if (value <= 0 || value > kMaxCount) {
      throw UsageError("partition " + j.dump() + " must be a positive number of processes");
    }
    return Partition(static_cast<int>(value));
  }
  if (j.is_string()) {
    const auto p = parse_partition(j.get<std::string>(), "partition");
    if (p.has_shape()) return p;
  }
  throw UsageError("partition " + j.dump() + " is neither a number of processes nor \"NxP\"");
}

Partition Partition::of_point(int processes, const nlohmann::json& params) {
  if (params.is_object() && params.contains("nodes") && params.contains("procs_per_node")) {
    return shape(params["nodes"].get<int>(), params["procs_per_node"].get<int>());
  }
  return Partition(processes);
}

Partition parse_partition(const std::string& item, const std::string& where) {
  const auto x = item.find('x');
  if (x == std::string::npos) {
    const long long processes = count_of(item);
    if (processes == -2) throw UsageError(where + ": '" + item + "' is too large");
    if (processes < 0) throw not_a_partition(where, item);
    if (processes == 0) throw UsageError(where + ": '" + item + "' must be positive");
    return Partition(static_cast<int>(processes));
  }
  if (item.find('x', x + 1) != std::string::npos) throw not_a_partition(where, item);
  const long long nodes = count_of(item.substr(0, x));
  const long long per_node = count_of(item.substr(x + 1));
  if (nodes == -1 || per_node == -1) throw not_a_partition(where, item);
  if (nodes == -2 || per_node == -2 || nodes * per_node > kMaxCount) {
    throw UsageError(where + ": '" + item + "' is too large");
  }
  if (nodes == 0) {
    throw UsageError(where + ": '" + item + "': the number of nodes must be positive");
  }
  if (per_node == 0) {
    throw UsageError(where + ": '" + item + "': the processes per node must be positive");
  }
  return Partition::shape(static_cast<int>(nodes), static_cast<int>(per_node));
}

std::vector<Partition> parse_partition_list(const std::string& text, const std::string& option) {
  std::vector<Partition> out;
  for_each_list_item(text, option, "1,2,4 or 2x1,4x1",
                     [&](const std::string& item, const std::string& where) {
                       out.push_back(parse_partition(item, where));
                     });
  return out;
}

}  // namespace pbench::sweep
