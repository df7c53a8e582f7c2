// The site profile (issue 28): parsing and its errors, the environment as a sweep dimension,
// launch lines per launcher, and PBS directives per dialect as sets.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "schedulers/Launcher.hpp"
#include "schedulers/PbsScheduler.hpp"
#include "site/ProfileSweep.hpp"
#include "site/SiteProfile.hpp"
#include "support/RecordingRunner.hpp"
#include "support/ScratchDir.hpp"
#include "sweep/SweepSpec.hpp"
#include "util/Error.hpp"

using namespace pbench;
namespace fs = std::filesystem;

namespace {

// A directory with two worker directories, as a site has one per MPI build.
struct SiteDir : testing::ScratchDir {
  SiteDir() : ScratchDir("pbench-site-test") {
    fs::create_directories(path / "mpich");
    fs::create_directories(path / "openmpi");
  }
  std::string origin() const { return (path / "site.toml").string(); }
};

std::string error_of(const std::string& text, const std::string& origin) {
  try {
    site::parse_site_profile(text, origin);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string words(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& w : argv) out += (out.empty() ? "" : " ") + w;
  return out;
}

const char* kTwoEnvironments = R"(
lines = ["module purge"]
[scheduler]
name = "slurm"
account = "proj"
queue = "batch"
time_limit = "30:00"
directives = ["--constraint=ib"]
[launcher]
name = "srun"
pmi = "pmix"
args = ["--cpu-bind=cores"]
[variables]
OMP_NUM_THREADS = "1"
[[environment]]
name = "mpich"
worker_dir = "mpich"
lines = ["module load mpich/4.1"]
launcher = { name = "srun", pmi = "pmi2" }
[[environment]]
name = "openmpi"
worker_dir = "openmpi"
lines = ["module load openmpi/4.1"]
variables = { OMPI_MCA_io = "romio321" }
)";

}  // namespace

TEST_CASE("a site profile with two environments is read") {
  SiteDir dir;
  const auto profile = site::parse_site_profile(kTwoEnvironments, dir.origin());
  CHECK(profile.scheduler == "slurm");
  CHECK(profile.account == "proj");
  CHECK(profile.queue == "batch");
  CHECK(profile.time_limit_seconds == 1800);
  CHECK(profile.directives == std::vector<std::string>{"--constraint=ib"});
  REQUIRE(profile.launcher);
  CHECK(profile.launcher->name == "srun");
  CHECK(profile.launcher->pmi == "pmix");
  CHECK(profile.lines == std::vector<std::string>{"module purge"});
  CHECK(profile.variables == sweep::Variables{{"OMP_NUM_THREADS", "1"}});
  REQUIRE(profile.environments.size() == 2);
  // A relative worker directory is the profile's own directory's.
  CHECK(profile.environment("mpich").worker_dir == (dir.path / "mpich").string());
  CHECK(profile.environment("mpich").launcher->pmi == "pmi2");
  CHECK_FALSE(profile.environment("openmpi").launcher);
  CHECK(profile.environment("openmpi").variables == sweep::Variables{{"OMPI_MCA_io", "romio321"}});
  CHECK(profile.sha256.size() == 64);
}

