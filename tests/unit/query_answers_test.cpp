// pbench query points, system, sql, --where and the markdown format, on stores filled with
// hand-made result documents whose maxima are known.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ingest/Ingester.hpp"
#include "query/CompareQuery.hpp"
#include "query/IoQuery.hpp"
#include "query/PointsQuery.hpp"
#include "query/SqlQuery.hpp"
#include "query/SystemQuery.hpp"
#include "query/WhereFilter.hpp"
#include "store/Store.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"

using namespace pbench;

namespace {

using namespace pbench::testing;

const std::vector<query::Cell>* find_row(const query::QueryTable& t, const std::string& figure,
                                         std::optional<std::int64_t> partition = std::nullopt) {
  for (const auto& row : t.rows) {
    if (std::get<std::string>(row[1]) != figure) continue;
    if (partition && std::get<std::int64_t>(row[4]) != *partition) continue;
    return &row;
  }
  return nullptr;
}

std::string text(const query::Cell& c) {
  return std::get<std::string>(c);
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A temporary directory removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string name = (std::filesystem::temp_directory_path() / "pbench-query-XXXXXX").string();
    REQUIRE(mkdtemp(name.data()) != nullptr);
    path = name;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

nlohmann::json io_summary(int partition, double b_eff_io, double t) {
  const nlohmann::json p = {{"partition", partition}};
  return {metric("b_eff_io", b_eff_io, "B/s", p), metric("schedule_time", t, "s", p)};
}

}  // namespace

TEST_CASE("query points: every cell with state, attempts and exit, and --missing only the gaps") {
  Fixture f;
  f.add_sweep("grid", {{"comm", 2}, {"comm", 4}, {"comm", 8}, {"logp", 2}});
  f.add_run(0, document("comm", 2, nlohmann::json::array({metric("b_eff", 1e9, "B/s")}), true));
  f.add_run(1, nullptr, store::PointState::failed, 2);
  f.add_run(1, nullptr, store::PointState::timeout, 137);
  f.add_run(3, nullptr, store::PointState::running, 0);
  const auto all = query::points_table(f.store, std::string("grid"), false);
  REQUIRE(all.rows.size() == 4);
  CHECK(text(all.rows[0][5]) == "done");
  CHECK(text(all.rows[0][10]) == "yes");
  CHECK(text(all.rows[1][5]) == "timeout");
  CHECK(std::get<std::int64_t>(all.rows[1][6]) == 2);    // two attempts
  CHECK(std::get<std::int64_t>(all.rows[1][8]) == 137);  // the last exit status
  CHECK(text(all.rows[2][5]) == "planned");
  CHECK(std::holds_alternative<std::monostate>(all.rows[2][7]));  // never submitted: no job
  const auto missing = query::points_table(f.store, std::string("grid"), true);
  REQUIRE(missing.rows.size() == 3);
  CHECK(std::get<std::int64_t>(missing.rows[0][3]) == 4);
  CHECK(std::get<std::int64_t>(missing.rows[1][3]) == 8);
  CHECK(text(missing.rows[2][2]) == "logp");
  CHECK(missing.notes.back() == "3 of 4 cells without a result");
  CHECK_THROWS_AS(query::points_table(f.store, std::string("nope"), false), UsageError);
}

TEST_CASE("query points: a result a deadline cut short shows as partial with its reason") {
  Fixture f;
  f.add_sweep("cut", {{"logp", 2}, {"logp", 4}});
  const std::string reason =
      "partial: stopped before the deadline 2026-11-22T08:01:00Z (keeping 6 s to write the "
      "result), at flood repetition 3 of 1000; what follows was not measured";
  auto partial = document("logp", 2, nlohmann::json::array({metric("eel_min", 1e-6, "s")}), false);
  partial["validity"]["reasons"] = {reason};
  partial["validity"]["partial"] = {{"reason", reason}, {"deadline", "2026-11-22T08:01:00Z"}};
  f.add_run(0, partial);
  f.add_run(1, document("logp", 4, nlohmann::json::array({metric("eel_min", 1e-6, "s")}), true));
  const auto table = query::points_table(f.store, std::string("cut"), false);
  REQUIRE(table.rows.size() == 2);
  const std::size_t last = table.columns.size() - 1;  // partial is the last column
  REQUIRE(table.columns[last].key == "partial");
  CHECK(text(table.rows[0][5]) == "done");
  CHECK(text(table.rows[0][10]) == "yes");
  CHECK(text(table.rows[0][last]) == reason);
  CHECK(std::holds_alternative<std::monostate>(table.rows[1][last]));  // complete: not partial
}

TEST_CASE("query system: argmax of each headline figure, and missing shown as missing") {
  Fixture f;
  f.add_sweep("sys", {{"io", 4, R"({"hints":"h1"})"},
                      {"io", 4, R"({"hints":"h2"})"},
                      {"comm", 2},
                      {"comm", 4},
                      {"comm", 8},
                      {"logp", 2},
                      {"bcast", 2},
                      {"bcast", 2},
                      {"bcast", 4}});
  // io: one result per point, two partitions each; the largest is partition 2 with hints h2.
  nlohmann::json io1 = io_summary(1, 1e8, 10);
  io1.push_back(io_summary(2, 3e8, 10)[0]);
  io1.push_back(io_summary(2, 3e8, 10)[1]);
  f.add_run(0, document("io", 4, io1, true));
  nlohmann::json io2 = io_summary(1, 2e8, 20);
  io2.push_back(io_summary(2, 5e8, 20)[0]);
  io2.push_back(io_summary(2, 5e8, 20)[1]);
  f.add_run(1, document("io", 4, io2, true));
  // comm: b_eff largest on 8 processes, but per process a tie between 2 and 4 (0.5e9 each):
  // the smaller partition wins.
  f.add_run(
      2, document("comm", 2,
                  {metric("b_eff", 1e9, "B/s"), metric("b_eff_per_process", 0.5e9, "B/s")}, true));
  f.add_run(
      3, document("comm", 4,
                  {metric("b_eff", 2e9, "B/s"), metric("b_eff_per_process", 0.5e9, "B/s")}, true));
  f.add_run(4, document("comm", 8,
                        {metric("b_eff", 3e9, "B/s"), metric("b_eff_per_process", 0.375e9, "B/s")},
                        true));
  // logp: g smallest at queue depth 4 (a tie with 8 goes to the smaller depth).
  const nlohmann::json q1 = {{"queue_depth", 1}}, q4 = {{"queue_depth", 4}},
                       q8 = {{"queue_depth", 8}};
  f.add_run(5, document("logp", 2,
                        {metric("eel_min", 4e-6, "s"), metric("o_s", 1e-6, "s"),
                         metric("o_r", 1.5e-6, "s"), metric("latency_l", 1.5e-6, "s"),
                         metric("g", 3e-6, "s", q1), metric("g", 1e-6, "s", q8),
                         metric("g", 1e-6, "s", q4), metric("big_g", 1e-9, "s/B", q1),
                         metric("big_g", 2e-10, "s/B", q4), metric("big_g", 3e-10, "s/B", q8)},
                        true));
  // bcast on 2: two impls, the smaller OL at the smallest size wins; on 4: no result.
  f.add_run(6, document("bcast", 2,
                        {metric("ol", 9e-6, "s", {{"size", 8}}),
                         metric("ol", 1e-6, "s", {{"size", 1024}})},
                        true, {{"impl", setting("binomial")}}));
  f.add_run(7, document("bcast", 2, nlohmann::json::array({metric("ol", 7e-6, "s", {{"size", 8}})}),
                        true, {{"impl", setting("flat")}}));
  f.add_run(8, nullptr, store::PointState::failed, 1);

  const auto t = query::system_table(f.store, std::string("sys"), {});
  const auto* io = find_row(t, "b_eff_io");
  REQUIRE(io != nullptr);
  CHECK(std::get<double>((*io)[2]) == doctest::Approx(5e8));
  CHECK(std::get<std::int64_t>((*io)[4]) == 2);
  CHECK(text((*io)[5]) == "T=20 s, hints=h2");
  CHECK(text((*io)[6]) == "sys-1");
  CHECK(text((*io)[7]) == "job-sys-1");
  const auto* b_eff = find_row(t, "b_eff");
  REQUIRE(b_eff != nullptr);
  CHECK(std::get<double>((*b_eff)[2]) == doctest::Approx(3e9));
  CHECK(std::get<std::int64_t>((*b_eff)[4]) == 8);
  const auto* per_process = find_row(t, "b_eff_per_process");
  REQUIRE(per_process != nullptr);
  CHECK(std::get<std::int64_t>((*per_process)[4]) == 2);  // tie: the smaller partition
  const auto* g = find_row(t, "logp_g", 2);
  REQUIRE(g != nullptr);
  CHECK(std::get<double>((*g)[2]) == doctest::Approx(1e-6));
  CHECK(text((*g)[5]) == "q=4");  // tie between 4 and 8: the smaller queue depth
  CHECK(std::get<double>((*find_row(t, "logp_G", 2))[2]) == doctest::Approx(2e-10));
  CHECK(std::get<double>((*find_row(t, "logp_o_r", 2))[2]) == doctest::Approx(1.5e-6));
  const auto* ol = find_row(t, "bcast_ol", 2);
  REQUIRE(ol != nullptr);
  CHECK(std::get<double>((*ol)[2]) == doctest::Approx(7e-6));
  CHECK(text((*ol)[5]) == "size=8 B, impl=flat");
  CHECK(find_row(t, "bcast_ol", 4) == nullptr);  // no result there: no row with a made-up 0

  // A sweep whose comm point has no result: the figure is missing, not 0.
  f.add_sweep("empty", {{"comm", 2}});
  const auto e = query::system_table(f.store, std::string("empty"), {});
  const auto* missing = find_row(e, "b_eff");
  REQUIRE(missing != nullptr);
  CHECK(std::holds_alternative<std::monostate>((*missing)[2]));
  CHECK(text((*missing)[5]) == "no result");
  CHECK(query::render(e, query::Format::csv).find(",b_eff,,B/s,") != std::string::npos);
}

TEST_CASE("query system: valid results win over larger not valid ones and ties are stable") {
  Fixture f;
  f.add_sweep("v", {{"comm", 2}, {"comm", 4}, {"comm", 8}});
  f.add_run(0, document("comm", 2, nlohmann::json::array({metric("b_eff", 1e9, "B/s")}), true));
  f.add_run(1, document("comm", 4, nlohmann::json::array({metric("b_eff", 1e9, "B/s")}), true));
  f.add_run(2, document("comm", 8, nlohmann::json::array({metric("b_eff", 9e9, "B/s")}), false));
  for (int i = 0; i < 3; ++i) {
    const auto t = query::system_table(f.store, std::string("v"), {});
    CHECK(std::get<std::int64_t>((*find_row(t, "b_eff"))[4]) == 2);
    CHECK(text((*find_row(t, "b_eff"))[8]) == "yes");
  }
}

TEST_CASE(
    "query system: where no result is valid the best not valid one is marked with its reason") {
  const std::string impossible =
      "size 8 B: physically impossible: OL (task 1) = -4.67 us is not positive: RTL_i/2 exceeded "
      "E_i, the round trips were disturbed";
  auto not_valid = [&](nlohmann::json doc) {
    doc["validity"]["reasons"] = {impossible, "size 8 B: the standard deviation stayed above 3%"};
    return doc;
  };
  Fixture f;
  f.add_sweep("neg", {{"bcast", 2}, {"bcast", 2}, {"bcast", 3}, {"comm", 2}, {"comm", 4}});
  // On 2 processes a valid 9 us beats the smaller (negative, not valid) OL.
  f.add_run(0, document("bcast", 2, nlohmann::json::array({metric("ol", 9e-6, "s", {{"size", 8}})}),
                        true, {{"impl", setting("mpi")}}));
  f.add_run(1, not_valid(document(
                   "bcast", 2, nlohmann::json::array({metric("ol", -4.67e-6, "s", {{"size", 8}})}),
                   false, {{"impl", setting("mpi")}})));
  // On 3 processes none is valid: the negative OL is shown, marked, never passed off as valid.
  f.add_run(2, not_valid(document(
                   "bcast", 3, nlohmann::json::array({metric("ol", -4.67e-6, "s", {{"size", 8}})}),
                   false, {{"impl", setting("mpi")}})));
  // comm: nothing valid; the largest b_eff of the not valid results, with its first reason.
  f.add_run(3, document("comm", 2, nlohmann::json::array({metric("b_eff", 1e9, "B/s")}), false));
  f.add_run(4, document("comm", 4, nlohmann::json::array({metric("b_eff", 2e9, "B/s")}), false));

  const auto t = query::system_table(f.store, std::string("neg"), {});
  REQUIRE(t.columns[9].key == "reason");
  const auto* two = find_row(t, "bcast_ol", 2);
  REQUIRE(two != nullptr);
  CHECK(std::get<double>((*two)[2]) == doctest::Approx(9e-6));
  CHECK(text((*two)[8]) == "yes");
  CHECK(std::holds_alternative<std::monostate>((*two)[9]));
  const auto* three = find_row(t, "bcast_ol", 3);
  REQUIRE(three != nullptr);
  CHECK(std::get<double>((*three)[2]) == doctest::Approx(-4.67e-6));
  CHECK(text((*three)[8]) == "no");
  CHECK(text((*three)[9]) == impossible);
  const auto* b_eff = find_row(t, "b_eff");
  REQUIRE(b_eff != nullptr);
  CHECK(std::get<std::int64_t>((*b_eff)[4]) == 4);
  CHECK(text((*b_eff)[8]) == "no");
  CHECK(text((*b_eff)[9]) == "not the reference configuration");
  const auto has_note = [&](const std::string& note) {
    return std::find(t.notes.begin(), t.notes.end(), note) != t.notes.end();
  };
  CHECK(
      has_note("sweep neg: bcast_ol on 3 processes: no result is valid; shown is the best of "
               "the not valid ones (not valid: " +
               impossible + ")"));
  const auto notes = query::render(t, query::Format::table);
  // The aligned table fits 160 columns: long notes wrap, the reason column is shortened.
  for (std::size_t at = 0, end = 0; at < notes.size(); at = end + 1) {
    end = notes.find('\n', at);
    CHECK(end - at <= query::kTableWidth);
  }
  CHECK(notes.find("note: sweep neg: b_eff: no result is valid; shown is the best of the not "
                   "valid ones (not valid: not the reference configuration)\n") !=
        std::string::npos);
  CHECK(notes.find("bcast_ol on 2 processes: no result is valid") == std::string::npos);
  // --format json carries the same: the reason per row, the marks in the notes.
  const auto j = nlohmann::json::parse(query::render(t, query::Format::json));
  bool found = false;
  for (const auto& row : j["rows"]) {
    if (row["figure"] == "bcast_ol" && row["partition"] == 3) {
      CHECK(row["valid"] == "no");
      CHECK(row["reason"] == impossible);
      found = true;
    }
  }
  CHECK(found);
}

TEST_CASE("--where matches parameters, settings and labels literally and changes nothing") {
  TempDir dir;
  const std::string path = (dir.path / "pbench.db").string();
  {
    Fixture f(store::Store::open(path, store::Store::Access::create));
    f.add_sweep("w", {{"io", 2, R"({"hints":"x' OR '1'='1"})"},
                      {"io", 2, R"({"hints":"; DROP TABLE results; --"})"},
                      {"comm", 2, R"({"tag":"a"})"},
                      {"comm", 4, R"({"tag":"b"})"}});
    f.add_run(0, document("io", 2, io_summary(2, 1e8, 10), true));
    f.add_run(1, document("io", 2, io_summary(2, 2e8, 10), true));
    f.add_run(2, document("comm", 2, nlohmann::json::array({metric("b_eff", 5e9, "B/s")}), true,
                          {{"mode", setting("fast")}}));
    f.add_run(3, document("comm", 4, nlohmann::json::array({metric("b_eff", 1e9, "B/s")}), true,
                          {{"mode", setting("slow")}}));
  }
  const std::string before = file_bytes(path);
  auto store = store::Store::open(path, store::Store::Access::read_only);
  auto b_eff_io = [&](const std::string& hints) {
    const auto t =
        query::system_table(store, std::string("w"), query::parse_where({"hints=" + hints}));
    return std::get<double>((*find_row(t, "b_eff_io"))[2]);
  };
  CHECK(b_eff_io("x' OR '1'='1") == doctest::Approx(1e8));
  CHECK(b_eff_io("; DROP TABLE results; --") == doctest::Approx(2e8));
  const auto none = query::system_table(store, std::string("w"), query::parse_where({"hints=x'"}));
  CHECK(std::holds_alternative<std::monostate>((*find_row(none, "b_eff_io"))[2]));
  CHECK(text((*find_row(none, "b_eff_io"))[5]) == "no result matches --where");
  // A point parameter, an echoed setting, the partition, a label.
  const auto by_tag = query::system_table(store, std::string("w"), query::parse_where({"tag=b"}));
  CHECK(std::get<std::int64_t>((*find_row(by_tag, "b_eff"))[4]) == 4);
  const auto by_mode =
      query::system_table(store, std::string("w"), query::parse_where({"mode=slow"}));
  CHECK(std::get<std::int64_t>((*find_row(by_mode, "b_eff"))[4]) == 4);
  const auto by_partition =
      query::system_table(store, std::string("w"), query::parse_where({"partition=4"}));
  CHECK(std::get<double>((*find_row(by_partition, "b_eff"))[2]) == doctest::Approx(1e9));
  // Rows of a worker table filtered by a column, literally.
  auto table = query::points_table(store, std::string("w"), false);
  query::filter_rows(table, query::parse_where({"params={\"hints\":\"x' OR '1'='1\"}"}));
  CHECK(table.rows.size() == 1);
  auto numbers = query::points_table(store, std::string("w"), false);
  query::filter_rows(numbers, query::parse_where({"partition=2.0", "worker=comm"}));
  CHECK(numbers.rows.size() == 1);
  CHECK_THROWS_AS(query::parse_where({"novalue"}), UsageError);
  CHECK_THROWS_AS(query::parse_where({"=x"}), UsageError);
  CHECK_THROWS_WITH_AS(query::filter_rows(numbers, query::parse_where({"nope=1"})),
                       doctest::Contains("no column 'nope'"), UsageError);
  CHECK(file_bytes(path) == before);
}

TEST_CASE("query sql: reads through a read-only connection and nothing can write") {
  TempDir dir;
  const std::string path = (dir.path / "pbench.db").string();
  {
    Fixture f(store::Store::open(path, store::Store::Access::create));
    f.add_sweep("s", {{"comm", 2}});
    f.add_run(0, document("comm", 2, nlohmann::json::array({metric("b_eff", 1e9, "B/s")}), true));
  }
  const std::string before = file_bytes(path);
  const auto t = query::sql_table(path, "SELECT name, value FROM metrics WHERE name = 'b_eff'");
  REQUIRE(t.rows.size() == 1);
  CHECK(t.columns[1].key == "value");
  CHECK(std::get<double>(t.rows[0][1]) == doctest::Approx(1e9));
  const std::string other = (dir.path / "other.db").string();
  for (const std::string& statement : std::vector<std::string>{
           "INSERT INTO meta VALUES ('k', 'v')", "DELETE FROM results", "DROP TABLE results",
           "UPDATE points SET state = 'done'", "ATTACH DATABASE '" + other + "' AS o",
           "SELECT 1; DELETE FROM results", "CREATE TABLE t (x)", "VACUUM"}) {
    CAPTURE(statement);
    CHECK_THROWS(query::sql_table(path, statement));
  }
  CHECK_THROWS_WITH_AS(query::sql_table(path, "DELETE FROM results"),
                       doctest::Contains("only statements that read"), UsageError);
  CHECK_THROWS_AS(query::sql_table(path, "SELEC 1"), UsageError);
  CHECK(file_bytes(path) == before);
  CHECK(!std::filesystem::exists(other));
}

TEST_CASE("formats: markdown is a pipe table, and csv and json parse back to the same cells") {
  query::QueryTable t;
  t.columns = {{"name", "", "name", "", 1, 0},
               {"n", "", "n", "", 1, 0},
               {"bw", "B/s", "bw", "MB/s", 1e-6, 4}};
  t.rows = {{std::string("a|b, \"c\""), std::int64_t{3}, 1.25e9}, {std::string("x"), {}, {}}};
  t.notes = {"a note"};
  CHECK(query::parse_format("markdown") == query::Format::markdown);
  CHECK_THROWS_AS(query::parse_format("html"), UsageError);
  const auto md = query::render(t, query::Format::markdown);
  CHECK(md.find("| name | n | bw [MB/s] |\n| --- | --- | ---: |\n") == 0);
  CHECK(md.find("| a\\|b, \"c\" | 3 | 1250 |\n") != std::string::npos);
  CHECK(md.find("| x | - | - |\n") != std::string::npos);
  CHECK(md.find("- a note\n") != std::string::npos);

  const auto j = nlohmann::json::parse(query::render(t, query::Format::json));
  CHECK(j["rows"][0]["name"] == "a|b, \"c\"");
  CHECK(j["rows"][0]["n"] == 3);
  CHECK(j["rows"][0]["bw"].get<double>() == 1.25e9);
  CHECK(j["rows"][1]["bw"].is_null());
  CHECK(j["columns"][2]["unit"] == "B/s");

  // A small RFC 4180 reader: quoted fields with doubled quotes.
  const auto csv = query::render(t, query::Format::csv);
  std::vector<std::vector<std::string>> records(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < csv.size(); ++i) {
    const char c = csv[i];
    if (quoted) {
      if (c == '"' && i + 1 < csv.size() && csv[i + 1] == '"') {
        records.back().back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        records.back().back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      records.back().emplace_back();
    } else if (c == '\n') {
      records.emplace_back(1);
    } else {
      records.back().back() += c;
    }
  }
  records.pop_back();  // after the last newline
  REQUIRE(records.size() == 3);
  CHECK(records[0] == std::vector<std::string>{"name", "n", "bw [B/s]"});
  CHECK(records[1] == std::vector<std::string>{"a|b, \"c\"", "3", "1250000000"});
  CHECK(std::stod(records[1][2]) == 1.25e9);
  CHECK(records[2] == std::vector<std::string>{"x", "", ""});
}

TEST_CASE("query compare: the same figures of two sweeps side by side with the ratio B/A") {
  Fixture f;
  f.add_sweep("before", {{"comm", 2}, {"comm", 4}, {"logp", 2}});
  f.add_run(0, document("comm", 2, nlohmann::json::array({metric("b_eff", 1e9, "B/s")}), true));
  f.add_run(1, document("comm", 4, nlohmann::json::array({metric("b_eff", 2e9, "B/s")}), true));
  f.add_run(
      2, document("logp", 2, nlohmann::json::array({metric("g", 4e-6, "s", {{"queue_depth", 1}})}),
                  true));
  f.add_sweep("after", {{"comm", 2}, {"bcast", 2}, {"logp", 2}});
  f.add_run(0, document("comm", 2, nlohmann::json::array({metric("b_eff", 3e9, "B/s")}), true));
  f.add_run(
      2, document("logp", 2, nlohmann::json::array({metric("g", 1e-6, "s", {{"queue_depth", 8}})}),
                  true));
  const auto t = query::compare_table(f.store, "before", "after", {});
  REQUIRE(t.columns.size() == 14);
  for (const auto& row : t.rows) REQUIRE(row.size() == t.columns.size());
  std::vector<std::string> figures;
  for (const auto& row : t.rows) figures.push_back(text(row[0]));
  // logp's g with its companions at the depth that won it; EEL (with o_s, o_r, L) has no
  // result in either sweep: one row without a value.
  CHECK(figures == std::vector<std::string>{"b_eff", "b_eff_per_process", "logp_g", "logp_G",
                                            "logp_bandwidth_at_max_size", "logp_EEL", "bcast_ol"});
  REQUIRE(t.rows.size() == 7);
  // Which way is better, from the one direction table (the metric catalogue).
  CHECK(text(t.rows[0][2]) == "higher");
  CHECK(text(t.rows[2][2]) == "lower");
  CHECK(text(t.rows[6][2]) == "lower");
  // The maximum of each sweep with its own partition: 2e9 on 4 before, 3e9 on 2 after.
  CHECK(std::get<double>(t.rows[0][3]) == doctest::Approx(2e9));
  CHECK(std::get<std::int64_t>(t.rows[0][4]) == 4);
  CHECK(text(t.rows[0][6]) == "yes");
  CHECK(std::get<double>(t.rows[0][7]) == doctest::Approx(3e9));
  CHECK(std::get<std::int64_t>(t.rows[0][8]) == 2);
  CHECK(text(t.rows[0][10]) == "yes");
  CHECK(std::get<double>(t.rows[0][11]) == doctest::Approx(1.5));
  // No b_eff_per_process in either sweep: both sides and the ratio missing.
  CHECK(std::holds_alternative<std::monostate>(t.rows[1][3]));
  CHECK(std::holds_alternative<std::monostate>(t.rows[1][11]));
  // LogP g on partition 2: each at its own best queue depth.
  CHECK(text(t.rows[2][5]) == "q=1");
  CHECK(text(t.rows[2][9]) == "q=8");
  CHECK(std::get<double>(t.rows[2][11]) == doctest::Approx(0.25));
  // G was not measured: missing on both sides, no ratio.
  CHECK(std::holds_alternative<std::monostate>(t.rows[3][11]));
  // bcast only in "after", without a result: A's side empty.
  CHECK(std::holds_alternative<std::monostate>(t.rows[6][3]));
  CHECK(text(t.rows[6][9]) == "no result");
  CHECK_THROWS_AS(query::compare_table(f.store, "before", "nope", {}), UsageError);
}

TEST_CASE("query compare: validity on both sides, the better direction, no ratio of a negative") {
  const std::string impossible =
      "size 8 B: physically impossible: OL (task 1) = -4.67 us is not positive: RTL_i/2 exceeded "
      "E_i, the round trips were disturbed";
  Fixture f;
  f.add_sweep("base", {{"bcast", 2}, {"comm", 2}});
  f.add_run(
      0, document("bcast", 2, nlohmann::json::array({metric("ol", 0.367e-6, "s", {{"size", 8}})}),
                  true, {{"impl", setting("mpi")}}));
  f.add_run(1, document("comm", 2, nlohmann::json::array({metric("b_eff", 1e9, "B/s")}), true));
  f.add_sweep("loaded", {{"bcast", 2}, {"comm", 2}});
  auto ol =
      document("bcast", 2, nlohmann::json::array({metric("ol", -4.67e-6, "s", {{"size", 8}})}),
               false, {{"impl", setting("mpi")}});
  ol["validity"]["reasons"] = {impossible};
  f.add_run(0, ol);
  f.add_run(1, document("comm", 2, nlohmann::json::array({metric("b_eff", 2e9, "B/s")}), false));

  const auto t = query::compare_table(f.store, "base", "loaded", {});
  std::vector<std::string> keys;
  for (const auto& c : t.columns) keys.push_back(c.key);
  CHECK(keys == std::vector<std::string>{"figure", "unit", "better", "a", "a_partition", "a_at",
                                         "a_valid", "b", "b_partition", "b_at", "b_valid", "ratio",
                                         "a_shape", "b_shape"});
  const std::vector<query::Cell>* b_eff = nullptr;
  const std::vector<query::Cell>* bcast = nullptr;
  for (const auto& row : t.rows) {
    if (text(row[0]) == "b_eff") b_eff = &row;
    if (text(row[0]) == "bcast_ol") bcast = &row;
  }
  REQUIRE(b_eff != nullptr);
  REQUIRE(bcast != nullptr);
  // The negative OL is not valid and gives no ratio (it was -12.73 before).
  CHECK(text((*bcast)[2]) == "lower");
  CHECK(text((*bcast)[6]) == "yes");
  CHECK(text((*bcast)[10]) == "no");
  CHECK(std::get<double>((*bcast)[7]) == doctest::Approx(-4.67e-6));
  CHECK(std::holds_alternative<std::monostate>((*bcast)[11]));
  // A positive figure that is not valid keeps its ratio, with its validity beside it.
  CHECK(text((*b_eff)[2]) == "higher");
  CHECK(text((*b_eff)[10]) == "no");
  CHECK(std::get<double>((*b_eff)[11]) == doctest::Approx(2.0));
  const auto has_note = [&](const std::string& note) {
    return std::find(t.notes.begin(), t.notes.end(), note) != t.notes.end();
  };
  CHECK(has_note("B (loaded): bcast_ol on 2 processes (not valid: " + impossible + ")"));
  CHECK(has_note("B (loaded): b_eff on 2 processes (not valid: not the reference configuration)"));
  CHECK(has_note("no ratio where a value is zero or less"));
}

TEST_CASE("query io and system: b_eff_io is rev 2.1's, also for results stored before") {
  // An older result: the paper's value under b_eff_io (4e8) and rev 2.1's under b_eff_io_rev2
  // (1e8). Today's: rev 2.1's under b_eff_io (2e8), the paper's under b_eff_io_paper (5e8).
  Fixture f;
  f.add_sweep("defs", {{"io", 2, R"({"hints":"old"})"}, {"io", 2, R"({"hints":"new"})"}});
  const nlohmann::json p = {{"partition", 2}};
  f.add_run(0, document("io", 2,
                        {metric("b_eff_io", 4e8, "B/s", p), metric("b_eff_io_rev2", 1e8, "B/s", p),
                         metric("schedule_time", 10, "s", p)},
                        false));
  f.add_run(1, document("io", 2,
                        {metric("b_eff_io", 2e8, "B/s", p), metric("b_eff_io_paper", 5e8, "B/s", p),
                         metric("schedule_time", 10, "s", p)},
                        false));
  const auto t = query::io_table(f.store, std::string("defs"));
  REQUIRE(t.rows.size() == 2);
  std::size_t beff = 0, paper = 0;
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c].key == "b_eff_io") beff = c;
    if (t.columns[c].key == "b_eff_io_paper") paper = c;
  }
  REQUIRE(beff != 0);
  REQUIRE(paper != 0);
  CHECK(t.columns[paper].title == "paper");
  CHECK(std::get<double>(t.rows[0][beff]) == doctest::Approx(1e8));
  CHECK(std::get<double>(t.rows[0][paper]) == doctest::Approx(4e8));
  CHECK(std::get<double>(t.rows[1][beff]) == doctest::Approx(2e8));
  CHECK(std::get<double>(t.rows[1][paper]) == doctest::Approx(5e8));
  // The system headline compares like with like: 2e8 (today's) beats the older 1e8, not 4e8.
  const auto s = query::system_table(f.store, std::string("defs"), {});
  const auto* io = find_row(s, "b_eff_io");
  REQUIRE(io != nullptr);
  CHECK(std::get<double>((*io)[2]) == doctest::Approx(2e8));
  CHECK(text((*io)[5]) == "T=10 s, hints=new");
}

