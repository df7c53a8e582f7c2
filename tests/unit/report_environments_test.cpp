// A sweep over MPI environments in the report and the notes (issue 39 items 3 and 5): every
// figure has a series per environment, named with the MPI library and version its results
// report; a sweep without environments reads as before; the notes name the environment and the
// point's dimensions; the summaries of sweep, wait and collect are tables of the one JSON schema.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli/CommandSummary.hpp"
#include "query/BcastQuery.hpp"
#include "query/Layout.hpp"
#include "report/EnvironmentLabels.hpp"
#include "report/HistoryFigures.hpp"
#include "report/WorkerFigures.hpp"
#include "support/StoreFixture.hpp"

using namespace pbench;
using namespace pbench::report;
using pbench::testing::document;
using pbench::testing::metric;

namespace {

nlohmann::json mpi(const std::string& library, const std::string& version) {
  return {{"library", library},     {"version", version},     {"standard", "3.1"},
          {"io_layer", "ROMIO"},    {"io_layer_source", "x"}, {"launcher", nullptr},
          {"launch_flags", nullptr}};
}

const EnvironmentLabels kEnvs({{"mpich", "mpich (MPICH 4.0.2)"},
                               {"openmpi", "openmpi (Open MPI 4.1.4)"}});

query::QueryColumn column(const std::string& key, const std::string& unit = "") {
  return {key, unit, key, unit, 1, 6};
}

std::vector<std::string> titles(const Panel& panel) {
  std::vector<std::string> out;
  for (const auto& s : panel.series) out.push_back(s.title);
  return out;
}

nlohmann::json table(std::vector<std::string> columns, nlohmann::json rows) {
  nlohmann::json c = nlohmann::json::array();
  for (const auto& name : columns) c.push_back({{"name", name}, {"unit", ""}});
  return {{"columns", c}, {"rows", rows}};
}

StoredResult stored(const std::string& env, nlohmann::json measurements) {
  StoredResult r;
  r.point_key = "k-" + env;
  r.partition = 2;
  r.env = env;
  r.params = {{"env", env}};
  r.document = {{"measurements", measurements}, {"parameters", nlohmann::json::object()}};
  r.valid = true;
  return r;
}

}  // namespace

TEST_CASE("an environment is named with the MPI library and version its results report") {
  testing::Fixture f;
  f.add_sweep("envs", {{"logp", 2, R"({"env":"mpich"})"},
                       {"logp", 2, R"({"env":"openmpi"})"},
                       {"logp", 2, R"({"env":"old"})"},
                       {"logp", 2, R"({"env":"none"})"}});
  auto a = document("logp", 2, nlohmann::json::array(), true);
  a["mpi"] = mpi("MPICH", "4.0.2");
  f.add_run(0, a);
  auto b = document("logp", 2, nlohmann::json::array(), true);
  b["mpi"] = mpi("Open MPI", "4.1.4");
  f.add_run(1, b);
  // A document from before "mpi": the first line of its library's version string.
  f.add_run(2, document("logp", 2, nlohmann::json::array(), true));
  const auto envs = EnvironmentLabels::read(f.store, "envs");
  CHECK(envs.label("mpich") == "mpich (MPICH 4.0.2)");
  CHECK(envs.label("openmpi") == "openmpi (Open MPI 4.1.4)");
  CHECK(envs.label("old") == "old (MPICH Version: 4.0.2)");
  CHECK(envs.label("none") == "none");  // no result yet
  CHECK(envs.label("") == "");
  CHECK(envs.with("q = 1", "") == "q = 1");
  CHECK(envs.with("q = 1", "openmpi") == "q = 1, openmpi (Open MPI 4.1.4)");
  CHECK(envs.index("mpich") != envs.index("openmpi"));
  f.add_sweep("plain", {{"logp", 2}});
  CHECK(EnvironmentLabels::read(f.store, "plain").with("q = 1", "") == "q = 1");
}