TEST_CASE("a site profile's errors name the file and the key") {
  SiteDir dir;
  const std::string at = "site profile " + dir.origin();
  CHECK(error_of("scheduler = [", dir.origin()).find(at + " is not TOML: line 1") == 0);
  CHECK(error_of("schedular = 1", dir.origin()) ==
        at + ": schedular: unknown key (known: environment, launcher, lines, machine, scheduler, "
             "variables)");
  CHECK(error_of("[scheduler]\nname = \"slurm\"\nqueues = \"x\"", dir.origin())
            .find(at + ": scheduler.queues: unknown key") == 0);
  CHECK(error_of("[scheduler]\nname = \"lsf\"", dir.origin()) ==
        at + ": scheduler.name: unknown scheduler 'lsf' (known: local, slurm, pbs)");
  CHECK(error_of("[scheduler]\nname = \"pbs\"\ndialect = \"sge\"", dir.origin()) ==
        at + ": scheduler.dialect: unknown dialect 'sge' (known: torque, pbspro)");
  CHECK(error_of("[scheduler]\nname = \"slurm\"\ndialect = \"pbspro\"", dir.origin())
            .find("a dialect is for the pbs scheduler") != std::string::npos);
  CHECK(error_of("[launcher]\nname = \"aprun\"", dir.origin()) ==
        at + ": launcher: unknown launcher 'aprun' (known: mpiexec, mpirun, srun, custom)");
  CHECK(error_of("[launcher]\nname = \"mpirun\"\npmi = \"pmix\"", dir.origin())
            .find("pmi is srun's") != std::string::npos);
  CHECK(error_of("[launcher]\nname = \"custom\"\nline = \"wrap -np 4\"", dir.origin())
            .find("has no {n}") != std::string::npos);
  CHECK(error_of("[launcher]\nname = \"custom\"\nline = \"wrap -np {n} -x {cores}\"", dir.origin())
            .find("unknown placeholder {cores}") != std::string::npos);
  CHECK(error_of("[[environment]]\nname = \"mpich\"", dir.origin()) ==
        at + ": environment[0] 'mpich'.worker_dir: missing: the directory of the four workers "
             "built against this environment's MPI");
  CHECK(error_of("[[environment]]\nname = \"mpich\"\nworker_dir = \"nowhere\"", dir.origin())
            .find("'" + (dir.path / "nowhere").string() + "' is not a directory") !=
        std::string::npos);
  CHECK(error_of("[[environment]]\nname = \"m\"\nworker_dir = \"mpich\"\n"
                 "[[environment]]\nname = \"m\"\nworker_dir = \"openmpi\"",
                 dir.origin()) == at + ": environment[1].name: the environment 'm' is named twice");
  CHECK(
      error_of("[[environment]]\nname = \"m\"\nworker_dir = \"mpich\"\nmodules = []", dir.origin())
          .find("environment[0].modules: unknown key") != std::string::npos);
  CHECK(error_of("[variables]\n\"A-B\" = \"1\"", dir.origin())
            .find("variables.A-B: not a variable name") != std::string::npos);
  CHECK(error_of("lines = [\"a\\nb\"]", dir.origin()).find("lines[0]: a line may not hold") !=
        std::string::npos);
}

TEST_CASE("--envs makes the environment a sweep dimension") {
  SiteDir dir;
  const auto profile = site::parse_site_profile(kTwoEnvironments, dir.origin());
  sweep::SweepSpec spec;
  spec.name = "envs";
  spec.workers = {"logp"};
  spec.partitions = {2};
  spec.set_values("queue_depth", nlohmann::json::array({1}));
  site::apply_site_profile(spec, profile, [](const std::string&) { return false; },
                           {"mpich", "openmpi"});
  spec.validate();
  CHECK(spec.scheduler == "slurm");
  CHECK(spec.launcher.pmi == "pmix");
  CHECK(spec.site.at("sha256") == profile.sha256);
  const auto points = sweep::expand(spec);
  REQUIRE(points.size() == 2);
  CHECK(points[0].params.at("env") == "mpich");
  CHECK(points[1].params.at("env") == "openmpi");
  CHECK(points[0].key != points[1].key);
  // The environments are copied into the sweep: its JSON reads back the same.
  CHECK(sweep::SweepSpec::from_json(spec.to_json()).to_json() == spec.to_json());
  // A given option wins over the profile.
  sweep::SweepSpec local;
  local.name = "local";
  site::apply_site_profile(local, profile, [](const std::string& o) { return o == "--scheduler"; },
                           {});
  CHECK(local.scheduler == "local");
  CHECK(local.account == "proj");
  // Bad --envs: an environment the profile lacks, one named twice, none without a profile.
  sweep::SweepSpec bad;
  CHECK_THROWS_WITH(
      site::apply_site_profile(bad, profile, [](const std::string&) { return false; }, {"intel"}),
      ("--envs: the site profile " + dir.origin() +
       " has no environment 'intel' (it has: mpich, openmpi)")
          .c_str());
  CHECK_THROWS_WITH(site::apply_site_profile(bad, profile, [](const std::string&) { return false; },
                                             {"mpich", "mpich"}),
                    "--envs names the environment 'mpich' twice");
  CHECK_THROWS_WITH(site::apply_site_profile(bad, std::nullopt,
                                             [](const std::string&) { return false; }, {"mpich"}),
                    doctest::Contains("--envs needs a site profile"));
}

