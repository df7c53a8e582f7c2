// io's consortium suite in the orchestrator: transfer sizes, patterns and collective on/off as
// sweep dimensions beside the hint sets, each point's worker arguments, and bad values refused
// with the worker's own layout rules before anything is stored.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "sweep/ConsortiumSweep.hpp"
#include "sweep/PlannedTime.hpp"
#include "sweep/SweepFile.hpp"
#include "sweep/SweepSpec.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::sweep;

namespace {

SweepSpec consortium_spec() {
  SweepSpec spec;
  spec.name = "c";
  spec.workers = {"io"};
  spec.partitions = {2};
  spec.settings["io"]["suite"] = "consortium";
  return spec;
}

std::vector<std::string> argument_after(const std::vector<std::string>& args,
                                        const std::string& option) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == option) out.push_back(args[i + 1]);
  }
  return out;
}

}  // namespace

TEST_CASE("io consortium: one point per pattern x transfer size x collective x hint set") {
  SweepSpec spec = consortium_spec();
  spec.set_values("pattern", nlohmann::json::array({"segmented", "strided"}));
  spec.set_values("transfer_size", nlohmann::json::array({65536, 1048576}));
  spec.set_values("collective", nlohmann::json::array({true, false}));
  spec.set_values("hints",
                  nlohmann::json::array({"romio_cb_write=enable", "romio_cb_write=disable"}));
  spec.validate();
  const auto points = expand(spec);
  REQUIRE(points.size() == 16);
  std::set<std::string> keys;
  std::set<std::tuple<std::string, std::int64_t, bool, std::string>> cells;
  for (const auto& p : points) {
    keys.insert(p.key);
    const auto args = worker_arguments(p);
    // Every dimension reaches the worker under its own parameter name, exactly once.
    REQUIRE(argument_after(args, "--pattern").size() == 1);
    REQUIRE(argument_after(args, "--transfer-size").size() == 1);
    REQUIRE(argument_after(args, "--collective").size() == 1);
    CHECK(std::count(args.begin(), args.end(), "--suite=consortium") == 1);
    CHECK(argument_after(args, "--partitions") == std::vector<std::string>{"2"});
    CHECK(argument_after(args, "--pattern")[0] == p.params["pattern"].get<std::string>());
    CHECK(argument_after(args, "--transfer-size")[0] ==
          std::to_string(p.params["transfer_size"].get<std::int64_t>()));
    CHECK(argument_after(args, "--collective")[0] ==
          (p.params["collective"].get<bool>() ? "1" : "0"));
    CHECK(argument_after(args, "--hint")[0] == p.params["hints"].get<std::string>());
    CHECK_FALSE(p.params.contains("schedule_time"));
    // No scheduled time: the time limit is the default, not one derived from T.
    CHECK_FALSE(bound_seconds("io", p.params));
    cells.insert(std::make_tuple(
        p.params["pattern"].get<std::string>(), p.params["transfer_size"].get<std::int64_t>(),
        p.params["collective"].get<bool>(), p.params["hints"].get<std::string>()));
  }
  CHECK(keys.size() == 16);
  CHECK(cells.size() == 16);
  // The specification round-trips, and planning again gives the same keys.
  const SweepSpec back = SweepSpec::from_json(spec.to_json());
  CHECK(back.values("pattern") == spec.values("pattern"));
  CHECK(back.values("transfer_size") == spec.values("transfer_size"));
  CHECK(back.values("collective") == spec.values("collective"));
  CHECK(expand(back)[5].key == points[5].key);
}

TEST_CASE("io consortium: without the dimensions a point keeps the params it always had") {
  SweepSpec plain;
  plain.name = "c";
  plain.workers = {"io"};
  plain.partitions = {2};
  const auto before = expand(plain);
  REQUIRE(before.size() == 1);
  CHECK_FALSE(plain.to_json().contains("patterns"));
  CHECK_FALSE(before[0].params.contains("pattern"));
  CHECK(worker_arguments(before[0]) == std::vector<std::string>{"--partitions", "2"});
  // The suite alone: one point, the suite passed through as a setting.
  SweepSpec suite = consortium_spec();
  suite.validate();
  const auto points = expand(suite);
  REQUIRE(points.size() == 1);
  CHECK(worker_arguments(points[0]) ==
        std::vector<std::string>{"--partitions", "2", "--suite=consortium"});
}

