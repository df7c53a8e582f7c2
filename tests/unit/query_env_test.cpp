// A sweep's environments (issue 28, --envs): the store's views carry the point parameter env,
// the worker tables get a column env only when a sweep has environments, --where env= and
// --by env work on it, and query compare sets one environment against another. The environment
// is a key of every headline (issue 39): query system, history, reference and check give a row
// per environment, and check calls a run under other settings a changed definition.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "query/BcastQuery.hpp"
#include "query/CommQuery.hpp"
#include "query/CompareQuery.hpp"
#include "query/HistoryQuery.hpp"
#include "query/IoQuery.hpp"
#include "query/LogpQuery.hpp"
#include "query/CheckResult.hpp"
#include "query/Reference.hpp"
#include "query/ReferenceFile.hpp"
#include "query/RowGrouping.hpp"
#include "query/SystemQuery.hpp"
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

namespace {

// A bcast sweep "gate" over two environments, run twice: OL 1 us (mpich) and 2 us (openmpi) in
// run 1; in run 2 mpich's OL is `mpich_ol` and its broadcast implementation `impl`.
void fill_gate(Fixture& f, double mpich_ol, const std::string& impl) {
  f.add_sweep("gate", {{"bcast", 2, R"({"env":"mpich"})"}, {"bcast", 2, R"({"env":"openmpi"})"}});
  const auto run = [&](std::size_t point, double ol, const std::string& implementation) {
    const nlohmann::json parameters = {{"impl", setting(implementation)},
                                       {"output", setting("/runs/" + std::to_string(ol))},
                                       {"hop_delay_us", setting(ol * 1e6)}};
    f.add_run(point,
              document("bcast", 2, nlohmann::json::array({metric("ol", ol, "s", {{"size", 8}})}),
                       true, parameters));
  };
  run(0, 1e-6, "binomial");
  run(1, 2e-6, "binomial");
  f.store.start_run(f.points[0].sweep_id, "2026-11-23T00:00:00Z", "{}");
  run(0, mpich_ol, impl);
  run(1, 2e-6, "binomial");
  f.store.choose_run(store::RunChoice::latest());
}

std::string cell_text(const query::QueryTable& t, std::size_t row, const std::string& key) {
  const auto* text = std::get_if<std::string>(&t.rows.at(row).at(query::column_index(t, key)));
  return text ? *text : "(none)";
}

// The reference of run 1 of "gate", written and read back.
query::Reference gate_reference(Fixture& f) {
  f.store.choose_run(store::RunChoice::number(1));
  const auto made = query::reference_of(f.store, "gate", query::parse_tolerance("10%", "", "t"));
  f.store.choose_run(store::RunChoice::latest());
  return query::parse_reference(query::to_toml(made), "refs.toml");
}

}  // namespace

TEST_CASE("query system and history: a row of each headline figure per environment") {
  Fixture f;
  fill(f);
  const auto t = query::system_table(f.store, std::string("envs"), {});
  REQUIRE(query::column_index(t, "env") == 1);
  std::vector<std::string> ol;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (cell_text(t, r, "figure") == "bcast_ol") ol.push_back(cell_text(t, r, "env"));
  }
  CHECK(ol == std::vector<std::string>{"mpich", "openmpi"});
  // Each environment's own winner: Open MPI's slower b_eff is its own figure, not hidden.
  std::map<std::string, double> b_eff;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (cell_text(t, r, "figure") == "b_eff") {
      b_eff[cell_text(t, r, "env")] = std::get<double>(t.rows[r][query::column_index(t, "value")]);
    }
  }
  CHECK(b_eff == std::map<std::string, double>{{"mpich", 2e9}, {"openmpi", 1e9}});
  // --where env= picks one; the kept answers (headline_answers) say the same as the view.
  const auto one =
      query::system_table(f.store, std::string("envs"), query::parse_where({"env=openmpi"}));
  for (std::size_t r = 0; r < one.rows.size(); ++r) {
    if (std::holds_alternative<double>(one.rows[r][query::column_index(one, "value")])) {
      CHECK(cell_text(one, r, "env") == "openmpi");
    }
  }
  f.store.answer_headlines();
  const auto kept = query::system_table(f.store, std::string("envs"), {});
  CHECK(kept.rows == t.rows);
  // A sweep without environments keeps its columns.
  const auto plain = query::system_table(f.store, std::string("plain"), {});
  CHECK_FALSE(query::find_column(plain, "env").has_value());
  // history: the environment beside each figure.
  const auto h = query::history_table(f.store, "envs", std::string("b_eff"), {});
  REQUIRE(h.rows.size() == 2);
  CHECK(cell_text(h, 0, "env") == "mpich");
  CHECK(cell_text(h, 1, "env") == "openmpi");
  const auto stats = query::history_stats(h);
  CHECK(stats.rows.size() == 2);
  CHECK_FALSE(query::find_column(query::history_table(f.store, "plain", std::nullopt, {}), "env")
                  .has_value());
}

