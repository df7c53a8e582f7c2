// Partitions as nodes x processes per node: parsing, validation, point keys, and the directives
// each shape renders for Slurm and PBS (checked as sets of lines).
#include <doctest/doctest.h>

#include <unistd.h>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "plan/SweepPlanner.hpp"
#include "support/ScriptLines.hpp"
#include "sweep/Partition.hpp"
#include "sweep/SweepFile.hpp"
#include "sweep/SweepSpec.hpp"
#include "util/Error.hpp"

using namespace pbench;
using sweep::Partition;
using testing::lines_starting;

namespace {

sweep::SweepSpec shaped_spec(const std::string& scheduler, const std::string& partitions) {
  sweep::SweepSpec spec;
  spec.name = "shapes";
  spec.workers = {"logp"};
  spec.set_values("queue_depth", nlohmann::json::array({1}));
  spec.scheduler = scheduler;
  spec.partitions = sweep::parse_partition_list(partitions, "--partitions");
  return spec;
}

/// The directive lines (prefix "#SBATCH" or "#PBS") of each planned point, by partition text.
std::map<std::string, std::set<std::string>> directives_by_partition(const sweep::SweepSpec& spec,
                                                                     const std::string& prefix) {
  ::setenv("PBENCH_WORKER_DIR", PBENCH_BINARY_DIR "/workers/logp", 1);
  const auto plan = run::make_plan(spec, {});
  ::unsetenv("PBENCH_WORKER_DIR");
  std::map<std::string, std::set<std::string>> out;
  for (const auto& p : plan.points) {
    auto lines = lines_starting(p.script, prefix);
    // The job name is the point's and the time limit the worker's: not what a shape changes.
    std::erase_if(lines, [](const std::string& l) {
      return l.find("--job-name=") != std::string::npos || l.rfind("#PBS -N ", 0) == 0 ||
             l.find("--time=") != std::string::npos || l.find("walltime=") != std::string::npos;
    });
    out[p.point.partition.text()] = lines;
  }
  return out;
}

}  // namespace

TEST_CASE("partitions read as P or NxP, and bad ones are refused with the item named") {
  const auto list = sweep::parse_partition_list("2x1,4x1,2x2,8", "--partitions");
  REQUIRE(list.size() == 4);
  CHECK(list[0] == Partition::shape(2, 1));
  CHECK(list[1].processes == 4);
  CHECK(list[1].nodes == 4);
  CHECK(list[1].procs_per_node == 1);
  CHECK(list[2] == Partition::shape(2, 2));
  CHECK(list[2].processes == 4);
  CHECK(list[3] == Partition(8));
  CHECK_FALSE(list[3].has_shape());
  CHECK(list[2].text() == "2x2");
  CHECK(list[3].text() == "8");
  const auto bad = [](const std::string& text) {
    try {
      sweep::parse_partition_list(text, "--partitions");
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(bad("0x4") == "--partitions: '0x4': '0x4': the number of nodes must be positive");
  CHECK(bad("4x0") == "--partitions: '4x0': '4x0': the processes per node must be positive");
  const std::string shape_help =
      "' is not a partition (P processes, or NxP: N nodes x P processes per node, e.g. 8 or 2x4)";
  CHECK(bad("4x") == "--partitions: '4x': '4x" + shape_help);
  CHECK(bad("x2") == "--partitions: 'x2': 'x2" + shape_help);
  CHECK(bad("2x2x2") == "--partitions: '2x2x2': '2x2x2" + shape_help);
  CHECK(bad("2,-1x2") == "--partitions: '2,-1x2': '-1x2" + shape_help);
  CHECK(bad("2X2") == "--partitions: '2X2': '2X2" + shape_help);
  CHECK(bad("100000x100000") == "--partitions: '100000x100000': '100000x100000' is too large");
  CHECK(bad("0") == "--partitions: '0': '0' must be positive");
  CHECK(bad("8,,2x1") == "--partitions: '8,,2x1' has an empty item at position 2");
}

TEST_CASE("a sweep refuses a partition twice, NxP beside --nodes, and N > 1 nodes on local") {
  auto spec = shaped_spec("slurm", "2x1,2x1");
  CHECK_THROWS_WITH_AS(spec.validate(), "--partitions: '2x1' is listed twice", UsageError);
  spec = shaped_spec("slurm", "4,2x2,4x1");  // three partitions of 4 processes each
  CHECK_NOTHROW(spec.validate());
  spec = shaped_spec("slurm", "2,2");
  CHECK_THROWS_WITH_AS(spec.validate(), "--partitions: '2' is listed twice", UsageError);

  spec = shaped_spec("local", "1x2,2x1");
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "partition 2x1 needs 2 nodes, but the local scheduler runs every job on "
                       "this machine (use --scheduler slurm or pbs)",
                       UsageError);
  spec = shaped_spec("local", "1x2");
  CHECK_NOTHROW(spec.validate());

  spec = shaped_spec("slurm", "2,2x2");
  spec.nodes = 2;
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "partition 2x2 gives its own nodes and processes per node: --nodes and "
                       "--procs-per-node apply to plain partitions only (write every partition "
                       "as NxP, or drop them)",
                       UsageError);
  spec.nodes = 0;
  spec.procs_per_node = 1;
  CHECK_THROWS_AS(spec.validate(), UsageError);
  spec = shaped_spec("local", "2");
  spec.share_nodes = true;
  CHECK_THROWS_WITH_AS(
      spec.validate(),
      "--share-nodes applies to a batch scheduler (--scheduler slurm or pbs), not local",
      UsageError);
}