TEST_CASE("io consortium: sizes, patterns and switches parse, bad items are named") {
  CHECK(parse_size_list("4096,64KiB,1MiB,1MB,2k", "--transfer-sizes") ==
        std::vector<std::int64_t>{4096, 65536, 1048576, 1000000, 2000});
  CHECK_THROWS_WITH_AS(parse_size_list("64KiB,,1MiB", "--transfer-sizes"),
                       "--transfer-sizes: '64KiB,,1MiB' has an empty item at position 2",
                       UsageError);
  CHECK_THROWS_WITH_AS(parse_size_list("1x", "--transfer-sizes"),
                       "--transfer-sizes: '1x' in '1x' is not a positive size (e.g. 4096, "
                       "64KiB, 1MiB, 1MB; units: B, k/M/G/T or kB/MB/GB/TB (1000), KiB/MiB/GiB/TiB (1024))",
                       UsageError);
  CHECK_THROWS_AS(parse_size_list("0", "--transfer-sizes"), UsageError);
  CHECK_THROWS_AS(parse_size_list("-4", "--transfer-sizes"), UsageError);
  CHECK(parse_pattern_list("segmented,general", "--patterns") ==
        std::vector<std::string>{"segmented", "general"});
  CHECK_THROWS_WITH_AS(parse_pattern_list("strided,tiled", "--patterns"),
                       "--patterns: 'tiled' in 'strided,tiled' is not a pattern (segmented, "
                       "strided, random or general)",
                       UsageError);
  CHECK(parse_switch_list("on,off,1,0", "--collective") ==
        std::vector<bool>{true, false, true, false});
  CHECK_THROWS_WITH_AS(parse_switch_list("on,maybe", "--collective"),
                       "--collective: 'maybe' in 'on,maybe' is not on or off", UsageError);
}

TEST_CASE("io consortium: layouts the worker would refuse are refused at planning") {
  SweepSpec spec = consortium_spec();
  spec.set_values(
      "transfer_size",
      nlohmann::json::array({4096, 32 << 20}));  // the second is larger than the 16 MiB block
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "io point (partition 2, pattern segmented, transfer size 33554432 B): "
                       "--transfer-size: 33554432 B is larger than the block (16777216 B)",
                       UsageError);
  spec = consortium_spec();
  spec.settings["io"]["block_size"] = "4500";
  spec.set_values("pattern",
                  nlohmann::json::array(
                      {"random", "strided"}));  // random takes any block, strided whole transfers
  spec.set_values("transfer_size", nlohmann::json::array({1000}));
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "io point (partition 2, pattern strided, transfer size 1000 B): "
                       "--block-size: 4500 B is not a multiple of the 1000 B transfer (the "
                       "strided pattern moves whole transfers)",
                       UsageError);
  // The header against the stride depends on the partition: 2 x 1000 B + 10 B = 2010 B.
  spec = consortium_spec();
  spec.partitions = {4, 2};
  spec.settings["io"] = {{"suite", "consortium"},
                         {"block_size", "1000"},
                         {"segment_count", "2"},
                         {"padding", "10"},
                         {"header_bytes", "2011"}};
  spec.set_values("pattern", nlohmann::json::array({"strided"}));
  spec.set_values("transfer_size", nlohmann::json::array({500}));
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "io point (partition 2, pattern strided, transfer size 500 B): "
                       "--header-bytes: 2011 B is larger than a stride (2010 B)",
                       UsageError);
  spec.settings["io"]["file_per_process"] = "1";  // one client: a stride of 1010 B
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "io point (partition 4, pattern strided, transfer size 500 B): "
                       "--header-bytes: 2011 B is larger than a stride (1010 B)",
                       UsageError);
  spec.settings["io"]["header_bytes"] = "1010";
  CHECK_NOTHROW(spec.validate());
}

