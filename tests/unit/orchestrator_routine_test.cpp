// A centre's routine (issue 16): the runs of a sweep and the queries that choose one, reference
// values and the check gate with its verdicts and exit codes, and the export formats' escaping.
#include <doctest/doctest.h>

#include <map>

#include "common/MetricCatalogue.hpp"
#include "ingest/Ingester.hpp"
#include "query/HistoryQuery.hpp"
#include "query/MetricExport.hpp"
#include "query/CheckResult.hpp"
#include "query/Reference.hpp"
#include "query/ReferenceFile.hpp"
#include "query/RunSelection.hpp"
#include "query/SystemQuery.hpp"
#include "store/Store.hpp"
#include "support/ResultFixtures.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::store;

namespace {

// A logp sweep with one point at partition 2 and `runs` runs, run i with g = g_of_run[i].
struct RoutineStore {
  Store store = Store::open_in_memory();
  SweepRecord sweep;
  PointRecord point;

  explicit RoutineStore(const std::vector<double>& g_of_run) {
    std::vector<PointRecord> points(1);
    points[0].key = "p2";
    points[0].worker = "logp";
    points[0].partition = 2;
    points[0].params_json = R"({"queue_depth": 8})";
    points[0].script_path = "/nonexistent/job.sh";
    sweep = store.insert_sweep(
        {0, "nightly", "{}", "local", "/nonexistent", "2026-11-22T00:00:00.000Z"}, points);
    point = points[0];
    for (std::size_t i = 0; i < g_of_run.size(); ++i) {
      if (i > 0)
        store.start_run(sweep.id, "2026-11-2" + std::to_string(2 + i) + "T00:00:00Z", "{}");
      AttemptRecord a;
      a.point_id = point.id;
      a = store.add_attempt(a);
      CHECK(a.run_no == static_cast<int>(i + 1));
      ingest::Ingester ingester(store);
      // Distinct documents (a document is stored once), each starting before the fixture's end.
      const auto doc = testing::logp_document(2, 8, 1e-6, g_of_run[i], 1e-9,
                                              "2026-11-22T07:0" + std::to_string(i) + ":00.000Z");
      ingester.ingest_text(doc.dump(), "run" + std::to_string(i + 1) + ".json", point.id, a.id);
    }
  }
};

// The value of figure `name` in query system's table.
double figure_value(const query::QueryTable& table, const std::string& name) {
  for (const auto& row : table.rows) {
    if (std::get<std::string>(row[1]) == name) return std::get<double>(row[2]);
  }
  FAIL("no figure " << name);
  return 0;
}

// The verdict of figure `name` in a check table.
std::string verdict(const query::CheckResult& result, const std::string& name) {
  std::size_t at = 0;
  while (at < result.table.columns.size() && result.table.columns[at].key != "verdict") ++at;
  REQUIRE(at < result.table.columns.size());
  for (const auto& row : result.table.rows) {
    if (std::get<std::string>(row[0]) == name) return std::get<std::string>(row[at]);
  }
  return "(no row)";
}

}  // namespace