TEST_CASE("every figure of a two-environment sweep has each environment's series") {
  const std::string m = "mpich", o = "openmpi";
  // logp: g against q, a curve per partition and environment.
  query::QueryTable logp;
  logp.columns = {column("env"), column("partition"), column("queue_depth"), column("g", "s")};
  logp.rows = {{m, std::int64_t{2}, std::int64_t{1}, 2e-6},
               {o, std::int64_t{2}, std::int64_t{1}, 3e-6}};
  CHECK(titles(logp_gap_figure(logp, kEnvs).panels.at(0)) ==
        std::vector<std::string>{"2 processes, mpich (MPICH 4.0.2)",
                                 "2 processes, openmpi (Open MPI 4.1.4)"});
  // logp: time per message, one figure for the partition with both environments' curves.
  const auto flood = nlohmann::json{
      {"flood_curve", table({"queue_depth", "size", "time_per_message"}, {{4, 8, 1e-6}})}};
  const auto sizes = logp_size_figures({stored(m, flood), stored(o, flood)}, kEnvs);
  REQUIRE(sizes.size() == 1);
  CHECK(titles(sizes[0].panels.at(0)) ==
        std::vector<std::string>{"q = 4, mpich (MPICH 4.0.2)", "q = 4, openmpi (Open MPI 4.1.4)"});
  // comm: one figure for the partition, each environment's ring and random curves in it.
  const auto patterns = nlohmann::json{
      {"patterns", table({"pattern", "kind", "in_b_eff"},
                         {{"ring1", "ring", true}, {"random1", "random", true}})},
      {"measurements", table({"pattern", "l", "method", "bandwidth"},
                             {{"ring1", 1, "sendrecv", 1e6}, {"random1", 1, "sendrecv", 2e6}})}};
  const auto comm = comm_figures({stored(m, patterns), stored(o, patterns)}, kEnvs);
  REQUIRE(comm.size() == 1);
  CHECK(titles(comm[0].panels.at(0)) ==
        std::vector<std::string>{"ring1, mpich (MPICH 4.0.2)",
                                 "random (log mean of 1 patterns), mpich (MPICH 4.0.2)",
                                 "ring1, openmpi (Open MPI 4.1.4)",
                                 "random (log mean of 1 patterns), openmpi (Open MPI 4.1.4)"});
  CHECK(comm[0].panels[0].series[1].color != comm[0].panels[0].series[3].color);
  CHECK(comm[0].caption.find("points k-mpich of mpich (MPICH 4.0.2), k-openmpi of openmpi") !=
        std::string::npos);
  // comm's scaling figure and io's partitions: a curve per environment.
  query::QueryTable beff;
  beff.columns = {column("env"), column("partition"), column("b_eff", "B/s"),
                  column("b_eff_per_process", "B/s")};
  beff.rows = {{m, std::int64_t{2}, 2e9, 1e9}, {o, std::int64_t{2}, 1e9, 5e8}};
  const auto scaling = comm_scaling_figure(beff, kEnvs);
  for (const auto& panel : scaling.panels) CHECK(panel.series.size() == 2);
  CHECK(scaling.panels[0].series[1].title == "b_eff, openmpi (Open MPI 4.1.4)");
  query::QueryTable io;
  io.columns = {column("env"),   column("partition"),       column("schedule_time", "s"),
                column("hints"), column("b_eff_io", "B/s"), column("b_eff_io_paper", "B/s")};
  io.rows = {{m, std::int64_t{2}, 30.0, std::string("-"), 5e8, 6e8},
             {o, std::int64_t{2}, 30.0, std::string("-"), 4e8, 5e8}};
  CHECK(titles(io_partition_figure(io, kEnvs).panels.at(0)) ==
        std::vector<std::string>{"T = 30 s, hints -, mpich (MPICH 4.0.2)",
                                 "T = 30 s, hints -, openmpi (Open MPI 4.1.4)",
                                 "T = 30 s, hints -, mpich (MPICH 4.0.2) (paper)",
                                 "T = 30 s, hints -, openmpi (Open MPI 4.1.4) (paper)"});
  // bcast: each method in each environment; the hop delay by the display rule.
  query::QueryTable bcast;
  bcast.columns = {column("env"),       column("impl"), column("hop_delay", "s"),
                   column("partition"), column("size"), column("ol", "s")};
  bcast.rows = {{m, std::string("mpi"), 200e-6, std::int64_t{2}, std::int64_t{8}, 1e-6},
                {o, std::string("mpi"), 200e-6, std::int64_t{2}, std::int64_t{8}, 2e-6}};
  const auto b = bcast_figures(bcast, kEnvs);
  REQUIRE(b.size() == 1);
  CHECK(b[0].title == "Broadcast latency: mpi, d = 200 us");
  const auto t = titles(b[0].panels.at(0));
  CHECK(std::count(t.begin(), t.end(), "OL (OL_i method), mpich (MPICH 4.0.2)") == 1);
  CHECK(std::count(t.begin(), t.end(), "OL (OL_i method), openmpi (Open MPI 4.1.4)") == 1);
  // history: a series per environment.
  query::QueryTable history;
  history.columns = {column("run"),   column("figure"), column("env"),  column("partition"),
                     column("value"), column("unit"),   column("valid")};
  history.rows = {{std::int64_t{1}, std::string("b_eff"), m, std::int64_t{2}, 1e9,
                   std::string("B/s"), std::string("yes")},
                  {std::int64_t{1}, std::string("b_eff"), o, std::int64_t{2}, 2e9,
                   std::string("B/s"), std::string("no")}};
  const auto h = history_figures(history, kEnvs);
  REQUIRE(h.size() == 1);
  // One series per environment, its not valid points hollow (no series of their own), in the
  // tables' MB/s.
  CHECK(titles(h[0].panels.at(0)) ==
        std::vector<std::string>{"b_eff, mpich (MPICH 4.0.2)", "b_eff, openmpi (Open MPI 4.1.4)"});
  CHECK(h[0].panels[0].y_label == "b_eff [MB/s]");
  CHECK(h[0].panels[0].series[1].points.at(0).second == doctest::Approx(2000));
  CHECK_FALSE(h[0].panels[0].series[1].point_valid(0));
  CHECK(h[0].panels[0].series[1].env == "openmpi (Open MPI 4.1.4)");
  CHECK(h[0].panels[0].integer_x);
}