TEST_CASE("launch lines per launcher") {
  using schedulers::LaunchSpec;
  const std::vector<std::string> worker{"/w/pbench-logp", "--output", "result.json"};
  CHECK(words(launch_command(LaunchSpec("mpiexec"), 4, 0, 0, worker)) ==
        "mpiexec -n 4 /w/pbench-logp --output result.json");
  LaunchSpec hydra("mpiexec");
  hydra.program = "mpiexec.hydra";
  hydra.args = {"-bind-to", "core"};
  CHECK(words(launch_command(hydra, 2, 0, 0, {"w"})) == "mpiexec.hydra -n 2 -bind-to core w");
  LaunchSpec mpirun("mpirun");
  mpirun.program = "/usr/bin/mpirun.openmpi";
  mpirun.args = {"--bind-to", "core", "--map-by", "ppr:{ppn}:node", "--oversubscribe"};
  CHECK(words(launch_command(mpirun, 4, 2, 2, {"w"})) ==
        "/usr/bin/mpirun.openmpi -np 4 --bind-to core --map-by ppr:2:node --oversubscribe w");
  CHECK(launch_flags(mpirun) == "--bind-to core --map-by ppr:{ppn}:node --oversubscribe");
  LaunchSpec srun("srun");
  CHECK(words(launch_command(srun, 4, 0, 0, {"w"})) ==
        "srun --mpi=pmi2 -n 4 --kill-on-bad-exit=1 w");
  srun.pmi = "pmix";
  srun.args = {"--cpu-bind=cores"};
  CHECK(words(launch_command(srun, 8, 0, 0, {"w"})) ==
        "srun --mpi=pmix -n 8 --kill-on-bad-exit=1 --cpu-bind=cores w");
  LaunchSpec custom("custom");
  custom.line = "site-launch --ranks {n} --nodes {nodes} --";
  CHECK(words(launch_command(custom, 8, 2, 4, {"w"})) == "site-launch --ranks 8 --nodes 2 -- w");
  CHECK(custom.describe() == "site-launch --ranks {n} --nodes {nodes} --");
  // A plain launcher is still the name it always was in a sweep's JSON.
  CHECK(LaunchSpec("srun").to_json() == "srun");
  CHECK(LaunchSpec::from_json(srun.to_json()) == srun);
  CHECK_THROWS_WITH(LaunchSpec("aprun").validate(),
                    "unknown launcher 'aprun' (known: mpiexec, mpirun, srun, custom)");
}

TEST_CASE("PBS directives per dialect, checked as sets") {
  testing::RecordingRunner runner;
  schedulers::JobResources r;
  r.job_name = "pb-0123456789ab";
  r.nodes = 2;
  r.ntasks = 6;
  r.procs_per_node = 3;
  r.exclusive = true;
  r.time_limit_seconds = 5400;
  r.account = "proj1";
  r.queue = "short";
  auto as_set = [](const std::vector<std::string>& v) {
    return std::set<std::string>(v.begin(), v.end());
  };
  CHECK(as_set(schedulers::PbsScheduler(runner).directives(r)) ==
        std::set<std::string>{"#PBS -N pb-0123456789ab", "#PBS -l nodes=2:ppn=3",
                              "#PBS -l naccesspolicy=singlejob", "#SBATCH --exclusive",
                              "#PBS -l walltime=01:30:00", "#PBS -A proj1", "#PBS -q short"});
  r.dialect = "pbspro";
  CHECK(as_set(schedulers::PbsScheduler(runner).directives(r)) ==
        std::set<std::string>{"#PBS -N pb-0123456789ab", "#PBS -l select=2:ncpus=3:mpiprocs=3",
                              "#PBS -l place=scatter:excl", "#SBATCH --exclusive",
                              "#PBS -l walltime=01:30:00", "#PBS -A proj1", "#PBS -q short"});
  r.exclusive = false;
  r.nodes = 0;
  r.procs_per_node = 0;
  r.ntasks = 4;
  CHECK(as_set(schedulers::PbsScheduler(runner).directives(r)) ==
        std::set<std::string>{"#PBS -N pb-0123456789ab", "#PBS -l select=1:ncpus=4:mpiprocs=4",
                              "#PBS -l place=scatter:shared", "#PBS -l walltime=01:30:00",
                              "#PBS -A proj1", "#PBS -q short"});
}