TEST_CASE("the aligned table: a label column the same in every row leaves a too wide table") {
  query::QueryTable table;
  // A sweep name of 60 characters, an env column and ten figures: 171 columns with the sweep
  // column, 109 without it.
  const std::string sweep(60, 's');
  table.columns.push_back({"sweep", "", "sweep", "", 1, 0});
  table.columns.push_back({"env", "", "env", "", 1, 0});
  for (int c = 0; c < 10; ++c) {
    table.columns.push_back(
        {"v" + std::to_string(c), "B/s", "figure " + std::to_string(c), "MB/s", 1e-6, 4});
  }
  for (int r = 0; r < 3; ++r) {
    std::vector<query::Cell> row{sweep, std::string(r == 2 ? "mpich" : "openmpi")};
    for (int c = 0; c < 10; ++c) row.push_back(1234e6 + r);
    table.rows.push_back(row);
  }
  const auto text = query::render(table, query::Format::table);
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) CHECK(line.size() <= query::kTableWidth);
  // The sweep (the same in every row) is said once; env, which differs, stays a column.
  CHECK(text.find("sweep: " + sweep + " in every row") != std::string::npos);
  CHECK(text.find("openmpi") != std::string::npos);
  CHECK(text.find("mpich") != std::string::npos);
  // JSON keeps every column.
  CHECK(query::render(table, query::Format::json).find(sweep) != std::string::npos);
}