TEST_CASE("a sweep's runs: attempts and results belong to the latest run, queries choose one") {
  RoutineStore s({2e-7, 3e-7, 4e-7});
  const auto runs = s.store.runs(s.sweep.id);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].run_no == 1);
  CHECK(runs[2].run_no == 3);
  // By default the latest run; a chosen one on request.
  CHECK(figure_value(query::system_table(s.store, "nightly", {}), "logp_g") == 4e-7);
  s.store.choose_run(RunChoice::number(1));
  CHECK(figure_value(query::system_table(s.store, "nightly", {}), "logp_g") == 2e-7);
  s.store.choose_run(RunChoice::latest());
  // --run all: each run's rows with a first column `run`.
  const auto all =
      query::table_for_runs(s.store, std::string("nightly"), query::parse_run_selection("all"),
                            [&] { return query::system_table(s.store, "nightly", {}); });
  CHECK(all.columns.front().key == "run");
  std::vector<std::int64_t> run_of_g;
  for (const auto& row : all.rows) {
    if (std::get<std::string>(row[2]) == "logp_g")
      run_of_g.push_back(std::get<std::int64_t>(row[0]));
  }
  CHECK(run_of_g == std::vector<std::int64_t>{1, 2, 3});
  // The history: one row per run, in order, with the run's time.
  const auto history = query::history_table(s.store, "nightly", std::string("logp_g"), {});
  REQUIRE(history.rows.size() == 3);
  CHECK(std::get<std::int64_t>(history.rows[0][1]) == 1);
  CHECK(std::get<std::string>(history.rows[0][0]) == "2026-11-22T00:00:00.000Z");
  CHECK(std::get<double>(history.rows[2][4]) == 4e-7);
  CHECK_THROWS_WITH_AS(query::history_table(s.store, "nightly", std::string("b_eff"), {}),
                       "sweep 'nightly' has no figure 'b_eff' (it has: logp_EEL, logp_G, logp_L, "
                       "logp_bandwidth_at_max_size, logp_g, logp_o_r, logp_o_s)",
                       UsageError);
}

TEST_CASE("--run takes a run number from 1, latest or all, a run the sweep lacks is refused") {
  CHECK(query::parse_run_selection("latest").kind == query::RunSelection::Kind::latest);
  CHECK(query::parse_run_selection("2").number == 2);
  CHECK_THROWS_WITH_AS(query::parse_run_selection("0"), "--run 0: runs are numbered from 1",
                       UsageError);
  CHECK_THROWS_WITH_AS(query::parse_run_selection("2x"),
                       "--run '2x': give a run number, latest or all", UsageError);
  CHECK_THROWS_AS(query::parse_run_selection(""), UsageError);
  RoutineStore s({2e-7, 3e-7});
  CHECK_THROWS_WITH_AS(
      query::table_for_runs(s.store, std::string("nightly"), query::parse_run_selection("99"),
                            [] { return query::QueryTable{}; }),
      "--run 99: sweep 'nightly' has runs 1 to 2", UsageError);
}

TEST_CASE("one direction table, the metric catalogue: bandwidths up, latencies, gaps down") {
  using metrics::Better;
  CHECK(metrics::find_figure("b_eff")->better == Better::higher);
  CHECK(metrics::find_figure("b_eff_io")->better == Better::higher);
  CHECK(metrics::find_figure("logp_g")->better == Better::lower);
  CHECK(metrics::find_metric("logp", "o_s")->better == Better::lower);
  CHECK(metrics::find_figure("bcast_ol")->better == Better::lower);
  CHECK(metrics::find_metric("io", "schedule_time")->better == Better::neither);
  CHECK(metrics::find_figure("schedule_time") == nullptr);
  int headlines = 0;
  for (const auto& m : metrics::catalogue()) {
    if (m.headline == metrics::Headline::no) continue;
    ++headlines;
    CHECK_MESSAGE(m.better != Better::neither, m.name);
    CHECK_MESSAGE(metrics::find_figure(m.figure) != nullptr, m.name);
  }
  CHECK(headlines == 15);  // twelve figures, the legacy name of one, two per-label (links)
  // The older spelling with a space names the same figure.
  CHECK(metrics::find_figure("logp g") == metrics::find_figure("logp_g"));
  CHECK(metrics::figure_spelling("bcast ol") == "bcast_ol");
}

TEST_CASE("tolerances: a percentage or an amount in a unit of the figure, bad ones named") {
  CHECK(query::parse_tolerance("5%", "s", "t").allowed(2.0) == doctest::Approx(0.1));
  CHECK(query::parse_tolerance("0.2 us", "s", "t").allowed(1.0) == doctest::Approx(2e-7));
  CHECK(query::parse_tolerance("50 MB/s", "B/s", "t").allowed(1.0) == doctest::Approx(5e7));
  CHECK_THROWS_WITH_AS(query::parse_tolerance("%", "s", "figure 1"),
                       "figure 1: tolerance '%' has no number (give a percentage like \"5%\" or "
                       "an amount with a unit like \"0.2 us\")",
                       UsageError);
  CHECK_THROWS_AS(query::parse_tolerance("5", "s", "t"), UsageError);
  CHECK_THROWS_AS(query::parse_tolerance("5 MB/s", "s", "t"), UsageError);
  CHECK_THROWS_AS(query::parse_tolerance("-5%", "s", "t"), UsageError);
}

