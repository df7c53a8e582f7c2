// What a new user trips over (issue 17): suggestions for mistyped names, the command line's
// diagnosis, duplicates in list options, --set checked against the worker's parameters, the one
// display rule of the human formats, short point parameters, and notes said once.
#include <doctest/doctest.h>

#include <sstream>

#include "cli/CommandLineHints.hpp"
#include "cli/SweepContext.hpp"
#include "plan/WorkerSettings.hpp"
#include "query/QueryTable.hpp"
#include "sweep/Partition.hpp"
#include "sweep/SweepSpec.hpp"
#include "util/Error.hpp"
#include "util/Suggest.hpp"

using namespace pbench;

TEST_CASE("suggest: the closest name by edit distance, or none") {
  CHECK(edit_distance("sweeep", "sweep") == 1);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("lgop", "logp") == 1);  // a swap of neighbours is one edit
  const std::vector<std::string> commands{"sweep", "submit", "status", "wait", "cancel", "run"};
  CHECK(closest_name("sweeep", commands) == "sweep");
  CHECK(closest_name("stauts", commands) == "status");
  CHECK(closest_name("cancle", commands) == "cancel");
  CHECK(closest_name("lgop", std::vector<std::string>{"logp", "comm", "io", "bcast"}) == "logp");
  CHECK_FALSE(closest_name("xyzzy", commands).has_value());
  const std::vector<std::string> options{"--partitions", "--queue-depths", "--procs-per-node"};
  CHECK(closest_name("--partition", options) == "--partitions");
  CHECK(closest_name("--queue-depth", options) == "--queue-depths");
  CHECK(closest_name("--part", options) == "--partitions");  // the one name it starts
  CHECK(did_you_mean("--partiton", options) == " (did you mean '--partitions'?)");
  CHECK(did_you_mean("--nothing-like-it", options).empty());
}

namespace {
/// A small copy of pbench's command tree: global options, commands with a NAME, a command with
/// subcommands.
struct Tree {
  CLI::App app{"test", "pbench"};
  std::string db, name, format;
  std::vector<std::string> partitions;
  Tree() {
    app.require_subcommand(1);
    app.fallthrough();
    app.add_option("--db", db);
    auto* sweep = app.add_subcommand("sweep");
    sweep->add_option("name", name)->required();
    sweep->add_option("--partitions", partitions);
    auto* status = app.add_subcommand("status");
    status->add_option("name", name)->required();
    app.add_subcommand("drive")->group("");  // hidden, as pbench's own
    auto* query = app.add_subcommand("query");
    query->require_subcommand(1);
    auto* io = query->add_subcommand("io");
    io->add_option("--format", format);
  }
  std::optional<cli::CommandLineProblem> diagnose(std::vector<std::string> args) {
    return cli::diagnose_command_line(app, args);
  }
  /// What completes the last word; the store asked is recorded in `asked_db`.
  std::vector<std::string> complete(std::vector<std::string> args) {
    return cli::complete_command_line(app, args, [this](const std::string& store) {
      asked_db = store;
      return std::vector<std::string>{"nightly", "night2", "demo"};
    });
  }
  std::string asked_db = "(not asked)";
};
}  // namespace

TEST_CASE("command line: an unknown command or option is named with the closest name") {
  Tree t;
  auto p = t.diagnose({"sweeep", "x"});
  REQUIRE(p);
  CHECK(p->kind == cli::CommandLineProblem::Kind::unknown_command);
  CHECK(p->message == "unknown command 'sweeep' (did you mean 'sweep'?)");
  p = t.diagnose({"sweep", "x", "--partition", "1,2"});
  REQUIRE(p);
  CHECK(p->kind == cli::CommandLineProblem::Kind::unknown_option);
  CHECK(p->message ==
        "unknown option '--partition' for 'pbench sweep' (did you mean "
        "'--partitions'?)");
  p = t.diagnose({"query", "oi"});
  REQUIRE(p);
  CHECK(p->message == "unknown command 'oi' of 'pbench query' (did you mean 'io'?)");
  p = t.diagnose({"query", "io", "--fromat=csv"});
  REQUIRE(p);
  CHECK(p->message == "unknown option '--fromat' for 'pbench query io' (did you mean '--format'?)");
  // Global options anywhere, and with their value as the next word or after '='.
  CHECK_FALSE(t.diagnose({"query", "io", "--db", "x.db", "--format", "csv"}));
  CHECK_FALSE(t.diagnose({"--db=x.db", "sweep", "s", "--partitions", "1"}));
}

TEST_CASE("command line: a command without its sweep NAME is said to need one") {
  Tree t;
  auto p = t.diagnose({"status", "--db", "x.db"});
  REQUIRE(p);
  CHECK(p->kind == cli::CommandLineProblem::Kind::missing_name);
  CHECK(p->message == "'pbench status' needs the NAME of a sweep");
  CHECK_FALSE(t.diagnose({"status", "s1"}));
}

