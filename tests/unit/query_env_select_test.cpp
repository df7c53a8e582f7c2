// The rest of issue 39: the link matrix is keyed by environment (its headline in query system,
// history, reference and check; each link and node in reference and check), io's system note
// names its environment, and the commands that read headline figures select alike: --envs (one
// error for an environment without figures), query system's and history's figure=, reference's
// and check's --where on the figures' own keys (the error of query's --where for another key).
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>

#include "query/EnvSelection.hpp"
#include "query/HistoryQuery.hpp"
#include "query/IoQuery.hpp"
#include "query/CheckResult.hpp"
#include "query/Reference.hpp"
#include "query/ReferenceFile.hpp"
#include "query/SystemQuery.hpp"
#include "query/WhereFilter.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::testing;

namespace {

// A links result of two ranks on node a and b: both links, both nodes and the median.
nlohmann::json links_document(double bandwidth) {
  auto summary = nlohmann::json::array();
  summary.push_back(metric("link_bandwidth", bandwidth, "B/s", {{"from", "a"}, {"to", "b"}}));
  summary.push_back(metric("link_bandwidth", bandwidth * 2, "B/s", {{"from", "b"}, {"to", "a"}}));
  summary.push_back(metric("node_bandwidth", bandwidth * 1.5, "B/s", {{"node", "a"}}));
  summary.push_back(metric("node_bandwidth", bandwidth * 1.5, "B/s", {{"node", "b"}}));
  summary.push_back(metric("bandwidth_median", bandwidth * 1.5, "B/s"));
  return document("links", 2, summary, true, {{"messages", setting(2)}});
}

nlohmann::json io_document(double b_eff_io) {
  const nlohmann::json p = {{"partition", 2}};
  return document("io", 2,
                  {metric("b_eff_io", b_eff_io, "B/s", p), metric("schedule_time", 60, "s", p)},
                  true, {{"cache_bytes", setting(1000)}});
}

// A sweep "sel" over two environments: links and io on 2 processes in each, the Open MPI side
// at half the bandwidth.
void fill(Fixture& f) {
  const std::string mpich = R"({"env":"mpich"})", ompi = R"({"env":"openmpi"})";
  f.add_sweep("sel", {{"links", 2, mpich}, {"links", 2, ompi}, {"io", 2, mpich}, {"io", 2, ompi}});
  f.add_run(0, links_document(2e9));
  f.add_run(1, links_document(1e9));
  f.add_run(2, io_document(5e8));
  f.add_run(3, io_document(4e8));
}

std::string text(const query::QueryTable& t, std::size_t row, const std::string& key) {
  const auto* s = std::get_if<std::string>(&t.rows.at(row).at(query::column_index(t, key)));
  return s ? *s : "(none)";
}

std::vector<std::string> figures_in(const query::Reference& r) {
  std::vector<std::string> out;
  for (const auto& f : r.figures) out.push_back(f.figure() + "/" + f.env + "/" + f.label);
  return out;
}

std::string error_of(const std::function<void()>& run) {
  try {
    run();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("the link matrix per environment: a headline row each in query system, and its links") {
  Fixture f;
  fill(f);
  const auto t = query::system_table(f.store, std::string("sel"), {});
  std::vector<std::pair<std::string, double>> links;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (text(t, r, "figure") != "links_bandwidth_median") continue;
    links.emplace_back(text(t, r, "env"),
                       std::get<double>(t.rows[r][query::column_index(t, "value")]));
  }
  CHECK(links == std::vector<std::pair<std::string, double>>{{"mpich", 3e9}, {"openmpi", 1.5e9}});
  // history: the same per environment.
  const auto h = query::history_table(f.store, "sel", std::string("links_bandwidth_median"), {});
  REQUIRE(h.rows.size() == 2);
  CHECK(text(h, 0, "env") == "mpich");
  CHECK(text(h, 1, "env") == "openmpi");
  // reference: the headline and every link and node, in each environment with its own value.
  const auto ref = query::reference_of(f.store, "sel", query::parse_tolerance("5%", "", "t"));
  const auto names = figures_in(ref);
  for (const char* env : {"mpich", "openmpi"}) {
    for (const std::string name : {"links_bandwidth_median//", "link_bandwidth//a -> b",
                                   "link_bandwidth//b -> a", "node_bandwidth//a"}) {
      const auto keyed =
          name.substr(0, name.find('/')) + "/" + env + name.substr(name.find('/') + 1);
      CHECK_MESSAGE(std::count(names.begin(), names.end(), keyed) == 1, keyed);
    }
  }
  for (const auto& fig : ref.figures) {
    if (fig.figure() == "link_bandwidth" && fig.label == "a -> b") {
      CHECK(fig.value == (fig.env == "mpich" ? 2e9 : 1e9));
    }
  }
}

TEST_CASE("check: one environment's weaker link matrix regresses that environment only") {
  Fixture f;
  fill(f);
  const auto made = query::reference_of(f.store, "sel", query::parse_tolerance("5%", "", "t"));
  auto reference = query::parse_reference(query::to_toml(made), "refs.toml");
  f.store.start_run(f.points[0].sweep_id, "2026-11-23T00:00:00Z", "{}");
  f.add_run(0, links_document(1e9));  // mpich's links at half their bandwidth
  f.add_run(1, links_document(1e9));
  f.add_run(2, io_document(5e8));
  f.add_run(3, io_document(4e8));
  f.store.choose_run(store::RunChoice::latest());
  const auto result = query::check_sweep(f.store, "sel", reference);
  CHECK(result.exit_code() == query::kExitRegressed);
  const auto& t = result.table;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const bool links =
        text(t, r, "figure").rfind("link", 0) == 0 || text(t, r, "figure") == "node_bandwidth";
    const bool regressed = links && text(t, r, "env") == "mpich";
    CHECK_MESSAGE((text(t, r, "verdict") == "regressed") == regressed,
                  (text(t, r, "figure") + " " + text(t, r, "env")));
  }
  CHECK(std::count(t.notes.begin(), t.notes.end(),
                   "regressed: links_bandwidth_median at 2 processes in env mpich") == 1);
  // --where env=openmpi, or figure=b_eff_io: what is left passes.
  auto openmpi = reference;
  query::select_figures(openmpi, query::parse_where({"env=openmpi"}));
  CHECK(query::check_sweep(f.store, "sel", openmpi).exit_code() == 0);
  auto io = reference;
  query::select_figures(io, query::parse_where({"figure=b_eff_io"}));
  CHECK(figures_in(io) == std::vector<std::string>{"b_eff_io/mpich/", "b_eff_io/openmpi/"});
  REQUIRE(io.definitions.size() == 2);
  CHECK(std::all_of(io.definitions.begin(), io.definitions.end(),
                    [](const auto& d) { return d.worker == "io"; }));
  CHECK(query::check_sweep(f.store, "sel", io).exit_code() == 0);
  auto one_link = reference;
  query::select_figures(one_link, query::parse_where({"label=a -> b", "env=mpich"}));
  CHECK(figures_in(one_link) == std::vector<std::string>{"link_bandwidth/mpich/a -> b"});
  CHECK(query::check_sweep(f.store, "sel", one_link).exit_code() == query::kExitRegressed);
}

TEST_CASE("check --where: a point missing in an environment left out is not counted") {
  Fixture f;
  fill(f);
  const auto reference =
      query::reference_of(f.store, "sel", query::parse_tolerance("50%", "", "t"));
  f.store.start_run(f.points[0].sweep_id, "2026-11-23T00:00:00Z", "{}");
  f.add_run(0, links_document(2e9));
  f.add_run(2, io_document(5e8));
  f.add_run(3, io_document(4e8));  // Open MPI's links point has no result in run 2
  f.store.choose_run(store::RunChoice::latest());
  CHECK(query::check_sweep(f.store, "sel", reference).exit_code() == query::kExitMissing);
  auto mpich = reference;
  query::select_figures(mpich, query::parse_where({"env=mpich"}));
  const auto result = query::check_sweep(f.store, "sel", mpich);
  CHECK(result.missing_points == 0);
  CHECK(result.exit_code() == 0);
}

TEST_CASE("--where on reference and check: the figures' keys, query's error for another") {
  Fixture f;
  fill(f);
  auto reference = query::reference_of(f.store, "sel", query::parse_tolerance("5%", "", "t"));
  const auto count = reference.figures.size();
  CHECK(error_of([&] { query::select_figures(reference, query::parse_where({"impl=linear"})); }) ==
        "--where: no column 'impl' in this table (columns: figure, env, partition, label)");
  // query's --where on a worker table: the same words.
  query::QueryTable table;
  table.columns = {{"sweep", "", "sweep", "", 1, 0}};
  CHECK(error_of([&] { query::filter_rows(table, query::parse_where({"impl=linear"})); }) ==
        "--where: no column 'impl' in this table (columns: sweep)");
  CHECK(error_of([&] { query::select_figures(reference, query::parse_where({"figure=b_eff"})); }) ==
        "--where figure=b_eff: no headline figure of sweep 'sel' matches (keys: figure, env, "
        "partition, label)");
  CHECK(reference.figures.size() == count);  // a selection refused leaves the reference whole
  CHECK(error_of([&] { query::parse_where({"env"}); }) == "--where 'env': expected key=value");
  // partition= as a number; the older spelling of a figure's name names it too.
  auto two = reference;
  query::select_figures(two, query::parse_where({"partition=2", "figure=links bandwidth_median"}));
  CHECK(figures_in(two) == std::vector<std::string>{"links_bandwidth_median/mpich/",
                                                    "links_bandwidth_median/openmpi/"});
}

TEST_CASE("--envs on history and query system: the one selection and its one error") {
  Fixture f;
  fill(f);
  auto h = query::history_table(f.store, "sel", std::nullopt, {});
  query::select_env_rows(h, "sel", {"openmpi"});
  REQUIRE_FALSE(h.rows.empty());
  for (std::size_t r = 0; r < h.rows.size(); ++r) CHECK(text(h, r, "env") == "openmpi");
  auto again = query::history_table(f.store, "sel", std::nullopt, {});
  CHECK(error_of([&] { query::select_env_rows(again, "sel", {"intel"}); }) ==
        "--envs: no figure of sweep 'sel' in environment 'intel' (its environments: mpich, "
        "openmpi)");
  // The reference's --envs says the same.
  auto reference = query::reference_of(f.store, "sel", query::parse_tolerance("5%", "", "t"));
  CHECK(error_of([&] { query::select_envs(reference, {"intel"}); }) ==
        "--envs: no figure of sweep 'sel' in environment 'intel' (its environments: mpich, "
        "openmpi)");
  // A sweep without environments has none to choose.
  f.add_sweep("plain", {{"io", 2}});
  f.add_run(0, io_document(3e8));
  auto plain = query::system_table(f.store, std::string("plain"), {});
  CHECK(error_of([&] { query::select_env_rows(plain, "plain", {"mpich"}); }) ==
        "--envs: no figure of sweep 'plain' in environment 'mpich' (it was not made with --envs)");
  // query system's figure=: that figure's rows only, in each environment.
  const auto one = query::system_table(f.store, std::string("sel"),
                                       query::parse_where({"figure=b_eff_io", "env=openmpi"}));
  std::vector<std::string> kept;
  for (std::size_t r = 0; r < one.rows.size(); ++r) {
    kept.push_back(text(one, r, "figure") + "/" + text(one, r, "env") + "/" +
                   (std::holds_alternative<double>(one.rows[r][query::column_index(one, "value")])
                        ? "value"
                        : "none"));
  }
  CHECK(kept == std::vector<std::string>{"b_eff_io/mpich/none", "b_eff_io/openmpi/value"});
}

TEST_CASE("io's system note names each environment") {
  Fixture f;
  fill(f);
  const auto t = query::io_table(f.store, std::string("sel"));
  std::vector<std::string> notes;
  for (const auto& n : t.notes) {
    if (n.rfind("system b_eff_io of sweep sel", 0) == 0) notes.push_back(n);
  }
  CHECK(notes == std::vector<std::string>{
                     "system b_eff_io of sweep sel, environment mpich (T 60 s, hints -): " +
                         query::megabytes(5e8) + " at partition 2",
                     "system b_eff_io of sweep sel, environment openmpi (T 60 s, hints -): " +
                         query::megabytes(4e8) + " at partition 2"});
}