TEST_CASE("reference and check: pass, regressed, improved, missing and not valid") {
  RoutineStore s({2e-7, 3e-7, 1e-7});
  s.store.choose_run(RunChoice::number(1));
  auto reference = query::reference_of(s.store, "nightly", query::parse_tolerance("5%", "", "t"));
  CHECK(reference.run == 1);
  // Written and read back: the same figures.
  const auto parsed = query::parse_reference(query::to_toml(reference), "refs.toml");
  REQUIRE(parsed.figures.size() == reference.figures.size());
  CHECK(parsed.figures.size() == 6);  // logp_g, G; EEL, o_s, o_r, L at partition 2
  CHECK(parsed.sweep == "nightly");

  // Run 1 is the reference's own: refused unless asked (it passes by construction).
  CHECK_THROWS_WITH_AS(query::check_sweep(s.store, "nightly", parsed),
                       doctest::Contains("run 1 of sweep 'nightly' is one of the reference's own "
                                         "(sweep nightly run 1"),
                       UsageError);
  const query::CheckOptions own{false, true};
  auto same = query::check_sweep(s.store, "nightly", parsed, own);
  CHECK(same.passed == 6);
  CHECK(same.exit_code() == 0);

  s.store.choose_run(RunChoice::number(2));  // g 50% higher: worse
  auto worse = query::check_sweep(s.store, "nightly", parsed);
  CHECK(verdict(worse, "logp_g") == "regressed");
  CHECK(verdict(worse, "logp_o_s") == "pass");
  CHECK(worse.exit_code() == query::kExitRegressed);

  s.store.choose_run(RunChoice::number(3));  // g halved: better beyond the tolerance
  auto better = query::check_sweep(s.store, "nightly", parsed);
  CHECK(verdict(better, "logp_g") == "improved");
  CHECK(better.exit_code() == 0);

  // A per-figure absolute tolerance wide enough lets run 2 pass.
  auto wide = parsed;
  for (auto& f : wide.figures) {
    if (f.metric == "g") f.tolerance = query::parse_tolerance("0.2 us", "s", "t");
  }
  s.store.choose_run(RunChoice::number(2));
  CHECK(verdict(query::check_sweep(s.store, "nightly", wide), "logp_g") == "pass");

  // A figure the sweep does not have is missing.
  auto more = parsed;
  more.figures.push_back({"bcast", "ol", 7, 1e-6, "s", std::nullopt, true});
  auto missing = query::check_sweep(s.store, "nightly", more);
  CHECK(verdict(missing, "bcast_ol") == "missing");
  CHECK(missing.exit_code() == query::kExitRegressed);  // g regressed too: that one wins
  s.store.choose_run(RunChoice::number(1));
  CHECK(query::check_sweep(s.store, "nightly", more, own).exit_code() == query::kExitMissing);

  // A result that is not valid never passes, even with the reference's own value.
  s.store.db().exec("UPDATE results SET valid = 0");
  auto invalid = query::check_sweep(s.store, "nightly", parsed, own);
  CHECK(verdict(invalid, "logp_g") == "not valid");
  CHECK(invalid.passed == 0);
  CHECK(invalid.exit_code() == query::kExitNotValid);
}

