// pbench report: the escaping of text into gnuplot scripts and HTML, the data files (gaps, never
// zeros), the figure builders on hand-made documents with known values, and --by grouping.
#include <doctest/doctest.h>

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "query/RowGrouping.hpp"
#include "report/GnuplotFigure.hpp"
#include "report/HtmlPage.hpp"
#include "report/Provenance.hpp"
#include "report/ReportWriter.hpp"
#include "report/WorkerFigures.hpp"
#include "support/StoreFixture.hpp"
#include "sweep/SweepSpec.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::report;

namespace {

/// A ProcessRunner that records argv and, like gnuplot, writes the SVG next to the script.
class DrawingRunner : public process::ProcessRunner {
 public:
  int exit_code = 0;
  std::vector<std::vector<std::string>> commands;
  process::ProcessResult run(const std::vector<std::string>& argv,
                             std::chrono::milliseconds) override {
    commands.push_back(argv);
    if (exit_code == 0) {
      std::ofstream(std::filesystem::path(argv.at(1)).replace_extension(".svg")) << "<svg/>";
      return {0, "", ""};
    }
    return {exit_code, "", "\"x.gp\" line 3: undefined variable: foo\n"};
  }
  int run_redirected(const std::vector<std::string>&, const std::string&, const std::string&,
                     const std::string&) override {
    return 0;
  }
};

nlohmann::json table(std::vector<std::string> columns, nlohmann::json rows) {
  nlohmann::json c = nlohmann::json::array();
  for (const auto& name : columns) c.push_back({{"name", name}, {"unit", ""}});
  return {{"columns", c}, {"rows", rows}};
}

StoredResult stored(std::int64_t partition, nlohmann::json measurements,
                    nlohmann::json parameters = nlohmann::json::object()) {
  StoredResult r;
  r.point_key = "p" + std::to_string(partition);
  r.partition = partition;
  r.params = nlohmann::json::object();
  r.document = {{"measurements", measurements}, {"parameters", parameters}};
  r.valid = true;
  return r;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

query::QueryColumn column(const std::string& key, const std::string& unit = "") {
  return {key, unit, key, unit, 1, 6};
}

}  // namespace

TEST_CASE("gnuplot_quote: single quotes doubled, line breaks as spaces, bad UTF-8 as '?'") {
  CHECK(gnuplot_quote("plain") == "'plain'");
  CHECK(gnuplot_quote("it's") == "'it''s'");
  CHECK(gnuplot_quote("a\nset output '/etc/x'\r\tb") == "'a set output ''/etc/x''  b'");
  CHECK(gnuplot_quote("`rm -rf x` system(\"id\") @macro $x") ==
        "'`rm -rf x` system(\"id\") @macro $x'");
  CHECK(gnuplot_quote("caf\xc3\xa9 \xff\xfe \xc3") == "'caf\xc3\xa9 ?? ?'");
  CHECK(gnuplot_quote("\xe0\x80\x80") == "'???'");  // an overlong form
}

TEST_CASE("html_escape: markup characters as entities, control characters as spaces") {
  CHECK(html_escape("<a href=\"x\" onclick='y'>&amp;</a>") ==
        "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;");
  CHECK(html_escape("line\nbreak\x01") == "line break ");
  HtmlPage page("sweep <s>");
  query::QueryTable t;
  t.columns = {column("hints"), column("value", "s")};
  t.rows = {{std::string("a=<b>&"), 1.5}, {std::string("x"), query::Cell{}}};
  t.notes = {"note \"quoted\""};
  page.table(t);
  page.figure("f.svg", "alt \"x\"", "caption <i>", 1240, 400);
  const auto html = page.html();
  CHECK(html.find("<title>sweep &lt;s&gt;</title>") != std::string::npos);
  CHECK(html.find("<td>a=&lt;b&gt;&amp;</td>") != std::string::npos);
  CHECK(html.find("<td class=\"num\">1.5</td>") != std::string::npos);
  CHECK(html.find("<td class=\"num\">-</td>") != std::string::npos);  // missing, not 0
  CHECK(html.find("<li>note &quot;quoted&quot;</li>") != std::string::npos);
  CHECK(html.find("<img src=\"f.svg\" width=\"1240\" height=\"400\" alt=\"alt &quot;x&quot;\">") !=
        std::string::npos);
  CHECK(html.find("<i>") == std::string::npos);
}

TEST_CASE("gnuplot_data: a missing value is a gap (never 0) and empty series are left out") {
  Figure f;
  Panel p;
  p.log_y = true;
  p.series.push_back({"a", {{1, 2}, {2, NAN}, {3, NAN}, {4, -1}, {5, 6}, {6, NAN}}});
  p.series.push_back({"empty", {{1, NAN}}});
  p.series.push_back({"b", {{NAN, 1}, {7, 8}}});
  f.panels.push_back(p);
  CHECK(gnuplot_data(f) == "1 2 1\n\n5 6 1\n\n\n7 8 1\n");
  // On a linear axis 0 and negative values are drawn as they are.
  f.panels[0].log_y = false;
  CHECK(gnuplot_data(f) == "1 2 1\n\n4 -1 1\n5 6 1\n\n\n7 8 1\n");
  // A point of a result that is not valid is marked 0 in the third column.
  f.panels[0].series[2].valid = {true, false};
  CHECK(gnuplot_data(f) == "1 2 1\n\n4 -1 1\n5 6 1\n\n\n7 8 0\n");
}

TEST_CASE("gnuplot_script: every text quoted on its own line, indexes skip empty series") {
  Figure f;
  f.name = "x";
  f.title = "a'b\nset output '/tmp/evil'";
  Panel p;
  p.title = "t`id`";
  p.log_x = true;
  p.x_tics = {{10, "1k+8"}};
  p.series.push_back({"none", {{1, NAN}}});
  p.series.push_back({"it's", {{1, 2}}, true, true, 0, true});
  Panel empty;
  empty.title = "nothing";
  f.panels = {p, empty};
  const auto script = gnuplot_script(f, "/d/x.dat", "/d/x.svg");
  const auto l = lines(script);
  // The figure's title is the page's heading, not drawn again: two panels side by side.
  CHECK(std::count(l.begin(), l.end(), "set multiplot layout 1,2") == 1);
  CHECK(script.find("evil") == std::string::npos);
  CHECK(std::count(l.begin(), l.end(), "set title 't`id`'") == 1);
  CHECK(std::count(l.begin(), l.end(), "set output '/d/x.svg'") == 1);
  CHECK(std::count(l.begin(), l.end(), "set xtics rotate by 45 right ('1k+8' 10)") == 1);
  CHECK(
      std::count(
          l.begin(), l.end(),
          "plot '/d/x.dat' index 0 using 1:2 with lines lw 2 dt 2 lc rgb '#0072b2' notitle, \\") ==
      1);
  CHECK(std::count(
            l.begin(), l.end(),
            "     1/0 with linespoints pt 7 ps 1.1 lw 2 dt 2 lc rgb '#0072b2' title 'it''s'") == 1);
  CHECK(std::count(l.begin(), l.end(), "plot NaN notitle") == 1);  // the empty panel
  CHECK(script.find("'no data'") != std::string::npos);
  CHECK(script.find("noenhanced") != std::string::npos);  // no markup in any title
  CHECK(script.find("none") == std::string::npos);
  // Outside quoted strings only known commands appear: no text broke out of its quotes.
  for (const auto& line : l) {
    std::string outside;
    bool quoted = false;
    for (char c : line) {
      if (c == '\'')
        quoted = !quoted;
      else if (!quoted)
        outside += c;
    }
    CHECK_MESSAGE(!quoted, line);
    CHECK_MESSAGE(outside.find('`') == std::string::npos, line);
    CHECK_MESSAGE(outside.find("system") == std::string::npos, line);
  }
}

TEST_CASE("GnuplotFigure::draw runs gnuplot on the script in the directory, no shell") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("pbench-report-unit-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Figure f;
  f.name = "fig";
  f.title = "t";
  f.panels.push_back({"p", "x", "y", false, false, {}, {{"s", {{1, 2}}}}});
  DrawingRunner runner;
  GnuplotFigure gnuplot(runner);
  CHECK(gnuplot.draw(f, dir) == dir / "fig.svg");
  REQUIRE(runner.commands.size() == 1);
  CHECK(runner.commands[0] == std::vector<std::string>{"gnuplot", (dir / "fig.gp").string()});
  std::ifstream data(dir / "fig.dat");
  CHECK(std::string(std::istreambuf_iterator<char>(data), {}) == "1 2 1\n");
  runner.exit_code = 1;
  CHECK_THROWS_WITH_AS(gnuplot.draw(f, dir),
                       "gnuplot failed to draw figure 'fig' (exit 1): \"x.gp\" line 3: undefined "
                       "variable: foo ",
                       std::runtime_error);
  std::filesystem::remove_all(dir);
}

TEST_CASE("chunk sizes: the paper's labels and pseudo-logarithmic positions") {
  CHECK(size_label(1024) == "1k");
  CHECK(size_label(1032) == "1k+8");
  CHECK(size_label(32776) == "32k+8");
  CHECK(size_label(1048576) == "1M");
  CHECK(size_label(1048584) == "1M+8");
  CHECK(size_label(980968) == "980968");
  CHECK(chunk_position(1024) == doctest::Approx(10));
  CHECK(chunk_position(1032) == doctest::Approx(10.4));
  CHECK(chunk_position(16) == doctest::Approx(4));  // 8+8 is a power of two itself
  CHECK(std::isnan(chunk_position(0)));
  CHECK(file_stem("MPI_Bcast <x>") == "mpi-bcast--x-");
}

TEST_CASE("io figures: Fig. 3 at the partition with the largest b_eff_io, bytes over time") {
  const std::vector<std::string> partition_columns = {"partition", "schedule_time", "b_eff_io"};
  const std::vector<std::string> pattern_columns = {"partition",  "access", "type",
                                                    "disk_chunk", "bytes",  "time"};
  auto m = nlohmann::json{
      {"partitions", table(partition_columns, {{1, 60, 5e6}, {2, 60, 9e6}})},
      {"patterns", table(pattern_columns, {{2, "write", 0, 1024, 2e6, 1.0},
                                           {2, "write", 0, 1024, 4e6, 1.0},  // same l: summed
                                           {2, "write", 0, 1032, 1e6, 0.0},  // no time: left out
                                           {2, "write", 1, 1048576, 8e6, 2.0},
                                           {1, "write", 0, 1024, 9e9, 1.0},  // the other partition
                                           {2, "read", 0, 1024, 1e6, 0.5}})}};
  auto consortium =
      stored(2, nlohmann::json::object(), {{"suite", {{"value", "consortium"}, {"unit", ""}}}});
  const auto figures = io_pattern_figures({stored(2, m), consortium});
  REQUIRE(figures.size() == 1);
  const auto& f = figures[0];
  CHECK(f.title.find("2 processes, T = 60 s") != std::string::npos);
  REQUIRE(f.panels.size() == 3);
  REQUIRE(f.panels[0].series.size() == 2);
  CHECK(f.panels[0].series[0].title == "type 0 scatter");
  CHECK(f.panels[0].series[0].points ==
        std::vector<std::pair<double, double>>{{10, 3.0}});  // 6e6 B over 2 s = 3 MB/s
  CHECK(f.panels[0].series[1].points == std::vector<std::pair<double, double>>{{20, 4.0}});
  CHECK(!f.panels[1].has_data());  // no rewrite rows: "no data" there, not a 0 curve
  CHECK(f.panels[2].series[0].points == std::vector<std::pair<double, double>>{{10, 2.0}});
  CHECK(f.panels[0].x_tics == std::vector<std::pair<double, std::string>>{{10, "1k"}, {20, "1M"}});

  // Without b_eff_io results: one figure without data.
  const auto none = io_pattern_figures({consortium});
  REQUIRE(none.size() == 1);
  CHECK(!none[0].has_data());
}

TEST_CASE("io_partition_figure: a curve per T and hint set, a missing b_eff_io a gap") {
  query::QueryTable t;
  t.columns = {column("partition"), column("schedule_time", "s"), column("hints"),
               column("b_eff_io", "B/s")};
  t.rows = {{std::int64_t{1}, 60.0, std::string("-"), 2e6},
            {std::int64_t{2}, 60.0, std::string("-"), query::Cell{}},
            {std::int64_t{4}, 60.0, std::string("-"), 8e6},
            {std::int64_t{2}, 900.0, std::string("cb=1"), 3e6}};
  const auto f = io_partition_figure(t);
  REQUIRE(f.panels.size() == 1);
  REQUIRE(f.panels[0].series.size() == 2);
  CHECK(f.panels[0].series[0].title == "T = 60 s, hints -");
  const auto& p = f.panels[0].series[0].points;
  REQUIRE(p.size() == 3);
  CHECK(p[0] == std::pair<double, double>{1, 2});
  CHECK(p[1].first == 2);
  CHECK(std::isnan(p[1].second));
  CHECK(p[2] == std::pair<double, double>{4, 8});
  CHECK(f.panels[0].series[1].title == "T = 900 s, hints cb=1");
}

TEST_CASE("io_partition_figure: the paper's arithmetic b_eff_io beside, dashed and labelled") {
  query::QueryTable t;
  t.columns = {column("partition"), column("schedule_time", "s"), column("hints"),
               column("b_eff_io", "B/s"), column("b_eff_io_paper", "B/s")};
  t.rows = {{std::int64_t{1}, 60.0, std::string("-"), 2e6, 5e6},
            {std::int64_t{2}, 60.0, std::string("-"), 3e6, 7e6}};
  const auto f = io_partition_figure(t);
  REQUIRE(f.panels.at(0).series.size() == 2);
  const auto& headline = f.panels[0].series[0];
  const auto& paper = f.panels[0].series[1];
  CHECK(headline.title == "T = 60 s, hints -");
  CHECK_FALSE(headline.dashed);
  CHECK(headline.points[1] == std::pair<double, double>{2, 3});
  CHECK(paper.title == "T = 60 s, hints - (paper)");
  CHECK(paper.dashed);
  CHECK(paper.points[1] == std::pair<double, double>{2, 7});
}

TEST_CASE("comm_figures: rings as measured (best method), random as their log mean") {
  auto m = nlohmann::json{
      {"patterns", table({"pattern", "kind", "in_b_eff"}, {{"ring1", "ring", true},
                                                           {"random1", "random", true},
                                                           {"random2", "random", true},
                                                           {"worst_cycle", "extra", false}})},
      {"measurements",
       table({"pattern", "l", "method", "bandwidth"}, {{"ring1", 1, "sendrecv", 1e6},
                                                       {"ring1", 1, "alltoallv", 3e6},
                                                       {"random1", 1, "sendrecv", 1e6},
                                                       {"random2", 1, "sendrecv", 4e6},
                                                       {"worst_cycle", 1, "sendrecv", 9e6}})}};
  const auto figures = comm_figures({stored(1, nlohmann::json::object()), stored(4, m)});
  REQUIRE(figures.size() == 1);
  CHECK(figures[0].name == "comm-bandwidth-p4");
  const auto& s = figures[0].panels.at(0).series;
  REQUIRE(s.size() == 2);
  CHECK(s[0].title == "ring1");
  CHECK(s[0].points == std::vector<std::pair<double, double>>{{1, 3}});
  CHECK(s[1].title == "random (log mean of 2 patterns)");
  CHECK(s[1].points.at(0).second == doctest::Approx(2));  // sqrt(1 * 4)
  CHECK(!comm_figures({})[0].has_data());
}

TEST_CASE("logp figures: g by queue depth, time per message with the G fit segments") {
  query::QueryTable t;
  t.columns = {column("partition"), column("queue_depth"), column("g", "s")};
  t.rows = {{std::int64_t{2}, std::int64_t{1}, 2e-6},
            {std::int64_t{2}, std::int64_t{8}, query::Cell{}}};
  const auto gap = logp_gap_figure(t);
  REQUIRE(gap.panels[0].series.size() == 1);
  CHECK(gap.panels[0].series[0].points[0] == std::pair<double, double>{1, 2});
  CHECK(std::isnan(gap.panels[0].series[0].points[1].second));

  auto m = nlohmann::json{
      {"flood_curve", table({"queue_depth", "size", "time_per_message"},
                            {{4, 8, 1e-6}, {4, 1024, 2e-6}, {4, 4096, 5e-6}, {4, 65536, 60e-6}})},
      {"gap_fit", table({"queue_depth", "segment", "from_size", "to_size", "slope", "intercept"},
                        {{4, 0, 1024, 4096, 1e-9, 1e-6}, {4, 1, 4096, 65536, 1e-9, 0.0}})}};
  const auto figures = logp_size_figures({stored(2, m)});
  REQUIRE(figures.size() == 1);
  const auto& s = figures[0].panels.at(0).series;
  REQUIRE(s.size() == 3);
  CHECK(s[0].title == "q = 4");
  CHECK(s[1].dashed);
  CHECK(s[1].color == s[0].color);
  CHECK(s[1].title == "q = 4: G fit 1k-4k B, 1/G = 1000 MB/s");
  REQUIRE(s[1].points.size() == 2);
  CHECK(s[1].points[1].second == doctest::Approx((1e-6 + 1e-9 * 4096) * 1e6));
  CHECK(figures[0].caption.find("1 protocol switch(es) detected") != std::string::npos);
  CHECK(!logp_size_figures({stored(1, nlohmann::json::object())})[0].has_data());
  // A result that is not valid: its measured points hollow.
  CHECK(s[0].point_valid(0));
  auto not_valid = stored(2, m);
  not_valid.valid = false;
  CHECK(!logp_size_figures({not_valid})[0].panels.at(0).series.at(0).point_valid(0));
}

TEST_CASE("bcast_figures: methods against processes at the smallest size and against size") {
  query::QueryTable t;
  t.columns = {column("partition"),
               column("impl"),
               column("hop_delay", "s"),
               column("size", "B"),
               column("ol", "s"),
               column("send_latency", "s"),
               column("rounds_latency", "s"),
               column("barrier_latency", "s"),
               column("ack_latency", "s")};
  auto row = [](std::int64_t n, double size, query::Cell ol) {
    return std::vector<query::Cell>{n, std::string("mpi"), 0.0, size, ol, 1e-6, 2e-6, 3e-6, 4e-6};
  };
  t.rows = {row(2, 8, 10e-6), row(4, 8, query::Cell{}), row(4, 256, 30e-6), row(2, 256, 5e-6)};
  const auto figures = bcast_figures(t);
  REQUIRE(figures.size() == 1);
  CHECK(figures[0].name == "bcast-mpi");
  const auto& by_procs = figures[0].panels.at(0).series.at(0);
  CHECK(by_procs.title == "OL (OL_i method)");
  REQUIRE(by_procs.points.size() == 2);
  CHECK(by_procs.points[0] == std::pair<double, double>{2, 10});
  CHECK(std::isnan(by_procs.points[1].second));  // missing at 4 processes: a gap
  const auto& by_size = figures[0].panels.at(1).series.at(0);
  REQUIRE(by_size.points.size() == 2);
  CHECK(std::isnan(by_size.points[0].second));
  CHECK(by_size.points[1].second == doctest::Approx(30));
}

TEST_CASE("consortium_figure: transfer rate by transfer size per test and pattern") {
  auto r = stored(2, nlohmann::json::object(), {{"suite", {{"value", "consortium"}}}});
  auto metric = [](const std::string& name, double value, double size, const std::string& api) {
    return StoredMetric{name,
                        value,
                        "B/s",
                        {{"pattern", "strided"},
                         {"transfer_size", size},
                         {"api", api},
                         {"collective", 0},
                         {"file_per_process", 0}}};
  };
  r.metrics = {metric("sustained_write_transfer_rate", 2e6, 1000, "mpiio"),
               metric("sustained_write_transfer_rate", 4e6, 4000, "mpiio"),
               metric("sustained_read_transfer_rate", 1e6, 1000, "posix"),
               metric("read_errors", 0, 1000, "mpiio")};
  auto plain = stored(2, nlohmann::json::object());
  plain.metrics = {metric("sustained_write_transfer_rate", 9e9, 1000, "mpiio")};
  const auto f = consortium_figure({r, plain});
  REQUIRE(f.panels.size() == 3);
  REQUIRE(f.panels[0].series.size() == 1);
  CHECK(f.panels[0].series[0].title == "strided, 2 procs");
  CHECK(f.panels[0].series[0].points ==
        std::vector<std::pair<double, double>>{{1000, 2}, {4000, 4}});
  CHECK(!f.panels[1].has_data());  // no cached_write metric: no data, not 0
  CHECK(f.panels[2].series[0].title == "strided, posix, 2 procs");
}

TEST_CASE(
    "query --by: rows grouped by one key, stable with missing last and unknown keys refused") {
  query::QueryTable t;
  t.columns = {column("partition"), column("schedule_time", "s"), column("hints")};
  t.rows = {{std::int64_t{4}, 900.0, std::string("b")},
            {std::int64_t{2}, 60.0, std::string("a")},
            {std::int64_t{4}, 60.0, query::Cell{}},
            {std::int64_t{2}, 900.0, std::string("b")}};
  auto by = [&](const std::string& key, std::size_t column_index) {
    auto copy = t;
    query::group_rows(copy, key);
    std::vector<std::string> out;
    for (const auto& row : copy.rows)
      out.push_back(query::display_cell(row[column_index], copy.columns[column_index]) + "/" +
                    query::display_cell(row[0], copy.columns[0]));
    return out;
  };
  CHECK(by("T", 1) == std::vector<std::string>{"60/2", "60/4", "900/4", "900/2"});
  CHECK(by("partition", 0) == std::vector<std::string>{"2/2", "2/2", "4/4", "4/4"});
  CHECK(by("hints", 2) == std::vector<std::string>{"a/2", "b/4", "b/2", "-/4"});
  CHECK_THROWS_WITH_AS(
      query::group_rows(t, "size"),
      "unknown --by key 'size' (known: T, hints, queue_depth, partition, nodes, ppn, env)",
      UsageError);
  CHECK_THROWS_WITH_AS(query::group_rows(t, "queue_depth"),
                       "--by queue_depth: this table has no such column (it groups by: T, hints, "
                       "partition)",
                       UsageError);
}

TEST_CASE("gnuplot_script: the page's width, a legible font, bandwidths from 0, hollow not valid") {
  Figure f;
  f.name = "bw";
  f.title = "bandwidth";
  Panel p;
  p.title = "only panel";
  p.y_from_zero = true;
  Series s;
  s.title = "rings of 2 (3\u00d72+1)";
  s.points = {{1, 10}, {2, 20}, {4, 30}};
  s.valid = {true, false, true};
  p.series.push_back(s);
  f.panels.push_back(p);
  const auto script = gnuplot_script(f, "/d/bw.dat", "/d/bw.svg");
  const auto l = lines(script);
  const auto layout = figure_layout(f);
  CHECK(layout.columns == 1);
  CHECK(layout.font_size >= 14);
  CHECK(l.at(0) == "set terminal svg noenhanced size " + std::to_string(kFigureWidth) + "," +
                       std::to_string(layout.height) + " font 'sans," +
                       std::to_string(layout.font_size) + "' background '#ffffff'");
  CHECK(kFigureWidth >= 1200);
  CHECK(std::count(l.begin(), l.end(), "set yrange [0:*]") == 1);
  CHECK(std::count(l.begin(), l.end(), "set title ''") == 1);  // one panel: the page titles it
  // Filled marks where valid, hollow (pt 6) where not, and a key entry for the hollow marker.
  CHECK(script.find("using 1:($3>0?$2:1/0) with points pt 7") != std::string::npos);
  CHECK(script.find("using 1:($3>0?1/0:$2) with points pt 6") != std::string::npos);
  CHECK(script.find("title '" + std::string(kNotValidKey) + "'") != std::string::npos);
  // All valid: no hollow marks and no key entry for them.
  f.panels[0].series[0].valid.clear();
  const auto valid = gnuplot_script(f, "/d/bw.dat", "/d/bw.svg");
  CHECK(valid.find("pt 6") == std::string::npos);
  CHECK(valid.find(kNotValidKey) == std::string::npos);
  // Three panels: two columns, two rows, each panel titled.
  f.panels = {p, p, p};
  CHECK(figure_layout(f).columns == 2);
  CHECK(figure_layout(f).rows == 2);
  CHECK(figure_layout(f).height > layout.height);
  CHECK(lines(gnuplot_script(f, "d", "s"))[5] == "set multiplot layout 2,2");
  CHECK(gnuplot_script(f, "d", "s").find("set title 'only panel'") != std::string::npos);
}

TEST_CASE("gnuplot_script: a link matrix of 16 nodes one panel a row, every name and value") {
  const auto matrix = [](std::size_t nodes) {
    Figure f;
    f.name = "links-" + std::to_string(nodes);
    for (const char* kind : {"bandwidth [MB/s]", "latency [us]"}) {
      Heatmap h;
      for (std::size_t i = 1; i <= nodes; ++i) h.rows.push_back("node" + std::to_string(i));
      h.columns = h.rows;
      h.values.assign(nodes, std::vector<double>(nodes, 1234));
      h.value_label = kind;
      Panel p;
      p.title = kind;
      p.heatmap = h;
      f.panels.push_back(p);
    }
    return f;
  };
  // Four nodes: side by side, as before.
  CHECK(figure_layout(matrix(4)).columns == 2);
  // Sixteen: one panel a row, cells wide enough for four digits, every name on both axes.
  const auto sixteen = matrix(16);
  const auto layout = figure_layout(sixteen);
  CHECK(layout.columns == 1);
  CHECK(layout.rows == 2);
  const auto scale = heatmap_scale(16);
  CHECK(scale.values_written);
  CHECK(scale.label_every == 1);
  CHECK(layout.height >= static_cast<std::size_t>(2 * 16 * scale.cell_px));
  const auto script = gnuplot_script(sixteen, "d", "s");
  CHECK(script.find("'node16' 15") != std::string::npos);
  CHECK(script.find("with labels font") != std::string::npos);
  // Sixty-four: no values in the cells, every other name, so names never overlap (>= 1.4 font
  // sizes apart).
  const auto wide = heatmap_scale(64);
  CHECK_FALSE(wide.values_written);
  CHECK(wide.label_every == 2);
  CHECK(wide.cell_px * static_cast<double>(wide.label_every) >= 1.4 * layout.font_size);
  const auto many = gnuplot_script(matrix(64), "d", "s");
  CHECK(many.find("'node1' 0, 'node3' 2") != std::string::npos);
  CHECK(many.find("'node2' 1") == std::string::npos);
  CHECK(many.find("with labels font") == std::string::npos);
}

TEST_CASE("ring_label: the layout of a ring pattern, as METHODS.md's test vectors say it") {
  CHECK(ring_label("2,2,3") == "rings of 2 (3\u00d72+1)");            // 7 processes, pattern 1
  CHECK(ring_label("7") == "one ring of 7");                          // 7 processes, 2 to 6
  CHECK(ring_label("4,4,4,4,4,4,4,5") == "rings of 4 (8\u00d74+1)");  // 33 processes
  CHECK(ring_label("50,50") == "rings of 50 (2\u00d750)");            // 100 processes
  CHECK(ring_label("4,4,3") == "rings of 4 (3\u00d74\u22121)");       // the larger rings first
  CHECK(ring_label("") == "");
  CHECK(ring_label("2,x") == "");
  CHECK(ring_label("0") == "");
}

TEST_CASE("comm_figures: ring curves named by layout, same layouts one curve, hollow not valid") {
  auto m = nlohmann::json{{"patterns", table({"pattern", "kind", "ring_sizes", "in_b_eff"},
                                             {{"ring1:3*2&+1", "ring", "2,2,3", true},
                                              {"ring2:1*7", "ring", "7", true},
                                              {"ring3:1*7", "ring", "7", true},
                                              {"random1", "random", "7", true}})},
                          {"measurements", table({"pattern", "l", "method", "bandwidth"},
                                                 {{"ring1:3*2&+1", 1, "sendrecv", 1e6},
                                                  {"ring2:1*7", 1, "sendrecv", 2e6},
                                                  {"ring3:1*7", 1, "sendrecv", 5e6},
                                                  {"random1", 1, "sendrecv", 3e6}})}};
  auto r = stored(7, m);
  r.valid = false;
  const auto figures = comm_figures({r});
  REQUIRE(figures.size() == 1);
  const auto& panel = figures[0].panels.at(0);
  CHECK(panel.bandwidth_axis);
  CHECK(panel.y_from_zero);
  CHECK(!panel.log_y);
  const auto& s = panel.series;
  REQUIRE(s.size() == 3);
  CHECK(s[0].title == "rings of 2 (3\u00d72+1)");
  CHECK(s[1].title == "one ring of 7, patterns 2,3");
  CHECK(s[1].points == std::vector<std::pair<double, double>>{{1, 5}});  // the best of the two
  CHECK(s[2].title == "random (log mean of 1 patterns)");
  for (const auto& series : s) CHECK(!series.point_valid(0));
  CHECK(figures[0].caption.find("not valid") != std::string::npos);
}

TEST_CASE("comm_scaling_figure: b_eff and b_eff per process against processes, max row left out") {
  query::QueryTable t;
  t.columns = {column("row"), column("partition"), column("b_eff", "B/s"),
               column("b_eff_per_process", "B/s"), column("valid")};
  t.rows = {{std::string("partition"), std::int64_t{2}, 4e6, 2e6, std::string("yes")},
            {std::string("partition"), std::int64_t{4}, 6e6, 1.5e6, std::string("no")},
            {std::string("partition"), std::int64_t{16}, query::Cell{}, query::Cell{},
             std::string("yes")},
            {std::string("max"), std::int64_t{4}, 6e6, 1.5e6, std::string("no")}};
  const auto f = comm_scaling_figure(t);
  REQUIRE(f.panels.size() == 2);
  CHECK(f.panels[0].y_label == "b_eff [MB/s]");
  CHECK(f.panels[1].y_label == "b_eff per process [MB/s]");
  const auto& total = f.panels[0].series.at(0);
  const auto& per = f.panels[1].series.at(0);
  REQUIRE(total.points.size() == 3);
  CHECK(total.points[0] == std::pair<double, double>{2, 4});
  CHECK(total.points[1] == std::pair<double, double>{4, 6});
  CHECK(std::isnan(total.points[2].second));  // no b_eff at 16: a gap, not 0
  CHECK(per.points[1] == std::pair<double, double>{4, 1.5});
  CHECK(per.point_valid(0));
  CHECK(!per.point_valid(1));
  CHECK(f.panels[0].bandwidth_axis);
  CHECK(f.panels[0].log_x);  // 2 to 16 processes: a factor of 8 or more
  CHECK(f.panels[0].x_tics.size() == 3);
}

TEST_CASE("HtmlPage: the provenance header, a table of contents of sections and figures") {
  HtmlPage page("report");
  page.header({{"hosts", "n1, <n2>"}});
  page.heading("comm: b_eff", "comm");
  page.list("1 of 2 results not valid:", {"point p2 (2 processes): too <short>"}, "not-valid");
  page.list("none", {}, "not-valid");
  page.figure("comm-scaling.svg", "scaling", "caption", 1240, 500);
  page.heading("io: consortium", "consortium");
  const auto html = page.html();
  CHECK(html.find("<dt>hosts</dt><dd>n1, &lt;n2&gt;</dd>") != std::string::npos);
  const auto nav = html.find("<nav class=\"contents\">");
  REQUIRE(nav != std::string::npos);
  CHECK(nav < html.find("<h2 id=\"comm\">"));
  CHECK(html.find("<li><a href=\"#comm\">comm: b_eff</a><ul><li><a href=\"#comm-scaling\">"
                  "scaling</a></li></ul></li>") != std::string::npos);
  CHECK(html.find("<li><a href=\"#consortium\">io: consortium</a></li>") != std::string::npos);
  CHECK(html.find("<figure id=\"comm-scaling\"><h3>scaling</h3>") != std::string::npos);
  CHECK(html.find("<li>point p2 (2 processes): too &lt;short&gt;</li>") != std::string::npos);
  CHECK(html.find("<p>none</p>") == std::string::npos);  // an empty list is left out
  REQUIRE(page.contents().size() == 2);
}

TEST_CASE("provenance: the specification as rows per worker, versions with git describe, jobs") {
  pbench::sweep::SweepSpec spec;
  spec.name = "r";
  spec.workers = {"comm", "io"};
  spec.partitions = {1, pbench::sweep::Partition::shape(2, 2)};
  spec.set_values("schedule_time", nlohmann::json::array({0.5, 60}));
  spec.set_values("hints", nlohmann::json::array({"", "cb_nodes=1"}));
  spec.settings = {{"comm", {{"repetitions", "1"}}}, {"io", {{"memory_per_proc", "1"}}}};
  spec.account = "proj";
  using Rows = std::vector<std::pair<std::string, std::string>>;
  // Issue 39: no raw JSON, and no queue depths for a sweep without logp.
  CHECK(spec_rows(spec.to_json().dump()) ==
        Rows{{"sweep", "r: partitions 1, 2x2; launcher mpiexec -n {n}; account proj"},
             {"comm", "settings repetitions=1"},
             {"io", "T 0.5 s, 60 s; hints - | cb_nodes=1; settings memory_per_proc=1"}});
  spec.workers = {"logp"};
  spec.settings.clear();
  pbench::sweep::Environment env;
  env.name = "mpich";
  env.worker_dir = "/opt/pbench/libexec/pbench/mpich";
  spec.environments = {env};
  const auto env_rows = spec_rows(spec.to_json().dump());
  REQUIRE(env_rows.size() == 3);
  CHECK(env_rows[0].second == "r: partitions 1, 2x2; account proj");
  CHECK(env_rows[1] == std::pair<std::string, std::string>{
                           "logp", "queue depths 1, 8, 64; the method's settings"});
  CHECK(env_rows[2] ==
        std::pair<std::string, std::string>{
            "environments",
            "mpich: workers in /opt/pbench/libexec/pbench/mpich, launcher mpiexec -n {n}"});
  for (const auto& [label, text] : env_rows) CHECK(text.find('{') == text.find("{n}"));
  CHECK(spec_rows("not json") == Rows{{"sweep", "not json"}});
  Provenance p;
  p.sweep = "r";
  spec.environments.clear();
  p.spec_json = spec.to_json().dump();
  p.scheduler = "slurm";
  p.created_at = "2026-11-23T18:00:00Z";
  p.hosts = {"n1", "n2"};
  p.mpi_versions = {"MPICH Version: 4.0.2"};
  p.worker_versions = {"0.1.0+v0.1-5-gabc"};
  p.job_ids = {"11", "12"};
  p.first_start = "2026-11-23T18:01:00Z";
  p.last_end = "2026-11-23T18:02:00Z";
  p.results = 2;
  const auto rows = provenance_rows(p, "0.1.0+v0.1-6-gdef-dirty");
  auto row = [&](const std::string& label) {
    for (const auto& [l, text] : rows)
      if (l == label) return text;
    return std::string("(missing)");
  };
  CHECK(row("sweep") == "r: partitions 1, 2x2; launcher mpiexec -n {n}; account proj");
  CHECK(row("logp") == "queue depths 1, 8, 64; the method's settings");
  CHECK(row("scheduler") == "slurm, 2 jobs: 11, 12");
  CHECK(row("hosts") == "n[1-2] (2 hosts)");
  CHECK(row("MPI library") == "MPICH Version: 4.0.2");
  CHECK(row("pbench") ==
        "report by 0.1.0 (git describe v0.1-6-gdef-dirty); results by 0.1.0 "
        "(git describe v0.1-5-gabc)");
  CHECK(row("dates") ==
        "sweep created 2026-11-23T18:00:00Z; 2 results from "
        "2026-11-23T18:01:00Z to 2026-11-23T18:02:00Z");
  // Sixteen nodes in one compressed host list, not node by node.
  p.hosts.clear();
  for (int i = 1; i <= 16; ++i) p.hosts.push_back("node" + std::to_string(i));
  std::sort(p.hosts.begin(), p.hosts.end());  // as read_provenance gives them
  std::string sixteen = "(missing)";
  for (const auto& [label, text] : provenance_rows(p, "0.1.0"))
    if (label == "hosts") sixteen = text;
  CHECK(sixteen == "node[1-16] (16 hosts)");
  p.hosts.clear();
  p.job_ids.clear();
  const auto empty = provenance_rows(p, "0.1.0");
  const auto text_of = [&](const std::string& label) {
    for (const auto& [l, text] : empty)
      if (l == label) return text;
    return std::string("(missing)");
  };
  CHECK(text_of("scheduler") == "slurm, no job submitted");
  CHECK(text_of("hosts") == "- (no stored result)");
}

TEST_CASE("not_valid_text: the point, its processes and the worker's reasons") {
  auto r = stored(2, nlohmann::json::object());
  r.document["validity"] = {{"valid", false}, {"reasons", {"T too short", "1 sample"}}};
  CHECK(not_valid_text(r) == "point p2 (2 processes): T too short; 1 sample");
  auto one = stored(1, nlohmann::json::object());
  CHECK(not_valid_text(one) == "point p1 (1 process): no reason stored");
}

TEST_CASE("report: the headlines are valid, or the best not valid one marked with its reason") {
  using testing::document;
  using testing::metric;
  const std::string impossible =
      "size 8 B: physically impossible: OL (task 1) = -4.67 us is not positive: RTL_i/2 exceeded "
      "E_i, the round trips were disturbed";
  testing::Fixture f;
  f.add_sweep("r", {{"comm", 2}, {"comm", 4}, {"bcast", 2}});
  // The larger b_eff is not valid: the page's headline is the valid one on 2 processes.
  f.add_run(0, document("comm", 2, nlohmann::json::array({metric("b_eff", 1e9, "B/s")}), true));
  f.add_run(1, document("comm", 4, nlohmann::json::array({metric("b_eff", 9e9, "B/s")}), false));
  // No valid OL: the negative one is shown, marked with its first reason.
  auto ol =
      document("bcast", 2, nlohmann::json::array({metric("ol", -4.67e-6, "s", {{"size", 8}})}),
               false, {{"impl", testing::setting("mpi")}});
  ol["validity"]["reasons"] = {impossible};
  f.add_run(2, ol);

  const auto dir = std::filesystem::temp_directory_path() /
                   ("pbench-report-headline-" + std::to_string(::getpid()));
  DrawingRunner runner;
  const auto summary = ReportWriter(f.store, runner).write("r", dir);
  std::ifstream in(summary.index);
  const std::string html{std::istreambuf_iterator<char>(in), {}};
  std::filesystem::remove_all(dir);
  // The system section's rows: the b_eff row names partition 2 and is valid.
  const auto row_of = [&](const std::string& figure) {
    const auto start = html.find("<tr><td>r</td><td>" + figure + "</td>");
    REQUIRE(start != std::string::npos);
    return html.substr(start, html.find("</tr>", start) - start);
  };
  const auto b_eff = row_of("b_eff");
  CHECK(b_eff.find("<td class=\"num\">2</td>") != std::string::npos);
  CHECK(b_eff.find("<td>yes</td>") != std::string::npos);
  const auto bcast = row_of("bcast_ol");
  // The reason shortened in the cell, whole in its tooltip (and in the notes below).
  // (The cell's text may break after '_', '/' and ',': <wbr> between its words.)
  std::string cell = bcast.substr(bcast.find("<td>no</td><td title=\"" + impossible + "\">"));
  cell = cell.substr(0, cell.find("</td>", cell.find("\">")));
  for (std::size_t at; (at = cell.find("<wbr>")) != std::string::npos;) cell.erase(at, 5);
  CHECK(cell == "<td>no</td><td title=\"" + impossible + "\">" + query::shortened(impossible, 80));
  CHECK(html.find("<li>sweep r: bcast_ol on 2 processes: no result is valid; shown is the best of "
                  "the not valid ones (not valid: " +
                  impossible + ")</li>") != std::string::npos);
}