TEST_CASE("check: a regression in one environment regresses, whatever the other does") {
  Fixture f;
  fill_gate(f, 3e-6, "binomial");
  const auto reference = gate_reference(f);
  REQUIRE(reference.figures.size() == 2);
  CHECK(reference.figures[0].env == "mpich");
  CHECK(reference.figures[1].env == "openmpi");
  const auto result = query::check_sweep(f.store, "gate", reference);
  const auto& t = result.table;
  REQUIRE(query::column_index(t, "env") == 1);
  REQUIRE(t.rows.size() == 2);
  CHECK(cell_text(t, 0, "env") == "mpich");
  CHECK(cell_text(t, 0, "verdict") == "regressed");
  CHECK(cell_text(t, 1, "verdict") == "pass");
  CHECK(result.exit_code() == query::kExitRegressed);
  CHECK(std::count(t.notes.begin(), t.notes.end(),
                   "regressed: bcast_ol at 2 processes in env mpich") == 1);
  CHECK(std::any_of(t.notes.begin(), t.notes.end(), [](const std::string& n) {
    return n == "scored: sweep gate run 2, started 2026-11-23T00:00:00Z";
  }));
  // One environment alone.
  auto openmpi = reference;
  query::select_envs(openmpi, {"openmpi"});
  CHECK(query::check_sweep(f.store, "gate", openmpi).exit_code() == 0);
  CHECK_THROWS_WITH_AS(query::select_envs(openmpi, {"intel"}),
                       "--envs: no figure of sweep 'gate' in environment 'intel' (its "
                       "environments: openmpi)",
                       UsageError);
}

TEST_CASE("check: a changed definition is its own verdict, naming the settings that differ") {
  Fixture f;
  fill_gate(f, 1e-6, "linear");  // mpich's value as before, under another implementation
  const auto reference = gate_reference(f);
  // The reference records the settings (not the output path, nor the synthetic hop delay).
  REQUIRE(reference.definitions.size() == 2);
  CHECK(reference.definitions[0].env == "mpich");
  CHECK(reference.definitions[0].settings.count("impl") == 1);
  CHECK(reference.definitions[0].settings.count("output") == 0);
  CHECK(reference.definitions[0].settings.count("hop_delay_us") == 0);
  const auto result = query::check_sweep(f.store, "gate", reference);
  CHECK(cell_text(result.table, 0, "verdict") == "changed definition");
  CHECK(cell_text(result.table, 1, "verdict") == "pass");
  CHECK(result.exit_code() == query::kExitChangedDefinition);
  CHECK(std::count(result.table.notes.begin(), result.table.notes.end(),
                   "changed definition: bcast in env mpich ran under other settings than the "
                   "reference: impl = \"linear\" (the reference: \"binomial\"). Its figures are "
                   "not the reference's (verdict 'changed definition', exit 13): make a "
                   "reference of the new definition, or run the old one") == 1);
  // A file of an older pbench (no [[definition]]): the store's runs of the reference say it.
  auto older = reference;
  older.definitions.clear();
  CHECK(query::check_sweep(f.store, "gate", older).exit_code() == query::kExitChangedDefinition);
  // A regression beside it wins the exit code.
  CHECK(query::changed_settings(reference.definitions[1], reference.definitions[1]).empty());
}