TEST_CASE("check: not valid as referenced (the same reason, numbers aside) fails only --strict") {
  CHECK(query::reason_kind("size 8 B: OL (task 1) = -0.0323 us is not positive") ==
        "size # B: OL (task #) = # us is not positive");
  CHECK(query::reason_kind("eel_runs 2 < 10, 1.5e-07 s, x86_64") == "eel_runs # < #, # s, x#_#");
  RoutineStore s({2e-7, 3e-7, 2.02e-7});
  const auto not_valid = [&](int run, const std::string& reason) {
    auto u = s.store.db().prepare(
        "UPDATE results SET valid = 0, head = json_set(head, '$.validity.reasons', "
        "json_array(?1)) WHERE attempt_id IN (SELECT id FROM attempts WHERE run_no = ?2)");
    u.bind(1, reason).bind(2, run).run();
  };
  not_valid(1, "OL (task 1) = -0.0323 us is not positive");
  not_valid(2, "OL (task 1) = -0.07 us is not positive");
  not_valid(3, "eel_runs 2 < 10");
  s.store.choose_run(RunChoice::number(1));
  const auto reference =
      query::parse_reference(query::to_toml(query::reference_of(
                                 s.store, "nightly", query::parse_tolerance("5%", "", "t"))),
                             "refs.toml");
  REQUIRE(!reference.figures.empty());
  CHECK(!reference.figures[0].valid);
  CHECK(reference.figures[0].reason == "OL (task 1) = -0.0323 us is not positive");
  // The same run: as referenced, exit 0; with --strict, 11.
  const auto same = query::check_sweep(s.store, "nightly", reference, {false, true});
  CHECK(verdict(same, "logp_o_s") == "not valid (as referenced)");
  CHECK(same.exit_code() == 0);
  CHECK(query::check_sweep(s.store, "nightly", reference, {true, true}).exit_code() ==
        query::kExitNotValid);
  // Run 2: the same kind of reason, but g 50% worse: regressed all the same.
  s.store.choose_run(RunChoice::number(2));
  const auto worse = query::check_sweep(s.store, "nightly", reference);
  CHECK(verdict(worse, "logp_g") == "regressed");
  CHECK(verdict(worse, "logp_o_s") == "not valid (as referenced)");
  CHECK(worse.exit_code() == query::kExitRegressed);
  // Run 3: another reason, within the band: not valid, which fails the gate.
  s.store.choose_run(RunChoice::number(3));
  const auto other = query::check_sweep(s.store, "nightly", reference);
  CHECK(verdict(other, "logp_g") == "not valid");
  CHECK(other.exit_code() == query::kExitNotValid);
}

TEST_CASE("a reference file that is not TOML or names an unknown worker or metric is refused") {
  CHECK_THROWS_WITH_AS(query::parse_reference("figure = [", "refs.toml"),
                       doctest::Contains("reference 'refs.toml' is not TOML (line 1"), UsageError);
  const std::string head = "sweep = \"a\"\nrun = 1\ntolerance = \"5%\"\n[[figure]]\n";
  CHECK_THROWS_WITH_AS(
      query::parse_reference(head + "worker = \"lo\\\"gp{}\\n\"\nmetric = \"g\"\npartition = 2\n"
                                    "value = 1e-6\nunit = \"s\"\n",
                             "refs.toml"),
      "reference 'refs.toml', figure 1: unknown worker 'lo\"gp{} ' (known: io, comm, logp, "
      "bcast, links)",
      UsageError);
  CHECK_THROWS_WITH_AS(
      query::parse_reference(head + "worker = \"logp\"\nmetric = \"gap\"\npartition = 2\n"
                                    "value = 1e-6\nunit = \"s\"\n",
                             "refs.toml"),
      "reference 'refs.toml', figure 1: worker 'logp' has no headline metric 'gap' (known: g, "
      "G, bandwidth_at_max_size, EEL, o_s, o_r, L)",
      UsageError);
  CHECK_THROWS_WITH_AS(
      query::parse_reference(head + "worker = \"logp\"\nmetric = \"g\"\npartition = 2\n"
                                    "value = 1e-6\nunit = \"s\"\ntolerance = \"us\"\n",
                             "refs.toml"),
      doctest::Contains("tolerance 'us' has no number"), UsageError);
  CHECK_THROWS_WITH_AS(query::parse_reference("sweep = \"a\"\nrun = 1\n", "refs.toml"),
                       "reference 'refs.toml' has no [[figure]] entries", UsageError);
  // Not UTF-8: toml++ refuses it as not TOML.
  CHECK_THROWS_WITH_AS(query::parse_reference("sweep = \"a\xff\"\n", "refs.toml"),
                       doctest::Contains("is not TOML"), UsageError);
}

