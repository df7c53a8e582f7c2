#include "query/MetricDirection.hpp"

#include <map>

namespace pbench::query {
namespace {

const std::map<std::string, Better>& directions() {
  static const std::map<std::string, Better> table = {
      // Headline figures of query system.
      {"b_eff_io", Better::higher},
      {"b_eff", Better::higher},
      {"b_eff_per_process", Better::higher},
      {"logp g", Better::lower},
      {"logp G", Better::lower},
      {"logp o_s", Better::lower},
      {"logp o_r", Better::lower},
      {"logp L", Better::lower},
      {"bcast ol", Better::lower},
      // The link matrix's gated figures (pbench reference, check).
      {"link bandwidth", Better::higher},
      {"node bandwidth", Better::higher},
      // comm: bandwidths up, latencies down.
      {"b_eff_at_lmax", Better::higher},
      {"b_eff_per_process_at_lmax", Better::higher},
      {"ring_per_process_at_lmax", Better::higher},
      {"pingpong_bandwidth", Better::higher},
      {"b_ring", Better::higher},
      {"b_random", Better::higher},
      {"latency_rings", Better::lower},
      {"latency_rings_random", Better::lower},
      {"latency_pingpong", Better::lower},
      // io: bandwidths up, read-back errors down.
      {"b_pattern", Better::higher},
      {"bandwidth", Better::higher},
      {"read_errors", Better::lower},
      // logp: gaps, overheads and latencies down.
      {"g", Better::lower},
      {"g_best", Better::lower},
      {"big_g", Better::lower},
      {"o_s", Better::lower},
      {"o_r", Better::lower},
      {"latency_l", Better::lower},
      {"max_gap", Better::lower},
      {"eel_min", Better::lower},
      {"eel_median", Better::lower},
      // bcast: latencies down.
      {"ol", Better::lower},
      {"send_latency", Better::lower},
      {"rounds_latency", Better::lower},
      {"barrier_latency", Better::lower},
      {"ack_latency", Better::lower},
      // links: bandwidths up, latencies down.
      {"link_bandwidth", Better::higher},
      {"node_bandwidth", Better::higher},
      {"bandwidth_median", Better::higher},
      {"bandwidth_min", Better::higher},
      {"link_latency", Better::lower},
      {"node_latency", Better::lower},
      {"latency_median", Better::lower},
      {"latency_max", Better::lower},
  };
  return table;
}

}  // namespace

std::optional<Better> better_direction(const std::string& metric) {
  const auto it = directions().find(metric);
  if (it == directions().end()) return std::nullopt;
  return it->second;
}

const std::vector<std::string>& headline_figures() {
  static const std::vector<std::string> figures = {"b_eff_io", "b_eff",  "b_eff_per_process",
                                                   "logp g",   "logp G", "logp o_s",
                                                   "logp o_r", "logp L", "bcast ol"};
  return figures;
}

std::string to_string(Better better) {
  return better == Better::higher ? "higher" : "lower";
}

}  // namespace pbench::query