TEST_CASE("command line: global options parse after the command (fallthrough)") {
  Tree t;
  std::vector<std::string> args{"x.db", "--db", "io", "query"};  // query io --db x.db, reversed
  t.app.parse(args);
  CHECK(t.db == "x.db");
}

TEST_CASE("completion: commands, options and stored sweep names from the command tree") {
  Tree t;
  CHECK(t.complete({""}) == std::vector<std::string>{"query", "status", "sweep"});  // not drive
  CHECK(t.complete({"s"}) == std::vector<std::string>{"status", "sweep"});
  CHECK(t.complete({"--"}) == std::vector<std::string>{"--db", "--help"});
  // A command's own options and, falling through, those of the commands above it.
  CHECK(t.complete({"sweep", "x", "--p"}) == std::vector<std::string>{"--partitions"});
  CHECK(t.complete({"query", "io", "--"}) ==
        std::vector<std::string>{"--db", "--format", "--help"});
  CHECK(t.complete({"query", ""}) == std::vector<std::string>{"io"});
  // A sweep NAME from the store given by --db (either form), or the default store.
  CHECK(t.complete({"status", "ni"}) == std::vector<std::string>{"night2", "nightly"});
  CHECK(t.asked_db.empty());
  CHECK(t.complete({"--db", "x.db", "status", ""}) ==
        std::vector<std::string>{"demo", "night2", "nightly"});
  CHECK(t.asked_db == "x.db");
  CHECK(t.complete({"status", "--db=y.db", "n"}).size() == 2);
  CHECK(t.asked_db == "y.db");
  // Nothing once the NAME is given, for an option's value (the shell's files) or after an
  // unknown word.
  CHECK(t.complete({"status", "nightly", ""}).empty());
  CHECK(t.complete({"--db", ""}).empty());
  CHECK(t.complete({"sweeep", ""}).empty());
  CHECK(t.complete({}).empty());
}

TEST_CASE("sweep: a value listed twice in any list is refused at validation") {
  sweep::SweepSpec base;
  base.name = "s";
  base.workers = {"logp"};
  base.partitions = {sweep::Partition(1), sweep::Partition(2)};
  base.set_values("queue_depth", nlohmann::json::array({1, 8}));
  CHECK_NOTHROW(base.validate());
  auto s = base;
  s.set_values("queue_depth", nlohmann::json::array({1, 8, 1}));
  CHECK_THROWS_WITH_AS(s.validate(), "--queue-depths: '1' is listed twice", UsageError);
  s = base;
  s.workers = {"io"};
  s.set_values("schedule_time", nlohmann::json::array({60, 60}));
  CHECK_THROWS_WITH_AS(s.validate(), "--schedule-times: '60' is listed twice", UsageError);
  s.set_values("schedule_time", nlohmann::json::array({60}));
  s.set_values("hints", nlohmann::json::array({"a=b", "a=b"}));
  CHECK_THROWS_WITH_AS(s.validate(), "--hints: 'a=b' is listed twice", UsageError);
}

TEST_CASE("--set: names checked against the worker's own parameters, values read by it") {
  sweep::SweepSpec spec;
  spec.name = "s";
  spec.workers = {"logp"};
  spec.settings["logp"]["eel_runs"] = "10";
  std::vector<std::vector<std::string>> asked;
  const run::DescribeWorker describe = [&](const std::string& binary,
                                           const std::vector<std::string>& args) {
    CHECK(binary == "pbench-logp");
    asked.push_back(args);
    for (const auto& a : args) {
      if (a == "--eel-runs=ten") throw UsageError("pbench-logp: error: --eel-runs: ten is bad");
    }
    return nlohmann::json{{"worker", "logp"},
                          {"parameters", {{{"name", "eel_runs"}}, {{"name", "eel_roundtrips"}}}}};
  };
  CHECK_NOTHROW(run::check_worker_settings(spec, describe));
  CHECK(asked == std::vector<std::vector<std::string>>{{}, {"--eel-runs=10"}});
  spec.settings["logp"]["eel_run"] = "10";
  CHECK_THROWS_WITH_AS(run::check_worker_settings(spec, describe),
                       "--set logp.eel_run: pbench-logp has no parameter 'eel_run' (did you mean "
                       "'eel_runs'?); its parameters: eel_runs, eel_roundtrips",
                       UsageError);
  spec.settings["logp"].erase("eel_run");
  spec.settings["logp"]["eel_runs"] = "ten";
  CHECK_THROWS_WITH_AS(run::check_worker_settings(spec, describe),
                       "--set logp: pbench-logp: error: --eel-runs: ten is bad", UsageError);
}