TEST_CASE("reference from runs: the spread of a figure and the tolerance auto derives from it") {
  const auto s = query::spread_of({1.0, 1.2, 0.9, 1.1, 1.0});
  CHECK(s.n == 5);
  CHECK(s.median == doctest::Approx(1.0));
  CHECK(s.mad == doctest::Approx(0.1));  // deviations 0, 0.2, 0.1, 0.1, 0
  CHECK(s.p5 == doctest::Approx(0.92));  // 0.9 + 0.2 x (1.0 - 0.9)
  CHECK(s.p95 == doctest::Approx(1.18));
  CHECK(s.sigma() == doctest::Approx(0.14826));
  // 3 x 0.14826 / 1.0 = 44.5%; a figure that never moved still gets the floor of 2%.
  CHECK(query::auto_tolerance(s).text == "44.5%");
  CHECK(query::auto_tolerance(s).allowed(1.0) == doctest::Approx(0.445));
  CHECK(query::auto_tolerance(query::spread_of({2.0, 2.0, 2.0})).text == "2%");
  CHECK(query::spread_of({3.0}).mad == 0);
}

TEST_CASE("reference from runs: --runs N takes the last N, A-B a range, others are refused") {
  CHECK(query::parse_run_range("3", 7) == std::pair<int, int>{5, 7});
  CHECK(query::parse_run_range("2-4", 7) == std::pair<int, int>{2, 4});
  CHECK(query::parse_run_range("7", 7) == std::pair<int, int>{1, 7});
  CHECK_THROWS_WITH_AS(query::parse_run_range("8", 7), "--runs 8: the sweep has 7 runs",
                       UsageError);
  CHECK_THROWS_WITH_AS(query::parse_run_range("3-9", 7), "--runs 3-9: the sweep has runs 1 to 7",
                       UsageError);
  CHECK_THROWS_WITH_AS(query::parse_run_range("4-2", 7),
                       "--runs 4-2: the range ends before it starts", UsageError);
  for (const char* bad : {"", "0", "x", "-3", "2-", "1-2-3", "1.5"}) {
    CHECK_THROWS_AS(query::parse_run_range(bad, 7), UsageError);
  }
}

TEST_CASE("export: every metric of the catalogue gets a family promtool accepts, each its own") {
  std::map<std::string, std::string> families;  // family -> worker/metric
  for (const auto& spec : metrics::catalogue()) {
    query::ExportSample sample;
    sample.worker = std::string(spec.worker);
    sample.metric = std::string(spec.name);
    sample.unit = std::string(spec.unit);
    const std::string family = query::metric_family(sample);
    INFO(family);
    CHECK(query::abbreviated_units(family).empty());
    CHECK(family.find("_count") == std::string::npos);
    const std::string source = sample.worker + "/" + sample.metric;
    const auto [it, added] = families.emplace(family, source);
    CHECK((added || it->second == source));
    // A headline figure keeps its one name, in the label figure, in a family per unit.
    if (spec.figure.empty()) continue;
    query::ExportSample figure;
    figure.worker = sample.worker;
    figure.metric = figure.figure = std::string(spec.figure);
    figure.unit = sample.unit;
    const std::string headline = query::metric_family(figure);
    CHECK(query::abbreviated_units(headline).empty());
    CHECK(families.count(headline) == 0);
  }
  query::ExportSample sample;
  sample.worker = "comm";
  sample.metric = "b_eff";
  sample.unit = "B/s";
  CHECK(query::metric_family(sample) == "pbench_comm_effective_bandwidth_bytes_per_second");
  sample.worker = "logp";
  sample.metric = sample.figure = "logp_o_s";
  sample.unit = "s";
  CHECK(query::metric_family(sample) == "pbench_headline_seconds");
  sample.figure.clear();
  sample.worker = "io";
  sample.metric = "read_errors";
  sample.unit = "count";
  CHECK(query::metric_family(sample) == "pbench_io_read_errors");
  CHECK(query::abbreviated_units("pbench_logp_o_s_seconds") == std::vector<std::string>{"s"});
}

