// A sweep's stored form and its points do not change with how the code holds the workers'
// dimensions (issue 53): representative sweeps of every worker, made from a sweep file, from
// the command line and from a stored specification, give the specification text, point keys
// and worker arguments recorded in tests/data/sweeps/golden.json, which were written by the
// code before the dimensions became data (SweepSpec::to_json is stored with each sweep and
// compared on re-creation; the point keys name the stored points). The errors of bad
// dimensions are recorded there too.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <set>

#include <CLI/CLI.hpp>

#include "cli/SweepOptions.hpp"
#include "ingest/JsonSchema.hpp"
#include "support/ScratchDir.hpp"
#include "sweep/SweepFile.hpp"
#include "sweep/SweepSpec.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::sweep;
namespace fs = std::filesystem;

namespace {

const fs::path kGolden = fs::path(PBENCH_SOURCE_DIR) / "tests" / "data" / "sweeps" / "golden.json";

// Two environments, each with its own worker directory (made in the scratch directory).
const char* kSiteProfile = R"(
[scheduler]
name = "slurm"
account = "proj"
[launcher]
name = "srun"
[[environment]]
name = "mpich"
worker_dir = "mpich"
[[environment]]
name = "openmpi"
worker_dir = "openmpi"
lines = ["module load openmpi"]
)";

struct Fixture : testing::ScratchDir {
  Fixture() : ScratchDir("pbench-sweep-golden") {
    fs::create_directories(path / "mpich");
    fs::create_directories(path / "openmpi");
    std::ofstream(path / "site.toml") << kSiteProfile;
    // No site profile but the one a case names: none from the user's configuration.
    if (const char* site = std::getenv("PBENCH_SITE")) saved_site_ = site;
    if (const char* config = std::getenv("XDG_CONFIG_HOME")) saved_config_ = config;
    ::unsetenv("PBENCH_SITE");
    ::setenv("XDG_CONFIG_HOME", path.c_str(), 1);
  }
  ~Fixture() {
    if (saved_site_) ::setenv("PBENCH_SITE", saved_site_->c_str(), 1);
    if (saved_config_) {
      ::setenv("XDG_CONFIG_HOME", saved_config_->c_str(), 1);
    } else {
      ::unsetenv("XDG_CONFIG_HOME");
    }
  }
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;
  /// `text` with the scratch directory's path written as DIR, so that the text is fixed.
  std::string fixed(std::string text) const {
    const std::string dir = path.string();
    for (auto at = text.find(dir); at != std::string::npos; at = text.find(dir, at)) {
      text.replace(at, dir.size(), "DIR");
    }
    return text;
  }
  /// The specification `pbench sweep` makes of `argv` (after "pbench sweep NAME").
  SweepSpec from_command_line(std::vector<std::string> argv) const {
    CLI::App app;
    cli::SweepOptions options;
    options.declare(app);
    argv.insert(argv.begin(), "g");
    std::vector<std::string> reversed(argv.rbegin(), argv.rend());
    app.parse(reversed);
    return options.spec();
  }

 private:
  std::optional<std::string> saved_site_;
  std::optional<std::string> saved_config_;
};

/// What the golden file records of a sweep: its specification text, and per point its key and
/// worker arguments.
nlohmann::json outcome(const Fixture& f, const SweepSpec& spec) {
  spec.validate();
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : expand(spec)) {
    std::string args;
    for (const auto& a : worker_arguments(p)) args += (args.empty() ? "" : " ") + a;
    points.push_back({p.key, f.fixed(args)});
  }
  return {{"spec", f.fixed(spec.to_json().dump())}, {"points", points}};
}

std::string error_of(const std::function<void()>& make) {
  try {
    make();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* kLogpFile = R"(
workers = ["logp"]
partitions = [1, 2, "2x1"]
queue_depths = [1, 4]
[settings.logp]
eel_roundtrips = 1000
[scheduler]
name = "slurm"
share_nodes = true
time_limit = "10:00"
account = "proj"
directives = ["--constraint=ib"]
)";

const char* kIoFile = R"(
workers = ["io", "comm"]
partitions = [2, 4]
schedule_times = [60, 0.5, 120]
hints = ["romio_cb_write=enable,cb_nodes=2", "romio_cb_write=disable"]
)";

const char* kConsortiumFile = R"(
workers = ["io"]
partitions = [1, 2]
hints = ["romio_cb_write=enable"]
transfer_sizes = [65536, "1MiB"]
patterns = ["segmented", "strided"]
collective = [true, false]
[settings.io]
suite = "consortium"
)";