TEST_CASE("display: numbers in human formats never in e-notation") {
  CHECK(plain_significant(2.97927e+09, 6) == "2979270000");
  CHECK(plain_significant(1.00502e-07, 6) == "0.000000100502");
  CHECK(plain_significant(2979.27, 6) == "2979.27");
  CHECK(plain_significant(2.5, 3) == "2.5");
  CHECK(plain_significant(12345.6, 3) == "12346");
  CHECK(plain_significant(0, 3) == "0");
}

TEST_CASE("display: query system's values in MB/s, us and s in tables, base units in csv") {
  query::QueryTable t;
  t.columns = {{"figure", "", "figure", "", 1, 0},
               {"value", "", "value", "", 1, 6, "unit"},
               {"unit", "", "unit", "", 1, 0}};
  t.rows = {{std::string("b_eff"), 2.97927e+09, std::string("B/s")},
            {std::string("logp_g"), 1.00502e-07, std::string("s")},
            {std::string("logp_G"), 3.2e-10, std::string("s/B")},
            {std::string("run"), 12.5, std::string("s")}};
  const auto table = query::render(t, query::Format::table);
  // At most four significant digits (kHumanDigits).
  CHECK(table.find("2979  MB/s") != std::string::npos);
  CHECK(table.find("0.1005    us") != std::string::npos);
  CHECK(table.find("0.32  ns/B") != std::string::npos);
  CHECK(table.find("12.5     s") != std::string::npos);
  CHECK(table.find("e+") == std::string::npos);
  CHECK(table.find("e-") == std::string::npos);
  const auto markdown = query::render(t, query::Format::markdown);
  CHECK(markdown.find("| 2979 | MB/s |") != std::string::npos);
  const auto csv = query::render(t, query::Format::csv);
  CHECK(csv.find("b_eff,2979270000,B/s") != std::string::npos);
  const auto json = nlohmann::json::parse(query::render(t, query::Format::json));
  CHECK(json["rows"][1]["value"].get<double>() == doctest::Approx(1.00502e-07));
  CHECK(json["rows"][1]["unit"] == "s");
}

TEST_CASE("display: point parameters in short keys in tables, JSON elsewhere") {
  CHECK(store::short_parameters(R"({"worker":"logp","partition":2,"queue_depth":8,)"
                                R"("settings":{"eel_runs":"10"}})") == "q=8");
  CHECK(store::short_parameters(R"({"worker":"io","partition":2,"schedule_time":3.0,)"
                                R"("settings":{}})") == "T=3 hints=-");
  CHECK(store::short_parameters(R"({"worker":"io","partition":4,"nodes":2,"procs_per_node":2,)"
                                R"("transfer_size":1048576,"pattern":"strided",)"
                                R"("collective":true,"settings":{}})") ==
        "2x2 xfer=1048576 pattern=strided coll=on");
  CHECK(store::short_parameters(R"({"worker":"comm","partition":2,"settings":{}})") == "-");
  query::QueryTable t;
  t.columns = {{"point", "", "point", "", 1, 0}, {"params", "", "parameters", "", 1, 0}};
  const std::string json = R"({"queue_depth":8,"settings":{},"worker":"logp"})";
  t.rows = {{std::string("k1"), json}};
  CHECK(query::render(t, query::Format::table).find("q=8") != std::string::npos);
  CHECK(query::render(t, query::Format::table).find("queue_depth") == std::string::npos);
  CHECK(nlohmann::json::parse(query::render(t, query::Format::json))["rows"][0]["params"] == json);
}

TEST_CASE("notes: said once, and to stderr with csv, never into the data") {
  query::QueryTable t;
  t.columns = {{"a", "", "a", "", 1, 0}};
  t.rows = {{std::int64_t{1}}};
  t.notes = {"no pair: 1 process", "no pair: 1 process", "other", "no pair: 1 process"};
  const auto table = query::render(t, query::Format::table);
  CHECK(table == "a\n-\n1\nnote: no pair: 1 process\nnote: other\n");
  CHECK(nlohmann::json::parse(query::render(t, query::Format::json))["notes"].size() == 2);
  std::ostringstream out, err;
  query::print(t, query::Format::csv, out, err);
  CHECK(out.str() == "a\n1\n");
  CHECK(err.str() == "note: no pair: 1 process\nnote: other\n");
}

TEST_CASE("Ctrl-C: the message names what still runs and how to resume or stop it") {
  run::Progress p;
  p.total = 4;
  p.by_state[store::PointState::done] = 1;
  p.by_state[store::PointState::running] = 2;
  p.by_state[store::PointState::planned] = 1;
  const auto m = cli::interrupted_message("s1", p);
  CHECK(m.find("still 2 running, 1 planned (not submitted yet): their jobs go on") !=
        std::string::npos);
  CHECK(m.find("pbench wait s1") != std::string::npos);
  CHECK(m.find("pbench cancel s1") != std::string::npos);
  run::Progress finished;
  finished.total = 1;
  finished.by_state[store::PointState::done] = 1;
  CHECK(cli::interrupted_message("s1", finished) ==
        "sweep s1: interrupted; no point is left to run");
}
