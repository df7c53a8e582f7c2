// comm in the orchestrator's sweeps: a point per partition of at least 2 processes (b_eff needs a
// pair), no queue depth, the sweep's comm settings as the worker's options.
#include <doctest/doctest.h>

#include "sweep/SweepSpec.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::sweep;

TEST_CASE("comm sweep: one point per partition of 2 or more processes, with the comm settings") {
  CHECK(find_worker("comm").binary == "pbench-comm");
  SweepSpec spec;
  spec.name = "demo";
  spec.workers = {"logp", "comm"};
  spec.partitions = {1, 2, 4};
  spec.set_values("queue_depth", nlohmann::json::array({1, 8}));
  add_setting(spec.settings, "comm.memory_per_proc=1MiB");
  add_setting(spec.settings, "comm.target_window=0.0005,0.001");
  spec.validate();
  const auto points = expand(spec);
  REQUIRE(points.size() == 6 + 2);  // logp: 3 partitions x 2 depths; comm: partitions 2 and 4
  CHECK(points[6].worker == "comm");
  CHECK(points[6].partition == 2);
  CHECK(points[7].partition == 4);
  CHECK_FALSE(points[6].params.contains("queue_depth"));
  CHECK(worker_arguments(points[6]) ==
        std::vector<std::string>{"--memory-per-proc=1MiB", "--target-window=0.0005,0.001"});
}

TEST_CASE("comm sweep: partitions all below 2 processes are refused") {
  SweepSpec spec;
  spec.name = "one";
  spec.workers = {"comm"};
  spec.partitions = {1};
  CHECK_THROWS_WITH_AS(
      spec.validate(),
      "--partitions: comm needs at least 2 processes and no partition has that many", UsageError);
}
