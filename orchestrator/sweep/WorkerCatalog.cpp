#include "sweep/WorkerCatalog.hpp"

#include <algorithm>

#include "sweep/ConsortiumSweep.hpp"
#include "sweep/ListParser.hpp"
#include "sweep/SweepSpec.hpp"
#include "util/Error.hpp"

namespace pbench::sweep {
namespace {

using nlohmann::json;

// logp's queue depths: how many messages a process keeps in flight (Bell et al.'s g by depth).
Dimension queue_depth() {
  return {.name = "queue_depth",
          .spec_key = "queue_depths",
          .file_key = "queue_depths",
          .flag = "--queue-depths",
          .help = "Queue depths for logp, e.g. 1,8,64",
          .kind = ValueKind::kCount,
          .defaults = json::array({1, 8, 64}),
          .parse = [](const std::string& text, const std::string& option) -> json {
            return parse_positive_list(text, option);
          },
          .check =
              [](const json& value) {
                if (value.get<int>() <= 0) {
                  throw UsageError("--queue-depths: '" + std::to_string(value.get<int>()) +
                                   "' must be positive");
                }
              },
          .worker_option = "--queue-depths",
          .worker_parameter = "queue_depths",
          .label = "queue depths"};
}

// io's b_eff_io: the scheduled time T per partition.
Dimension schedule_time() {
  return {.name = "schedule_time",
          .spec_key = "schedule_times",
          .file_key = "schedule_times",
          .flag = "-T,--schedule-times",
          .help =
              "Scheduled times T per partition for io, in seconds, e.g. 60,300,900 (a sweep "
              "dimension; default the worker's 1,800)",
          .kind = ValueKind::kSeconds,
          .parse = [](const std::string& text, const std::string& option) -> json {
            if (text.empty()) return json::array();  // -T '': the worker's default
            return parse_seconds_list(text, option);
          },
          .check =
              [](const json& value) {
                if (!(value.get<double>() > 0)) {
                  throw UsageError("--schedule-times: every time must be > 0 seconds");
                }
              },
          .worker_option = "--schedule-time",
          .worker_parameter = "schedule_time",
          .label = "T",
          .unit = " s"};
}

// io: MPI-IO hint sets, each "key=value,key=value" (so one set per option).
Dimension hints() {
  return {.name = "hints",
          .spec_key = "hint_sets",
          .file_key = "hints",
          .flag = "--hints",
          .help =
              "An MPI-IO hint set for io, 'key=value,key=value'; repeatable, each set a sweep "
              "point",
          .kind = ValueKind::kText,
          .one_per_option = true,
          .check = [](const json& value) { validate_hint_set(value.get<std::string>()); },
          .worker_option = "--hint",
          .label = "hints",
          .separator = " | "};
}

// io's consortium suite: access patterns, transfer sizes and collective calls on or off.
Dimension pattern() {
  return {.name = "pattern",
          .spec_key = "patterns",
          .file_key = "patterns",
          .flag = "--patterns",
          .help =
              "io consortium: access patterns, e.g. segmented,strided (of segmented, strided, "
              "random, general; a sweep dimension)",
          .kind = ValueKind::kText,
          .parse = [](const std::string& text, const std::string& option) -> json {
            return parse_pattern_list(text, option);
          },
          .check = [](const json& value) { check_pattern(value.get<std::string>()); },
          .needs_worker = true,
          .worker_option = "--pattern",
          .worker_parameter = "pattern",
          .label = "patterns"};
}

Dimension transfer_size() {
  return {.name = "transfer_size",
          .spec_key = "transfer_sizes",
          .file_key = "transfer_sizes",
          .flag = "--transfer-sizes",
          .help =
              "io consortium: transfer sizes per I/O call, e.g. 64KiB,1MiB (a sweep "
              "dimension; default the worker's 1 MiB)",
          .kind = ValueKind::kSize,
          .parse = [](const std::string& text, const std::string& option) -> json {
            return parse_size_list(text, option);
          },
          .check =
              [](const json& value) {
                if (value.get<std::int64_t>() < 1) {
                  throw UsageError("--transfer-sizes: every size must be >= 1 byte");
                }
              },
          .needs_worker = true,
          .worker_option = "--transfer-size",
          .worker_parameter = "transfer_size",
          .label = "transfer sizes",
          .unit = " B"};
}

Dimension collective() {
  return {.name = "collective",
          .spec_key = "collective",
          .file_key = "collective",
          .flag = "--collective",
          .help =
              "io consortium: collective MPI-IO calls, e.g. on,off (a sweep dimension; "
              "default off)",
          .kind = ValueKind::kSwitch,
          .parse = [](const std::string& text, const std::string& option) -> json {
            return parse_switch_list(text, option);
          },
          .needs_worker = true,
          .worker_option = "--collective",
          .worker_parameter = "collective",
          .label = "collective"};
}

}  // namespace

bool WorkerInfo::varies(const std::string& dimension) const {
  return std::any_of(dimensions.begin(), dimensions.end(),
                     [&](const Dimension& d) { return d.name == dimension; });
}

const std::vector<WorkerInfo>& worker_catalog() {
  static const std::vector<WorkerInfo> catalog = {
      {.name = "logp",
       .binary = "pbench-logp",
       .summary = "LogP/LogGP parameters (Bell et al.)",
       .dimensions = {queue_depth()}},
      {.name = "comm",
       .binary = "pbench-comm",
       .summary = "effective bandwidth b_eff (Rabenseifner & Koniges)",
       .min_procs = 2},
      {.name = "io",
       .binary = "pbench-io",
       .summary = "effective I/O bandwidth b_eff_io (Rabenseifner & Koniges)",
       .dimensions = {schedule_time(), hints(), pattern(), transfer_size(), collective()},
       .partition_option = "--partitions",
       .options = {{"--suite",
                    "io's suite: b_eff_io (the default) or consortium (sustained write, cached "
                    "write, sustained read); the same as --set io.suite=NAME",
                    "suite"}},
       .check = validate_io_suite},
      {.name = "bcast",
       .binary = "pbench-bcast",
       .summary = "Broadcast latency OL_i (de Supinski & Karonis)"},
      {.name = "links",
       .binary = "pbench-links",
       .summary =
           "link matrix: latency and bandwidth of every pair of nodes (mpiGraph's shift schedule)",
       .min_procs = 2},
  };
  return catalog;
}

const WorkerInfo& find_worker(const std::string& name) {
  std::string known;
  for (const auto& w : worker_catalog()) {
    if (w.name == name) return w;
    known += (known.empty() ? "" : ", ") + w.name;
  }
  throw UsageError("unknown worker '" + name + "' (known: " + known + ")");
}

}  // namespace pbench::sweep