TEST_CASE("the shape is part of the point key, and a plain partition keeps its old key") {
  const auto spec = shaped_spec("slurm", "2,4x1,2x2");
  const auto points = sweep::expand(spec);
  REQUIRE(points.size() == 3);
  // Recorded with pbench before partitions had shapes: `sweep --workers logp --partitions 2
  // --queue-depths 1`. A stored sweep's points keep their keys.
  CHECK(points[0].key == "247b2dfe1eb71c22");
  CHECK_FALSE(points[0].params.contains("nodes"));
  CHECK(points[1].params["partition"] == 4);
  CHECK(points[1].params["nodes"] == 4);
  CHECK(points[1].params["procs_per_node"] == 1);
  CHECK(points[2].params["nodes"] == 2);
  CHECK(points[2].params["procs_per_node"] == 2);
  CHECK(points[1].key != points[2].key);
  CHECK(Partition::of_point(4, points[2].params) == Partition::shape(2, 2));
  CHECK(Partition::of_point(2, points[0].params) == Partition(2));
  // The shapes survive the stored specification; plain partitions stay numbers in it.
  const auto json = spec.to_json();
  CHECK(json["partitions"] == nlohmann::json::parse(R"([2, "4x1", "2x2"])"));
  CHECK(sweep::SweepSpec::from_json(json).partitions == spec.partitions);
  CHECK_FALSE(json.contains("share_nodes"));
  auto bad = json;
  bad["partitions"] = nlohmann::json::parse(R"(["4"])");
  CHECK_THROWS_AS(sweep::SweepSpec::from_json(bad), UsageError);
}

TEST_CASE("Slurm directives per shape, as sets: nodes and tasks per node, whole nodes") {
  auto spec = shaped_spec("slurm", "2x1,2x2,4x1,3");
  auto by = directives_by_partition(spec, "#SBATCH");
  CHECK(by["2x1"] == std::set<std::string>{"#SBATCH --nodes=2", "#SBATCH --ntasks=2",
                                           "#SBATCH --ntasks-per-node=1", "#SBATCH --exclusive"});
  CHECK(by["2x2"] == std::set<std::string>{"#SBATCH --nodes=2", "#SBATCH --ntasks=4",
                                           "#SBATCH --ntasks-per-node=2", "#SBATCH --exclusive"});
  CHECK(by["4x1"] == std::set<std::string>{"#SBATCH --nodes=4", "#SBATCH --ntasks=4",
                                           "#SBATCH --ntasks-per-node=1", "#SBATCH --exclusive"});
  // A plain partition: the scheduler places the tasks (no node count).
  CHECK(by["3"] == std::set<std::string>{"#SBATCH --ntasks=3", "#SBATCH --exclusive"});
  spec.share_nodes = true;
  by = directives_by_partition(spec, "#SBATCH");
  CHECK(by["2x2"] == std::set<std::string>{"#SBATCH --nodes=2", "#SBATCH --ntasks=4",
                                           "#SBATCH --ntasks-per-node=2"});
  CHECK(by["3"] == std::set<std::string>{"#SBATCH --ntasks=3"});
  // The sweep-wide options still shape plain partitions as before.
  spec = shaped_spec("slurm", "2,4");
  spec.procs_per_node = 2;
  by = directives_by_partition(spec, "#SBATCH");
  CHECK(by["4"] == std::set<std::string>{"#SBATCH --nodes=2", "#SBATCH --ntasks=4",
                                         "#SBATCH --ntasks-per-node=2", "#SBATCH --exclusive"});
}

TEST_CASE("PBS directives per shape, as sets: nodes=N:ppn=P, whole nodes") {
  auto spec = shaped_spec("pbs", "2x1,2x2,4x1,3");
  auto pbs = directives_by_partition(spec, "#PBS");
  auto sbatch = directives_by_partition(spec, "#SBATCH");
  CHECK(pbs["2x1"] ==
        std::set<std::string>{"#PBS -l nodes=2:ppn=1", "#PBS -l naccesspolicy=singlejob"});
  CHECK(pbs["2x2"] ==
        std::set<std::string>{"#PBS -l nodes=2:ppn=2", "#PBS -l naccesspolicy=singlejob"});
  CHECK(pbs["4x1"] ==
        std::set<std::string>{"#PBS -l nodes=4:ppn=1", "#PBS -l naccesspolicy=singlejob"});
  CHECK(pbs["3"] ==
        std::set<std::string>{"#PBS -l nodes=1:ppn=3", "#PBS -l naccesspolicy=singlejob"});
  // Slurm's PBS translation ignores naccesspolicy but reads #SBATCH lines (comments to PBS).
  CHECK(sbatch["2x2"] == std::set<std::string>{"#SBATCH --exclusive"});
  spec.share_nodes = true;
  pbs = directives_by_partition(spec, "#PBS");
  sbatch = directives_by_partition(spec, "#SBATCH");
  CHECK(pbs["2x2"] == std::set<std::string>{"#PBS -l nodes=2:ppn=2"});
  CHECK(sbatch["2x2"].empty());
}

TEST_CASE("a sweep file names shapes as strings beside plain partitions") {
  const auto spec = sweep::parse_sweep_file(
      "partitions = [1, \"2x1\", \"2x2\"]\n[scheduler]\nname = \"slurm\"\nshare_nodes = true\n",
      "sweep.toml", "f");
  CHECK(spec.partitions ==
        std::vector<Partition>{Partition(1), Partition::shape(2, 1), Partition::shape(2, 2)});
  CHECK(spec.share_nodes);
  CHECK_THROWS_WITH_AS(
      sweep::parse_sweep_file("partitions = [\"0x2\"]\n", "sweep.toml", "f"),
      "sweep file sweep.toml: partitions[0]: '0x2': the number of nodes must be positive",
      UsageError);
}