TEST_CASE("the report's list of results that are not valid names the environment") {
  auto r = stored("openmpi", nlohmann::json::object());
  r.document["validity"] = {{"valid", false}, {"reasons", {"T too short"}}};
  CHECK(not_valid_text(r) == "point k-openmpi (2 processes, environment openmpi): T too short");
}

TEST_CASE("notes name the environment and the point's dimensions") {
  CHECK(query::note_where("s", "2 (2x1)", R"({"queue_depth":8,"env":"mpich"})") ==
        "sweep s, partition 2 (2x1), q 8, environment mpich");
  CHECK(query::note_where("s", "4", R"({"schedule_time":60,"hints":"cb_nodes=1"})") ==
        "sweep s, partition 4, T 60, hints cb_nodes=1");
  CHECK(query::note_where("s", "4", "not json") == "sweep s, partition 4");
  // Issue 39: "sweep envs, partition 2: not valid: ..." four times, no environment named.
  testing::Fixture f;
  f.add_sweep("envs", {{"bcast", 2, R"({"env":"mpich"})"}, {"bcast", 2, R"({"env":"openmpi"})"}});
  for (std::size_t i = 0; i < 2; ++i) {
    f.add_run(i, document("bcast", 2,
                          nlohmann::json::array({metric("ol", 1e-6, "s", {{"size", 8}})}), false));
  }
  const auto notes = query::bcast_table(f.store, std::string("envs")).notes;
  for (const char* env : {"mpich", "openmpi"}) {
    const std::string expected = std::string("sweep envs, partition 2, environment ") + env +
                                 ": not valid: not the reference configuration";
    CHECK(std::count(notes.begin(), notes.end(), expected) == 1);
  }
}

TEST_CASE("the summaries of wait and collect are tables of the one JSON schema") {
  run::Progress progress;
  progress.total = 3;
  progress.by_state = {{store::PointState::done, 2}, {store::PointState::failed, 1}};
  const auto wait = query::table_json(cli::progress_table("s", progress, 1));
  REQUIRE(wait["rows"].size() == 1);
  const auto& row = wait["rows"][0];
  CHECK(row["sweep"] == "s");
  CHECK(row["points"] == 3);
  CHECK(row["done"] == 2);
  CHECK(row["failed"] == 1);
  CHECK(row["planned"] == 0);
  CHECK(row["exit_status"] == 1);
  CHECK(wait["columns"][0] == nlohmann::json{{"name", "sweep"}, {"unit", ""}});
  CHECK(wait["notes"][0] == "sweep s: " + progress.line());

  run::CollectReport report;
  report.stored = 4;
  report.failed = 1;
  report.pending = 2;
  report.messages = {"logp p=2 q=8 [k]: failed, exit status 2: pbench-logp: error: x"};
  const auto collect = query::table_json(cli::collect_table("s", report, 1));
  const auto& c = collect["rows"][0];
  CHECK(c["stored"] == 4);
  CHECK(c["failed"] == 1);
  CHECK(c["not_finished"] == 2);
  CHECK(c["rejected"] == 0);
  CHECK(c["exit_status"] == 1);
  CHECK(collect["notes"] == nlohmann::json(report.messages));
}
