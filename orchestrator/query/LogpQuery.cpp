#include "query/LogpQuery.hpp"

#include "query/WorkerTable.hpp"

namespace pbench::query {

// The store's view logp_table: a row per queue depth of each chosen result.
const WorkerTable& logp_description() {
  static const WorkerTable table = {
      .worker = "logp",
      .columns =
          {
              label_column("queue_depth", "q"),
              {"eel", "s", "EEL", "us", 1e6, 3},
              {"eel_median", "s", "EEL med", "us", 1e6, 3},
              {"o_s", "s", "o_s", "us", 1e6, 3},
              {"o_r", "s", "o_r", "us", 1e6, 3},
              {"g", "s", "g", "us", 1e6, 3},
              {"big_g", "s/B", "G", "ns/B", 1e9, 3},
              {"bandwidth", "B/s", "1/G", "MB/s", 1e-6, 4},
              {"latency_l", "s", "L", "us", 1e6, 3},
              {"large_message_threshold", "B", "M=g/G", "B", 1, 4},
          },
      .view = "logp_table",
      .order =
          "v.sweep, v.partition, coalesce(v.nodes, 0), coalesce(v.ppn, 0), v.point_id, "
          "v.queue_depth",
      .notes = {&no_measurement_notes, &placement_notes},
  };
  return table;
}

QueryTable logp_table(store::Store& store, const std::optional<std::string>& sweep) {
  return worker_table(store, logp_description(), sweep);
}

}  // namespace pbench::query