TEST_CASE("export: label values escaped as the exposition format requires, not UTF-8 refused") {
  query::ExportSample sample;
  sample.worker = "io";
  sample.metric = "b_eff_io";
  sample.unit = "B/s";
  sample.value = 1.5e9;
  sample.labels = {{"sweep", "s"}, {"hints", "a=\"b\"\n{c}\\d"}};
  CHECK(query::metric_family(sample) == "pbench_io_effective_io_bandwidth_bytes_per_second");
  const auto text = query::to_openmetrics({sample});
  CHECK(text.find("pbench_io_effective_io_bandwidth_bytes_per_second{sweep=\"s\",hints=\"a="
                  "\\\"b\\\"\\n{c}\\\\d\"} "
                  "1500000000\n") != std::string::npos);
  CHECK(text.find("# TYPE pbench_io_effective_io_bandwidth_bytes_per_second gauge\n") !=
        std::string::npos);
  sample.labels = {{"hints", "caf\xe9"}};
  CHECK_THROWS_WITH_AS(
      query::to_openmetrics({sample}),
      "label hints of pbench_io_effective_io_bandwidth_bytes_per_second is not UTF-8, which "
      "the exposition format cannot carry",
      UsageError);
  sample.labels = {{"hints", "caf\xc3\xa9"}};  // é in UTF-8 is fine
  CHECK_NOTHROW(query::to_openmetrics({sample}));
}

TEST_CASE("check counts a point the reference measured and the checked run has no result for") {
  // Two logp points (q = 1 and q = 8); run 1 has both results, run 2 only q = 1's, and q = 1's
  // g is the better one in both: the headline logp_g reads the same point, yet run 2 lacks one.
  Store store = Store::open_in_memory();
  std::vector<PointRecord> points(2);
  for (int i = 0; i < 2; ++i) {
    points[i].key = i == 0 ? "q1point" : "q8point";
    points[i].worker = "logp";
    points[i].partition = 2;
    points[i].params_json = i == 0 ? R"({"queue_depth": 1})" : R"({"queue_depth": 8})";
    points[i].script_path = "/nonexistent/job.sh";
  }
  const auto sweep = store.insert_sweep(
      {0, "nightly", "{}", "local", "/nonexistent", "2026-11-22T00:00:00.000Z"}, points);
  int documents = 0;
  const auto add = [&](std::size_t i, int queue_depth, double g) {
    AttemptRecord a;
    a.point_id = points[i].id;
    a = store.add_attempt(a);
    const auto doc =
        testing::logp_document(2, queue_depth, 1e-6, g, 1e-9,
                               "2026-11-22T07:0" + std::to_string(documents++) + ":00.000Z");
    ingest::Ingester(store).ingest_text(doc.dump(), "r.json", points[i].id, a.id);
  };
  add(0, 1, 2e-7);
  add(1, 8, 3e-7);
  const auto reference =
      query::reference_of(store, "nightly", query::parse_tolerance("10%", "", "t"));
  store.start_run(sweep.id, "2026-11-23T00:00:00Z", "{}");
  add(0, 1, 2e-7);
  store.choose_run(RunChoice::latest());
  const auto result = query::check_sweep(store, "nightly", reference);
  CHECK(verdict(result, "logp_g") == "pass");
  CHECK(result.missing_points == 1);
  CHECK(result.exit_code() == query::kExitMissing);
  bool named = false;
  for (const auto& note : result.table.notes) {
    named = named || note ==
                         "missing: logp p=2 q=8 [q8point]: no result in run 2 (the "
                         "reference's run has one)";
  }
  CHECK(named);
  // The reference's own run (scored when asked) has every point: nothing missing.
  store.choose_run(RunChoice::number(1));
  CHECK(query::check_sweep(store, "nightly", reference, {false, true}).missing_points == 0);
}