/// Every case's outcome, by name.
nlohmann::json outcomes(const Fixture& f) {
  const auto file = [](const char* text) { return parse_sweep_file(text, "golden.toml", "g"); };
  nlohmann::json out;
  out["default"] = outcome(f, f.from_command_line({}));
  out["logp file"] = outcome(f, file(kLogpFile));
  out["io file"] = outcome(f, file(kIoFile));
  out["consortium file"] = outcome(f, file(kConsortiumFile));
  out["every worker, envs"] =
      outcome(f, f.from_command_line({"--workers", "logp,comm,io,bcast,links", "--partitions",
                                      "2,4", "--queue-depths", "8,1", "-T", "60,300", "--hints",
                                      "a=b", "--hints", "type1:c=d,e=f", "--site",
                                      (f.path / "site.toml").string(), "--envs", "openmpi,mpich"}));
  out["consortium command line"] =
      outcome(f, f.from_command_line({"--workers", "io,logp", "--partitions", "1x1,2x1", "--suite",
                                      "consortium", "--transfer-sizes", "64KiB,4096", "--patterns",
                                      "segmented,random", "--collective", "on,off", "--scheduler",
                                      "slurm", "--set", "io.block_size=16MiB"}));
  // A specification as an older pbench stored it: times as whole numbers, no optional keys.
  out["stored"] = outcome(f, SweepSpec::from_json(nlohmann::json::parse(R"({
      "name": "old", "workers": ["io", "logp"], "partitions": [1, 2], "queue_depths": [64],
      "scheduler": "local", "launcher": "mpiexec", "settings": {}, "schedule_times": [60, 300],
      "hint_sets": ["cb_nodes=1"]})")));
  return out;
}

/// The errors of bad dimensions, on the command line, in a sweep file and in a specification.
nlohmann::json errors(const Fixture& f) {
  const auto command = [&](std::vector<std::string> argv) {
    return error_of([&] { f.from_command_line(std::move(argv)).validate(); });
  };
  const auto file = [](const std::string& text) {
    return error_of([&] { parse_sweep_file(text, "bad.toml", "g").validate(); });
  };
  nlohmann::json out;
  out["queue depths empty"] = command({"--queue-depths", ""});
  out["queue depth zero"] = command({"--queue-depths", "1,0"});
  out["queue depth twice"] = command({"--queue-depths", "8,8"});
  out["T negative"] = command({"--workers", "io", "-T", "-1"});
  out["T twice"] = command({"--workers", "io", "-T", "60,1min"});
  out["T empty"] = command({"--workers", "io", "-T", ""});
  out["hints bad"] = command({"--workers", "io", "--hints", "nokey"});
  out["hints twice"] = command({"--workers", "io", "--hints", "a=b", "--hints", "a=b"});
  out["transfer without consortium"] = command({"--workers", "io", "--transfer-sizes", "4096"});
  out["pattern without io"] = command({"--patterns", "segmented"});
  out["pattern unknown"] = command({"--workers", "io", "--patterns", "spiral"});
  out["collective bad"] = command({"--workers", "io", "--collective", "maybe"});
  out["transfer empty"] = command({"--workers", "io", "--transfer-sizes", ""});
  out["transfer zero"] =
      command({"--workers", "io", "--suite", "consortium", "--transfer-sizes", "0"});
  out["T in consortium"] = command({"--workers", "io", "--suite", "consortium", "-T", "60"});
  out["list and setting"] = command({"--workers", "io", "--suite", "consortium", "--patterns",
                                     "strided", "--set", "io.pattern=segmented"});
  out["suite without io"] = command({"--suite", "consortium"});
  out["suite disagrees"] =
      command({"--workers", "io", "--suite", "consortium", "--set", "io.suite=b_eff_io"});
  out["with --spec"] = command({"--spec", "x.toml", "--patterns", "segmented"});
  out["file queue depths"] = file("queue_depths = [0]");
  out["file hints"] = file("workers = [\"io\"]\nhints = [\"x\"]");
  out["file sizes"] = file("workers = [\"io\"]\ntransfer_sizes = [\"big\"]");
  out["file switches"] = file("workers = [\"io\"]\ncollective = [\"maybe\"]");
  out["file times"] = file("workers = [\"io\"]\nschedule_times = [-1]");
  out["file unknown key"] = file("queue_depth = [1]");
  out["file pattern"] = file(
      "workers = [\"io\"]\npatterns = [\"spiral\"]\n[settings.io]\nsuite = "
      "\"consortium\"");
  out["file T twice"] = file("workers = [\"io\"]\nschedule_times = [60, 60.0]");
  out["file T in logp"] = file("schedule_times = [60]");
  const auto stored = [](const char* dimensions) {
    return error_of([&] {
      SweepSpec::from_json(nlohmann::json::parse(
                               R"({"name": "x", "workers": ["io"], "partitions": [1],
                                   "scheduler": "local",
                                   "launcher": "mpiexec", "settings": {"io": {"suite":
                                   "consortium"}}, )" +
                               std::string(dimensions) + "}"))
          .validate();
    });
  };
  out["stored transfer zero"] = stored(R"("queue_depths": [1], "transfer_sizes": [0])");
  out["stored time zero"] = stored(R"("queue_depths": [1], "schedule_times": [0])");
  out["stored collective number"] = stored(R"("queue_depths": [1], "collective": [1])");
  out["stored depths negative"] = stored(R"("queue_depths": [-1])");
  out["stored depths"] = error_of([] {
    SweepSpec::from_json(nlohmann::json::parse(
        R"({"name": "x", "workers": ["logp"], "partitions": [1], "queue_depths": ["a"],
            "scheduler": "local", "launcher": "mpiexec", "settings": {}})"));
  });
  out["stored without depths"] = error_of([] {
    SweepSpec::from_json(nlohmann::json::parse(
        R"({"name": "x", "workers": ["logp"], "partitions": [1], "scheduler": "local",
            "launcher": "mpiexec", "settings": {}})"));
  });
  return out;
}

}  // namespace

