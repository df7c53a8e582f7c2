// A sweep's environments (issue 28, --envs): the store's views carry the point parameter env,
// the worker tables get a column env only when a sweep has environments, --where env= and
// --by env work on it, and query compare sets one environment against another.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "query/BcastQuery.hpp"
#include "query/CommQuery.hpp"
#include "query/CompareQuery.hpp"
#include "query/IoQuery.hpp"
#include "query/LogpQuery.hpp"
#include "query/RowGrouping.hpp"
#include "query/WhereFilter.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::testing;

namespace {

std::size_t column_of(const query::QueryTable& t, const std::string& key) {
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c].key == key) return c;
  }
  return t.columns.size();
}

std::vector<std::string> texts(const query::QueryTable& t, const std::string& key) {
  const std::size_t c = column_of(t, key);
  std::vector<std::string> out;
  for (const auto& row : t.rows) {
    const auto* text = std::get_if<std::string>(&row.at(c));
    out.push_back(text ? *text : "(none)");
  }
  return out;
}

// A sweep "envs" over two environments: logp, comm, io and bcast on 2 processes in each, the
// Open MPI side slower; and a sweep "plain" without environments.
void fill(Fixture& f) {
  const std::string mpich = R"({"env":"mpich"})", ompi = R"({"env":"openmpi"})";
  f.add_sweep("envs", {{"comm", 2, mpich},
                       {"comm", 2, ompi},
                       {"logp", 2, mpich},
                       {"logp", 2, ompi},
                       {"bcast", 2, mpich},
                       {"bcast", 2, ompi},
                       {"io", 2, mpich},
                       {"io", 2, ompi}});
  f.add_run(0, document("comm", 2, nlohmann::json::array({metric("b_eff", 2e9, "B/s")}), true));
  f.add_run(1, document("comm", 2, nlohmann::json::array({metric("b_eff", 1e9, "B/s")}), true));
  f.add_run(
      2, document("logp", 2, nlohmann::json::array({metric("g", 2e-6, "s", {{"queue_depth", 1}})}),
                  true));
  f.add_run(
      3, document("logp", 2, nlohmann::json::array({metric("g", 3e-6, "s", {{"queue_depth", 1}})}),
                  true));
  f.add_run(4, document("bcast", 2, nlohmann::json::array({metric("ol", 1e-6, "s", {{"size", 8}})}),
                        true));
  f.add_run(5, document("bcast", 2, nlohmann::json::array({metric("ol", 4e-6, "s", {{"size", 8}})}),
                        true));
  const nlohmann::json p = {{"partition", 2}};
  f.add_run(
      6, document("io", 2, {metric("b_eff_io", 5e8, "B/s", p), metric("schedule_time", 60, "s", p)},
                  true));
  f.add_run(
      7, document("io", 2, {metric("b_eff_io", 4e8, "B/s", p), metric("schedule_time", 60, "s", p)},
                  true));
  f.add_sweep("plain", {{"comm", 2}});
  f.add_run(0, document("comm", 2, nlohmann::json::array({metric("b_eff", 3e9, "B/s")}), true));
}

}  // namespace

TEST_CASE("the views carry env: the point parameter of a sweep made with --envs, else NULL") {
  Fixture f;
  fill(f);
  auto s = f.store.db().prepare(
      "SELECT sweep, worker, env FROM run_results ORDER BY sweep, worker, point_id");
  std::vector<std::string> rows;
  while (s.step()) {
    rows.push_back(s.text(0) + " " + s.text(1) + " " + s.optional_text(2).value_or("NULL"));
  }
  CHECK(rows == std::vector<std::string>{"envs bcast mpich", "envs bcast openmpi",
                                         "envs comm mpich", "envs comm openmpi", "envs io mpich",
                                         "envs io openmpi", "envs logp mpich", "envs logp openmpi",
                                         "plain comm NULL"});
  for (const char* view :
       {"logp_table", "bcast_table", "comm_table", "io_table", "metric_values"}) {
    auto v = f.store.db().prepare(std::string("SELECT count(*), count(DISTINCT env) FROM ") + view +
                                  " WHERE sweep = 'envs'");
    REQUIRE(v.step());
    CHECK_MESSAGE(v.int64(1) == 2, view);
  }
}

TEST_CASE("the worker tables: a column env for a sweep with environments, --where env, --by env") {
  Fixture f;
  fill(f);
  for (auto table : {query::logp_table, query::comm_table, query::io_table, query::bcast_table}) {
    auto t = table(f.store, std::string("envs"));
    REQUIRE(column_of(t, "env") == 1);  // right after the sweep
    for (const auto& row : t.rows) REQUIRE(row.size() == t.columns.size());
    auto envs = texts(t, "env");
    CHECK(std::count(envs.begin(), envs.end(), "mpich") >= 1);
    CHECK(std::count(envs.begin(), envs.end(), "openmpi") >= 1);
    query::filter_rows(t, query::parse_where({"env=openmpi"}));
    envs = texts(t, "env");
    REQUIRE_FALSE(envs.empty());
    CHECK(std::all_of(envs.begin(), envs.end(), [](const auto& e) { return e == "openmpi"; }));
  }
  // --by env: the rows of one environment together, in name order.
  auto logp = query::logp_table(f.store, std::string("envs"));
  query::group_rows(logp, "env");
  CHECK(texts(logp, "env") == std::vector<std::string>{"mpich", "openmpi"});
  // A sweep without environments keeps its columns: --where env and --by env say it has none.
  auto plain = query::comm_table(f.store, std::string("plain"));
  CHECK(column_of(plain, "env") == plain.columns.size());
  CHECK_THROWS_AS(query::filter_rows(plain, query::parse_where({"env=mpich"})), UsageError);
  CHECK_THROWS_AS(query::group_rows(plain, "env"), UsageError);
}

TEST_CASE("query compare --envs: one environment of a sweep against another") {
  Fixture f;
  fill(f);
  const query::CompareSide a{"envs", std::string("mpich")}, b{"envs", std::string("openmpi")};
  CHECK(a.label() == "envs env=mpich");
  const auto t = query::compare_table(f.store, a, b, {});
  CHECK(t.columns[3].title == "envs env=mpich");
  CHECK(t.columns[7].title == "envs env=openmpi");
  const auto row = [&](const std::string& figure) -> const std::vector<query::Cell>& {
    for (const auto& r : t.rows) {
      if (std::get<std::string>(r[0]) == figure) return r;
    }
    FAIL("no row " << figure);
    return t.rows.front();
  };
  CHECK(std::get<double>(row("b_eff")[3]) == doctest::Approx(2e9));
  CHECK(std::get<double>(row("b_eff")[7]) == doctest::Approx(1e9));
  CHECK(std::get<double>(row("b_eff")[11]) == doctest::Approx(0.5));
  CHECK(std::get<double>(row("logp_g")[11]) == doctest::Approx(1.5));
  CHECK(std::get<double>(row("bcast_ol")[11]) == doctest::Approx(4.0));
  CHECK(std::get<double>(row("b_eff_io")[11]) == doctest::Approx(0.8));
  // An environment the sweep has no point of, or a sweep without environments: named.
  const auto error = [&](const query::CompareSide& x) -> std::string {
    try {
      query::compare_table(f.store, a, x, {});
    } catch (const UsageError& e) {
      return e.what();
    }
    return "(no error)";
  };
  CHECK(error({"envs", std::string("intel")}) ==
        "sweep 'envs' has no environment 'intel' (its environments: mpich, openmpi)");
  CHECK(error({"plain", std::string("mpich")}) ==
        "sweep 'plain' has no environment 'mpich' (it was not made with --envs)");
}