TEST_CASE("io consortium: options that do not fit the suite are refused") {
  SweepSpec spec = consortium_spec();
  spec.set_values("schedule_time", nlohmann::json::array({60}));
  CHECK_THROWS_WITH_AS(
      spec.validate(),
      "--schedule-times: the consortium suite has no scheduled time T (that is b_eff_io's)",
      UsageError);
  spec = consortium_spec();
  spec.settings["io"]["api"] = "posix";
  spec.set_values("collective", nlohmann::json::array({false, true}));
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "--collective on: collective calls need MPI-IO, and io.api is posix",
                       UsageError);
  spec.set_values("collective", nlohmann::json::array({false}));
  CHECK_NOTHROW(spec.validate());
  spec = consortium_spec();
  spec.settings["io"]["pattern"] = "strided";
  spec.set_values("pattern", nlohmann::json::array({"segmented"}));
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "--patterns and --set io.pattern both give the same parameter: use one "
                       "of them",
                       UsageError);
  spec = consortium_spec();
  spec.settings["io"]["suite"] = "ior";
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "--suite: 'ior' is not a suite of io (b_eff_io or consortium)", UsageError);
  spec = consortium_spec();
  spec.settings["io"].erase("suite");
  spec.set_values("pattern", nlohmann::json::array({"strided"}));
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "--patterns applies to io's consortium suite: add --suite consortium",
                       UsageError);
  spec = consortium_spec();
  spec.settings["io"]["block_size"] = "16MiB";  // sizes take units, as the worker reads them
  spec.set_values("transfer_size", nlohmann::json::array({32 << 20}));
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "io point (partition 2, pattern segmented, transfer size 33554432 B): "
                       "--transfer-size: 33554432 B is larger than the block (16777216 B)",
                       UsageError);
  spec.settings["io"]["block_size"] = "16 elephants";
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "--set io.block_size=16 elephants: '16 elephants' is not a size (e.g. "
                       "4096, 64KiB, 1MiB; units: B, k/M/G/T or kB/MB/GB/TB (1000), KiB/MiB/GiB/TiB (1024))",
                       UsageError);
  spec.settings["io"]["block_size"] = "64MiB";
  spec.settings["io"]["segment_count"] = "two";
  CHECK_THROWS_WITH_AS(spec.validate(), "--set io.segment_count=two: 'two' is not a whole number",
                       UsageError);
  spec = consortium_spec();
  spec.workers = {"logp"};
  spec.settings.clear();
  spec.set_values("transfer_size", nlohmann::json::array({4096}));
  CHECK_THROWS_AS(spec.validate(), UsageError);
}

TEST_CASE("io consortium: a sweep file gives the same dimensions as the command line") {
  std::string dir = (std::filesystem::temp_directory_path() / "pbench-sweepfile-XXXXXX").string();
  REQUIRE(mkdtemp(dir.data()) != nullptr);
  const std::string file = dir + "/sweep.toml";
  std::ofstream(file) << R"(workers = ["io"]
partitions = [2]
hints = ["romio_cb_write=enable", "romio_cb_write=disable"]
transfer_sizes = [65536, "1MiB"]
patterns = ["segmented", "strided"]
collective = [true, false]
[settings.io]
suite = "consortium"
)";
  const SweepSpec spec = read_sweep_file(file, "c");
  SweepSpec expected = consortium_spec();
  expected.set_values("hints",
                      nlohmann::json::array({"romio_cb_write=enable", "romio_cb_write=disable"}));
  expected.set_values("transfer_size", nlohmann::json::array({65536, 1048576}));
  expected.set_values("pattern", nlohmann::json::array({"segmented", "strided"}));
  expected.set_values("collective", nlohmann::json::array({true, false}));
  CHECK(spec.to_json() == expected.to_json());
  CHECK_NOTHROW(spec.validate());
  CHECK(expand(spec).size() == 16);
  // b_eff_io's scheduled times too.
  std::ofstream(file) << "workers = [\"io\"]\nschedule_times = [60, 0.5]\n";
  CHECK(read_sweep_file(file, "c").values_as<double>("schedule_time") ==
        std::vector<double>{60, 0.5});
  // Bad items are named with the file and the key.
  std::ofstream(file) << "workers = [\"io\"]\ntransfer_sizes = [\"64KiB\", \"1x\"]\n";
  CHECK_THROWS_WITH_AS(read_sweep_file(file, "c"),
                       ("sweep file " + file +
                        ": transfer_sizes[1]: '1x' in '1x' is not a positive size (e.g. 4096, "
                        "64KiB, 1MiB, 1MB; units: B, k/M/G/T or kB/MB/GB/TB (1000), KiB/MiB/GiB/TiB (1024))")
                           .c_str(),
                       UsageError);
  std::ofstream(file) << "workers = [\"io\"]\ncollective = [\"on\"]\n";
  CHECK_THROWS_WITH_AS(read_sweep_file(file, "c"),
                       ("sweep file " + file + ": collective[0]: expected true or false").c_str(),
                       UsageError);
  std::ofstream(file) << "workers = [\"io\"]\nschedule_times = [-1]\n";
  CHECK_THROWS_AS(read_sweep_file(file, "c"), UsageError);
  // Validated as the command line: dimensions without the suite are refused.
  std::ofstream(file) << "workers = [\"io\"]\npatterns = [\"strided\"]\n";
  CHECK_THROWS_WITH_AS(read_sweep_file(file, "c").validate(),
                       "--patterns applies to io's consortium suite: add --suite consortium",
                       UsageError);
  std::filesystem::remove_all(dir);
}
