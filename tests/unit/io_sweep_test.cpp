// pbench-io in the orchestrator: io in the worker catalog, schedule times and hint sets as
// sweep dimensions, and the worker arguments of an io point.
#include <doctest/doctest.h>

#include <set>

#include "sweep/SweepSpec.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::sweep;

namespace {

std::vector<std::string> args_of(const std::vector<Point>& points, std::size_t i) {
  return worker_arguments(points.at(i));
}

}  // namespace

TEST_CASE("io: schedule times and hint sets are sweep dimensions of io only") {
  SweepSpec spec;
  spec.name = "s";
  spec.workers = {"logp", "io"};
  spec.partitions = {1, 2};
  spec.set_values("queue_depth", nlohmann::json::array({8}));
  spec.set_values("schedule_time", nlohmann::json::array({60, 300}));
  spec.set_values("hints", nlohmann::json::array(
                               {"romio_cb_write=enable,cb_nodes=2", "romio_cb_write=disable"}));
  spec.validate();
  const auto points = expand(spec);
  // logp: 2 partitions x 1 queue depth; io: 2 partitions x 2 times x 2 hint sets.
  REQUIRE(points.size() == 2 + 8);
  std::set<std::string> keys;
  for (const auto& p : points) keys.insert(p.key);
  CHECK(keys.size() == points.size());
  CHECK_FALSE(points[0].params.contains("schedule_time"));
  CHECK(args_of(points, 0) == std::vector<std::string>{"--queue-depths", "8"});
  const Point& io = points[2];
  CHECK(io.worker == "io");
  CHECK(io.params["schedule_time"] == 60.0);
  CHECK(io.params["hints"] == "romio_cb_write=enable,cb_nodes=2");
  CHECK(args_of(points, 2) == std::vector<std::string>{"--partitions", "1", "--schedule-time", "60",
                                                       "--hint",
                                                       "romio_cb_write=enable,cb_nodes=2"});
  CHECK(args_of(points, 5) == std::vector<std::string>{"--partitions", "1", "--schedule-time",
                                                       "300", "--hint", "romio_cb_write=disable"});
  // The specification round-trips through JSON with the new dimensions.
  const SweepSpec back = SweepSpec::from_json(spec.to_json());
  CHECK(back.values("schedule_time") == spec.values("schedule_time"));
  CHECK(back.values("hints") == spec.values("hints"));
}

TEST_CASE("io: without schedule times or hints a point passes only its partition") {
  SweepSpec spec;
  spec.name = "s";
  spec.workers = {"io"};
  spec.partitions = {2};
  const auto points = expand(spec);
  REQUIRE(points.size() == 1);
  CHECK(worker_arguments(points[0]) == std::vector<std::string>{"--partitions", "2"});
  // A logp-only specification stores no io keys, so existing sweeps keep their identity.
  SweepSpec logp;
  logp.name = "s";
  CHECK_FALSE(logp.to_json().contains("schedule_times"));
  CHECK(SweepSpec::from_json(logp.to_json()).values("schedule_time").empty());
}

TEST_CASE("io: bad schedule times and hint sets are named") {
  CHECK(parse_seconds_list("60,300,0.5", "--schedule-times") == std::vector<double>{60, 300, 0.5});
  CHECK(parse_seconds_list("1min,500ms,2s", "--schedule-times") == std::vector<double>{60, 0.5, 2});
  CHECK_THROWS_WITH_AS(parse_seconds_list("60,,300", "--schedule-times"),
                       "--schedule-times: '' in '60,,300' is not a positive time (seconds, or "
                       "with a unit: s, ms, us, min, h)",
                       UsageError);
  CHECK_THROWS_AS(parse_seconds_list("5 fortnights", "--schedule-times"), UsageError);
  CHECK_THROWS_AS(parse_seconds_list("-5", "--schedule-times"), UsageError);
  CHECK_THROWS_AS(parse_seconds_list("x", "--schedule-times"), UsageError);
  CHECK_NOTHROW(validate_hint_set("type0:cb_buffer_size=16777216,romio_cb_write=enable"));
  CHECK_THROWS_WITH_AS(validate_hint_set("a=b,c"),
                       "--hints 'a=b,c': 'c' is not key=value (or typeN:key=value)", UsageError);
  CHECK_THROWS_AS(validate_hint_set("a=$(touch x)"), UsageError);
  CHECK_THROWS_AS(validate_hint_set("type9:a=b"), UsageError);
  SweepSpec spec;
  spec.name = "s";
  spec.workers = {"io"};
  spec.set_values("schedule_time", nlohmann::json::array({0}));
  CHECK_THROWS_AS(spec.validate(), UsageError);
  CHECK(find_worker("io").binary == "pbench-io");
}