TEST_CASE("export: each night continues the same series, validity and run are values") {
  // Three runs; run 2's result not valid, as a night's can be.
  RoutineStore s({2e-7, 2.2e-7, 2.1e-7});
  s.store.db().exec("UPDATE results SET valid = 0 WHERE run_no = 2");
  // Each line's series (name and labels) and value.
  const auto series = [&](int run) {
    const auto text = query::to_openmetrics(
        query::export_samples(s.store, "nightly", query::parse_run_selection(std::to_string(run))));
    std::map<std::string, std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
      const auto end = text.find('\n', start);
      const auto line = text.substr(start, end - start);
      start = end + 1;
      if (line.empty() || line[0] == '#') continue;
      const auto space = line.rfind(' ');
      out[line.substr(0, space)] = line.substr(space + 1);
    }
    return out;
  };
  const auto night1 = series(1), night2 = series(2), night3 = series(3);
  const auto keys = [](const std::map<std::string, std::string>& m) {
    std::vector<std::string> k;
    for (const auto& [key, value] : m) k.push_back(key);
    return k;
  };
  CHECK(keys(night1) == keys(night2));
  CHECK(keys(night1) == keys(night3));
  for (const auto& [key, value] : night2) {
    CHECK(key.find("valid=\"") == std::string::npos);
    CHECK(key.find("run=\"") == std::string::npos);
    CHECK(key.find("at=\"") == std::string::npos);
  }
  CHECK(night3.at("pbench_run_number{sweep=\"nightly\",partition=\"\",nodes=\"\",ppn=\"\","
                  "queue_depth=\"\",T=\"\",hints=\"\",env=\"\",hosts_hash=\"\"}") == "3");
  // The run's start, seconds since 1970: 2026-11-24T00:00:00Z.
  CHECK(night3.at("pbench_run_started_timestamp_seconds{sweep=\"nightly\",partition=\"\","
                  "nodes=\"\",ppn=\"\",queue_depth=\"\",T=\"\",hints=\"\",env=\"\","
                  "hosts_hash=\"\"}") == "1795478400");
  int headline_valid = 0, result_valid = 0;
  for (const auto& [key, value] : night2) {
    if (key.rfind("pbench_headline_valid{", 0) == 0) {
      ++headline_valid;
      CHECK(value == "0");
      CHECK(night1.at(key) == "1");
    }
    if (key.rfind("pbench_logp_result_valid{", 0) == 0) {
      ++result_valid;
      CHECK(value == "0");
      CHECK(night3.at(key) == "1");
    }
  }
  CHECK(headline_valid > 0);
  CHECK(result_valid == 1);  // one result, one queue depth
}

TEST_CASE("export: a headline's winning condition and a maximum figure's partition are per run") {
  query::ExportSample sample;
  sample.worker = "comm";
  sample.metric = sample.figure = "b_eff";
  sample.unit = "B/s";
  for (const char* label : {"run", "point", "valid", "at", "partition", "nodes", "ppn"}) {
    CHECK(query::is_per_run_label(sample, label));
  }
  for (const char* label : {"sweep", "env", "figure", "hints"}) {
    CHECK_FALSE(query::is_per_run_label(sample, label));
  }
  sample.worker = "logp";
  sample.metric = sample.figure = "logp_EEL";  // one per shape: its partition names the series
  CHECK_FALSE(query::is_per_run_label(sample, "partition"));
  CHECK(query::is_per_run_label(sample, "at"));
  sample.figure.clear();  // a result's metric keeps every label but run, point and valid
  CHECK_FALSE(query::is_per_run_label(sample, "at"));
  CHECK(query::is_per_run_label(sample, "valid"));
  sample.family = "pbench_run_number";
  CHECK(query::metric_family(sample) == "pbench_run_number");
}