TEST_CASE("sweep specifications, point keys and dimension errors are as recorded") {
  Fixture f;
  const nlohmann::json actual = {{"outcomes", outcomes(f)}, {"errors", errors(f)}};
  std::ifstream in(kGolden);
  const auto expected = in.good() ? nlohmann::json::parse(in) : nlohmann::json();
  // On a difference the actual outcomes go beside the build, to compare with the recorded ones.
  if (actual != expected) {
    std::ofstream(fs::path(PBENCH_BINARY_DIR) / "sweep_golden_actual.json") << actual.dump(2);
  }
  REQUIRE_MESSAGE(expected.is_object(), "no ", kGolden.string());
  for (const auto& part : {"outcomes", "errors"}) {
    for (const auto& [name, value] : expected.at(part).items()) {
      CAPTURE(name);
      CHECK(actual.at(part).value(name, nlohmann::json()) == value);
    }
    CHECK(actual.at(part).size() == expected.at(part).size());
  }
}

TEST_CASE("recorded sweep specifications read back equal and pass the sweep record's schema") {
  Fixture f;
  const auto golden = [] {
    std::ifstream in(kGolden);
    return nlohmann::json::parse(in);
  }();
  for (const auto& [name, value] : golden.at("outcomes").items()) {
    CAPTURE(name);
    const auto text = value.at("spec").get<std::string>();
    const auto stored = nlohmann::json::parse(text);
    CHECK(SweepSpec::from_json(stored).to_json().dump() == text);
    const nlohmann::json record = {{"sweep_record_version", 1},
                                   {"name", stored.at("name")},
                                   {"scheduler", stored.at("scheduler")},
                                   {"created_at", "2026-01-01T00:00:00Z"},
                                   {"spec", stored}};
    CHECK(ingest::sweep_schema().problems(record).empty());
  }
}

TEST_CASE("every worker dimension is an option, a sweep-file key and a stored key") {
  const auto golden = [] {
    std::ifstream in(kGolden);
    return nlohmann::json::parse(in);
  }();
  CLI::App app;
  cli::SweepOptions options;
  options.declare(app);
  for (const Dimension* d : all_dimensions()) {
    CAPTURE(d->name);
    // The option of `pbench sweep`, with the description's help.
    const CLI::Option* option = app.get_option_no_throw(d->option());
    REQUIRE(option != nullptr);
    CHECK(option->get_description() == d->help);
    // A recorded sweep gives it (a new dimension gets a case in the golden file).
    SweepSpec stored;
    bool found = false;
    for (const auto& [name, value] : golden.at("outcomes").items()) {
      const auto spec = nlohmann::json::parse(value.at("spec").get<std::string>());
      if (found || !spec.contains(d->spec_key) || spec[d->spec_key].empty()) continue;
      stored = SweepSpec::from_json(spec);
      found = true;
    }
    REQUIRE(found);
    const nlohmann::json values = stored.values(d->name);
    CHECK(stored.to_json().at(d->spec_key) == values);
    // The same values from a sweep file under its key (JSON's arrays are TOML's).
    const auto file = parse_sweep_file(d->file_key + " = " + values.dump(), "d.toml", "d");
    CHECK(file.values(d->name) == values);
    // Each point of a worker that varies it has one of the values, passed as the worker option.
    std::set<std::string> seen;
    for (const auto& point : expand(stored)) {
      if (!find_worker(point.worker).varies(d->name)) continue;
      REQUIRE(point.params.contains(d->name));
      const auto args = worker_arguments(point);
      const auto at = std::find(args.begin(), args.end(), d->worker_option);
      REQUIRE(at != args.end());
      REQUIRE(at + 1 != args.end());
      CHECK(*(at + 1) == d->argument_text(point.params[d->name]));
      seen.insert(point.params[d->name].dump());
    }
    CHECK(seen.size() == values.size());
  }
}