TEST_CASE("reference: the figure's one name, the environment, and an older file still read") {
  Fixture f;
  fill_gate(f, 1e-6, "binomial");
  const auto text = query::to_toml(gate_reference(f));
  CHECK(text.find("figure = 'bcast_ol'") != std::string::npos);
  CHECK(text.find("metric =") == std::string::npos);
  CHECK(text.find("env = 'mpich'") != std::string::npos);
  const std::string head = "sweep = \"a\"\nrun = 1\ntolerance = \"5%\"\n[[figure]]\n";
  const auto older = query::parse_reference(
      head + "worker = \"logp\"\nmetric = \"EEL\"\npartition = 2\nvalue = 1e-6\nunit = \"s\"\n",
      "old.toml");
  CHECK(older.figures.at(0).figure() == "logp_EEL");
  const auto newer = query::parse_reference(
      head + "figure = \"logp_EEL\"\npartition = 2\nvalue = 1e-6\nunit = \"s\"\n", "new.toml");
  CHECK(newer.figures.at(0).worker == "logp");
  CHECK(newer.figures.at(0).metric == "EEL");
  CHECK_THROWS_WITH_AS(
      query::parse_reference(head + "figure = \"logp_eel_min\"\npartition = 2\nvalue = 1e-6\n"
                                    "unit = \"s\"\n",
                             "bad.toml"),
      doctest::Contains("reference 'bad.toml', figure 1: unknown figure 'logp_eel_min' (known: "
                        "b_eff_io, b_eff, b_eff_per_process, logp_g"),
      UsageError);
  CHECK_THROWS_WITH_AS(
      query::parse_reference(head + "figure = \"logp_EEL\"\nworker = \"logp\"\nmetric = \"EEL\"\n"
                                    "partition = 2\nvalue = 1e-6\nunit = \"s\"\n",
                             "bad.toml"),
      "reference 'bad.toml', figure 1: give figure, or worker and metric (an older file), not "
      "both",
      UsageError);
}

TEST_CASE("a band that cannot fail is named: above the ceiling, or a lower limit at zero") {
  query::Reference r;
  r.sweep = "s";
  r.tolerance = query::parse_tolerance("5%", "", "t");
  r.figures.push_back({"bcast", "ol", 2, 1e-6, "s", std::nullopt, true});
  CHECK(query::wide_bands(r).empty());
  r.figures[0].tolerance = query::parse_tolerance("60%", "s", "t");
  CHECK(query::wide_bands(r) ==
        std::vector<std::string>{"bcast_ol at 2 processes: a band that cannot fail (0.4 us to "
                                 "1.6 us around 1 us): tolerance 60% is above the ceiling of 50%"});
  r.figures[0].tolerance = query::parse_tolerance("1.5 us", "s", "t");
  const auto bands = query::wide_bands(r);
  REQUIRE(bands.size() == 1);
  CHECK(bands[0] ==
        "bcast_ol at 2 processes: a band that cannot fail (-0.5 us to 2.5 us around "
        "1 us): its lower limit -0.5 us is at or below zero, which bcast_ol cannot be");
  // L may be negative: only the ceiling holds it.
  r.figures[0] = {"logp", "L", 2, 1e-7, "s", query::parse_tolerance("1.5 us", "s", "t"), true};
  CHECK(query::wide_bands(r).empty());
  // --tolerance auto writes percentages without e-notation.
  query::FigureSpread noisy;
  noisy.n = 4;
  noisy.median = 1;
  noisy.mad = 2.5;
  CHECK(query::auto_tolerance(noisy).text == "1112%");
}
