#include "report/ReportWriter.hpp"

#include <algorithm>
#include <fstream>
#include <set>

#include "query/PointsQuery.hpp"
#include "query/SystemQuery.hpp"
#include "query/WorkerQueries.hpp"
#include "report/GnuplotFigure.hpp"
#include "report/HtmlPage.hpp"
#include "report/StoredResult.hpp"
#include "report/TextSafety.hpp"
#include "report/WorkerFigures.hpp"
#include "util/Error.hpp"

namespace pbench::report {
namespace {

/// Draws each figure with data and puts it on the page; a figure without data is a "no data"
/// paragraph in its place.
class FigureSink {
 public:
  FigureSink(HtmlPage& page, GnuplotFigure& gnuplot, const std::filesystem::path& dir,
             ReportSummary& summary)
      : page_(page), gnuplot_(gnuplot), dir_(dir), summary_(summary) {}

  void add(Figure figure) {
    // A unique file name.
    std::string stem = file_stem(figure.name);
    if (stem.empty()) stem = "figure";
    std::string name = stem;
    for (int i = 2; !names_.insert(name).second; ++i) name = stem + "-" + std::to_string(i);
    figure.name = name;
    if (!figure.has_data()) {
      const auto text = "no data: " + figure.title + ". " + figure.caption;
      page_.paragraph(text, "no-data");
      summary_.no_data.push_back(figure.title);
      return;
    }
    gnuplot_.draw(figure, dir_);
    page_.figure(name + ".svg", figure.title, figure.caption);
    summary_.figures.push_back(name + ".svg");
  }

 private:
  HtmlPage& page_;
  GnuplotFigure& gnuplot_;
  std::filesystem::path dir_;
  ReportSummary& summary_;
  std::set<std::string> names_;
};

}  // namespace

ReportSummary ReportWriter::write(const std::string& sweep, const std::filesystem::path& dir_in) {
  const auto record = store_.find_sweep(sweep);
  if (!record) throw UsageError("no sweep named '" + sweep + "'");
  require_gnuplot();
  std::error_code ec;
  const auto dir = std::filesystem::absolute(dir_in, ec);
  if (ec) throw UsageError("report directory '" + dir_in.string() + "': " + ec.message());
  if (printable_utf8(dir.string()) != dir.string())
    throw UsageError("report directory '" + printable_utf8(dir.string()) +
                     "': the path must be printable UTF-8 (no control characters)");
  if (std::filesystem::exists(dir) && !std::filesystem::is_directory(dir))
    throw UsageError("report directory '" + dir.string() + "' exists and is not a directory");
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw UsageError("cannot create report directory '" + dir.string() + "': " + ec.message());

  ReportSummary summary;
  GnuplotFigure gnuplot(runner_);
  HtmlPage page("pbench report: sweep " + sweep);
  FigureSink figures(page, gnuplot, dir, summary);
  const auto workers = sweep_workers(store_, sweep);
  auto in_sweep = [&](const std::string& w) {
    return std::find(workers.begin(), workers.end(), w) != workers.end();
  };
  auto no_data = [&](const std::string& what) {
    page.paragraph("no data: " + what, "no-data");
    summary.no_data.push_back(what);
  };

  const auto points = query::points_table(store_, sweep, false);
  const auto missing = query::points_table(store_, sweep, true);
  page.paragraph("Sweep " + sweep + " (scheduler " + record->scheduler + ", created " +
                 record->created_at + "): " + std::to_string(points.rows.size()) + " points, " +
                 std::to_string(points.rows.size() - missing.rows.size()) +
                 " with a stored result. Values are the newest result of each point; 'valid' "
                 "says whether a result meets its method's rules.");

  page.heading("System", "system");
  page.table(query::system_table(store_, sweep, {}));
  page.heading("Cells without a result", "missing");
  if (missing.rows.empty()) {
    page.paragraph("Every cell of the sweep's grid has a stored result.");
  } else {
    page.table(missing);
  }

  page.heading("logp: LogP parameters", "logp");
  if (!in_sweep("logp")) {
    no_data("logp: the sweep has no logp points");
  } else {
    const auto table = query::find_worker_query("logp")->table(store_, sweep);
    page.table(table);
    figures.add(logp_gap_figure(table));
    for (auto& f : logp_size_figures(newest_results(store_, sweep, "logp"))) figures.add(f);
  }

  page.heading("comm: b_eff", "comm");
  if (!in_sweep("comm")) {
    no_data("comm: the sweep has no comm points");
  } else {
    page.table(query::find_worker_query("comm")->table(store_, sweep));
    for (auto& f : comm_figures(newest_results(store_, sweep, "comm"))) figures.add(f);
  }

  page.heading("io: b_eff_io", "io");
  const auto io_results =
      in_sweep("io") ? newest_results(store_, sweep, "io") : std::vector<StoredResult>{};
  const bool any_consortium =
      std::any_of(io_results.begin(), io_results.end(), [](auto& r) { return is_consortium(r); });
  const bool any_beff_io =
      std::any_of(io_results.begin(), io_results.end(), [](auto& r) { return !is_consortium(r); });
  if (!in_sweep("io")) {
    no_data("io: the sweep has no io points");
  } else {
    const auto table = query::find_worker_query("io")->table(store_, sweep);
    page.table(table);
    if (!any_beff_io && any_consortium) {
      no_data("b_eff_io: every io result of this sweep ran the consortium suite");
    } else {
      figures.add(io_partition_figure(table));
      for (auto& f : io_pattern_figures(io_results)) figures.add(f);
    }
  }

  page.heading("io: consortium suite", "consortium");
  if (!any_consortium) {
    no_data("consortium suite: no io result of this sweep ran it (pbench-io --suite consortium)");
  } else {
    figures.add(consortium_figure(io_results));
  }

  page.heading("bcast: broadcast latency", "bcast");
  if (!in_sweep("bcast")) {
    no_data("bcast: the sweep has no bcast points");
  } else {
    const auto table = query::find_worker_query("bcast")->table(store_, sweep);
    page.table(table);
    for (auto& f : bcast_figures(table)) figures.add(f);
  }

  summary.index = dir / "index.html";
  const auto temporary = dir / "index.html.tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << page.html();
    if (!out.flush()) throw UsageError("cannot write '" + temporary.string() + "'");
  }
  std::filesystem::rename(temporary, summary.index);
  return summary;
}

}  // namespace pbench::report
