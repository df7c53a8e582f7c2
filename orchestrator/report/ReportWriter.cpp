#include "report/ReportWriter.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include "common/NodeCores.hpp"
#include "query/ClusterSweep.hpp"
#include "query/HistoryQuery.hpp"
#include "query/ModelQuery.hpp"
#include "query/PointsQuery.hpp"
#include "query/ResultValidity.hpp"
#include "query/SystemQuery.hpp"
#include "query/WorkerQueries.hpp"
#include "report/ChargedTable.hpp"
#include "report/EnvironmentLabels.hpp"
#include "report/FigureRules.hpp"
#include "report/GnuplotFigure.hpp"
#include "report/HistoryFigures.hpp"
#include "report/HtmlPage.hpp"
#include "report/Provenance.hpp"
#include "report/StoredResult.hpp"
#include "report/WorkerFigures.hpp"
#include "report/WorkerReport.hpp"
#include "util/Error.hpp"
#include "util/NumberText.hpp"
#include "util/TextSafety.hpp"

namespace pbench::report {
namespace {

/// Draws each figure with data and puts it on the page; a figure without data is a "no data"
/// paragraph in its place. Bandwidth axes follow the report's options, then every figure the
/// rules of FigureRules.
class FigureSink {
 public:
  FigureSink(HtmlPage& page, GnuplotFigure& gnuplot, const std::filesystem::path& dir,
             const ReportOptions& options, ReportSummary& summary)
      : page_(page), gnuplot_(gnuplot), dir_(dir), options_(options), summary_(summary) {}

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
    for (auto& panel : figure.panels) {
      if (!panel.bandwidth_axis) continue;
      panel.log_y = options_.log_bandwidth;
      panel.y_from_zero = !options_.log_bandwidth;
    }
    // How every figure reads (report/FigureRules.hpp): log axes over decades, a panel per
    // environment orders apart, whole-number tics, a colour per environment, a marker per kind.
    FigureRules::apply(figure);
    gnuplot_.draw(figure, dir_);
    const auto layout = figure_layout(figure);
    page_.figure(name + ".svg", figure.title, figure.caption, kFigureWidth, layout.height);
    summary_.figures.push_back(name + ".svg");
  }

 private:
  HtmlPage& page_;
  GnuplotFigure& gnuplot_;
  std::filesystem::path dir_;
  const ReportOptions& options_;
  ReportSummary& summary_;
  std::set<std::string> names_;
};

/// What the sections read: the sweep's workers and its stored results.
struct SweepData {
  store::Store& store;
  std::string sweep;
  std::vector<std::string> workers;
  EnvironmentLabels envs;  ///< how the figures name the environments (--envs)
  /// The newest result of each point of each worker the sweep ran.
  std::map<std::string, std::vector<StoredResult>> results;
  bool ran(const std::string& worker) const {
    return std::find(workers.begin(), workers.end(), worker) != workers.end();
  }
  /// The results of `report`'s worker that its section shows.
  std::vector<StoredResult> shown(const WorkerReport& report) const {
    const auto found = results.find(report.worker);
    if (found == results.end()) return {};
    if (!report.shows) return found->second;
    std::vector<StoredResult> out;
    for (const auto& r : found->second) {
      if (report.shows(r)) out.push_back(r);
    }
    return out;
  }
  /// Whether `report`'s section has a result to show (any, for an entry without a filter).
  bool shows_any(const WorkerReport& report) const {
    const auto found = results.find(report.worker);
    return found != results.end() &&
           (!report.shows || std::any_of(found->second.begin(), found->second.end(), report.shows));
  }
};

/// The reasons of the results that are not valid, as a list next to a table.
void not_valid_list(HtmlPage& page, const std::vector<StoredResult>& results) {
  std::vector<std::string> items;
  std::vector<std::string> oversubscribed;  // said once, after the list
  for (const auto& r : results) {
    if (r.valid) continue;
    items.push_back(not_valid_text(r));
    for (const auto& reason : query::validity_reasons(r.document)) {
      if (worker::is_oversubscription_reason(reason)) oversubscribed.push_back(reason);
    }
  }
  const std::size_t not_valid = items.size();
  if (!oversubscribed.empty()) {
    items.push_back(std::to_string(oversubscribed.size()) +
                    " of these results oversubscribed (more ranks on a node than cores they may "
                    "use; each result's node_cores lists its nodes), the worst " +
                    *worker::worst_oversubscription(oversubscribed));
  }
  page.list(std::to_string(not_valid) + " of " + std::to_string(results.size()) +
                " results not valid (hollow markers in the figures), with the reasons their "
                "worker gave:",
            items, "not-valid");
}

/// One section of the page: written, and listed in the contents, only when the sweep has what
/// it shows. A new section is one more entry in sections().
struct Section {
  std::string id;
  std::string title;
  std::function<bool(const SweepData&)> present;
  std::function<void(const SweepData&, HtmlPage&, FigureSink&)> write;
};

/// The section of a worker's report entry (WorkerReport.cpp) when the sweep ran the worker (and,
/// for an entry that shows some of its results, has one of them): its table (query WORKER
/// --suite S), the reasons of its results that are not valid, and its figures.
Section worker_section(const WorkerReport& report) {
  return {report.id, report.title,
          [&report](const SweepData& d) {
            return d.ran(report.worker) && (!report.shows || d.shows_any(report));
          },
          [&report](const SweepData& d, HtmlPage& page, FigureSink& figures) {
            const auto* query = query::find_worker_query(report.worker);
            const auto table = query::suite_table(*query, report.suite)(d.store, d.sweep);
            const auto results = d.shown(report);
            page.table(table);
            not_valid_list(page, results);
            for (auto& f : report.figures({d.store, d.sweep, table, results, d.envs}))
              figures.add(std::move(f));
          }};
}

/// The section "LogGP model": the figures predicted from the sweep's logp parameters that differ
/// from what was measured, with their readings.
void write_model_section(const SweepData& d, HtmlPage& page, FigureSink&) {
  // The figures outside the band, with their readings; the notes say the band and the
  // logp parameters (pbench query model SWEEP has every row).
  query::QueryTable table;
  try {
    table = query::model_table(d.store, d.sweep);
  } catch (const UsageError& e) {  // its logp points have no result (nor has the store)
    page.paragraph(std::string("No prediction: ") + e.what() + ".");
    return;
  }
  std::size_t reading = 0;
  while (reading < table.columns.size() && table.columns[reading].key != "reading") ++reading;
  const std::size_t all = table.rows.size();
  std::erase_if(table.rows, [&](const std::vector<query::Cell>& row) {
    const auto* text = std::get_if<std::string>(&row[reading]);
    return text && *text == "agrees";
  });
  page.paragraph(std::to_string(all - table.rows.size()) + " of " + std::to_string(all) +
                 " figures predicted from the LogGP parameters of the sweep agree with what was "
                 "measured within the band; " +
                 (table.rows.empty() ? std::string("none differs.")
                                     : "those that differ, with a reading of why:") +
                 " Every row: pbench query model " + d.sweep + " (docs/model.md).");
  page.table(table);
}

std::vector<Section> sections() {
  std::vector<Section> out = {
      {"system", "System: the headline figures", [](const SweepData&) { return true; },
       [](const SweepData& d, HtmlPage& page, FigureSink&) {
         page.table(query::system_table(d.store, d.sweep, {}));
       }},
      {"missing", "Cells without a result", [](const SweepData&) { return true; },
       [](const SweepData& d, HtmlPage& page, FigureSink&) {
         const auto missing = query::points_table(d.store, d.sweep, true);
         if (missing.rows.empty()) {
           page.paragraph("Every cell of the sweep's grid has a stored result.");
         } else {
           page.table(missing);
         }
       }},
  };
  for (const auto& report : worker_reports()) out.push_back(worker_section(report));
  out.push_back({"model", "LogGP model: predicted against measured",
                 [](const SweepData& d) {
                   return d.ran("logp") && (d.ran("comm") || d.ran("bcast") || d.ran("links"));
                 },
                 write_model_section});
  return out;
}

/// The section "By cluster" of a sweep that the store holds from other clusters too (its base
/// name: pbench store merge): query system --by cluster, and each headline figure's history
/// with a series per cluster. Nothing for a sweep of one cluster.
void cluster_section(store::Store& store, const std::string& sweep, HtmlPage& page,
                     FigureSink& figures, ReportSummary& summary) {
  const auto sweeps = query::cluster_sweeps(store, sweep);
  if (sweeps.size() < 2) return;
  page.heading("By cluster", "clusters");
  summary.sections.push_back("clusters");
  std::string names;
  std::map<std::string, std::string> labels;
  std::vector<query::QueryTable> systems, histories;
  for (const auto& s : sweeps) {
    names += (names.empty() ? "" : ", ") + s.sweep + " (cluster " + s.cluster + ")";
    labels[s.cluster] = "cluster " + s.cluster;
    store.choose_run(store::RunChoice::latest());
    systems.push_back(query::system_table(store, s.sweep, {}));
    histories.push_back(query::history_table(store, s.sweep, std::nullopt, {}));
  }
  page.paragraph("The same sweep on " + std::to_string(sweeps.size()) + " clusters: " + names +
                 ". Their headline figures in the latest run side by side (pbench query system "
                 "--sweep " +
                 sweep + " --by cluster), then each run's (pbench history " + sweep +
                 " --by cluster).");
  page.table(query::by_cluster(sweeps, std::move(systems), "sweep", true));
  const auto history = query::by_cluster(sweeps, std::move(histories), "run", true);
  for (auto& f : history_figures(history, EnvironmentLabels(labels), true)) figures.add(f);
}

/// The section "Cost": per run, worker and partition the node-hours planned when the run
/// started against those charged (pbench history NAME --times), with each run's sums first.
/// Nothing for a sweep none of whose points has ended with a charge.
void cost_section(store::Store& store, const std::string& sweep, process::ProcessRunner& runner,
                  HtmlPage& page, ReportSummary& summary) {
  query::QueryTable table;
  try {
    table = charged_table(store, sweep, runner);
  } catch (const std::exception& e) {
    // A sweep whose stored specification cannot be planned again (written by hand or by an
    // older pbench): the rest of the report stands, and the page says why this section is not.
    page.heading("Cost: planned against charged", "cost");
    summary.sections.push_back("cost");
    page.paragraph(
        "no data: the node-hours planned against charged, since the sweep's stored "
        "specification cannot be planned again (" +
            std::string(e.what()) + ").",
        "no-data");
    return;
  }
  struct Sums {
    double planned = 0, charged = 0;
    std::int64_t points = 0, charged_points = 0;
    std::set<std::string> from;
  };
  std::map<std::int64_t, Sums> runs;
  for (const auto& row : table.rows) {
    auto& sums = runs[std::get<std::int64_t>(row[0])];
    sums.points += std::get<std::int64_t>(row[3]);
    sums.planned += std::get<double>(row[4]);
    if (const auto* charged = std::get_if<double>(&row[5])) sums.charged += *charged;
    sums.charged_points += std::get<std::int64_t>(row[6]);
    if (const auto* from = std::get_if<std::string>(&row[7])) sums.from.insert(*from);
  }
  const bool any = std::any_of(runs.begin(), runs.end(),
                               [](const auto& run) { return run.second.charged_points > 0; });
  if (!any) return;
  page.heading("Cost: planned against charged", "cost");
  summary.sections.push_back("cost");
  std::string text;
  for (const auto& [run_no, sums] : runs) {
    std::string from;
    for (const auto& f : sums.from) from += (from.empty() ? "" : "; ") + f;
    text += "Run " + std::to_string(run_no) + ": " + plain_significant(sums.planned, 4) +
            " node-hours planned for " + std::to_string(sums.points) + " points, " +
            plain_significant(sums.charged, 4) + " charged for the " +
            std::to_string(sums.charged_points) + " that ended" +
            (from.empty() ? std::string() : " (from " + from + ")") + ". ";
  }
  page.paragraph(text + "By worker and partition: pbench history " + sweep + " --times.");
  page.table(table);
}

}  // namespace

ReportSummary ReportWriter::write(const std::string& sweep, const std::filesystem::path& dir_in,
                                  const ReportOptions& options) {
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
  FigureSink figures(page, gnuplot, dir, options, summary);

  SweepData data{
      store_, sweep, sweep_workers(store_, sweep), EnvironmentLabels::read(store_, sweep), {}};
  for (const auto& worker : data.workers)
    data.results[worker] = newest_results(store_, sweep, worker);

  const auto points = query::points_table(store_, sweep, false);
  const auto missing = query::points_table(store_, sweep, true);
  auto header = provenance_rows(read_provenance(store_, sweep), PBENCH_VERSION);
  header.emplace_back(
      "points", std::to_string(points.rows.size()) +
                    (points.rows.size() == 1 ? " point, " : " points, ") +
                    std::to_string(points.rows.size() - missing.rows.size()) +
                    " with a stored result. Values are the newest result of each point; 'valid' "
                    "says whether a result meets its method's rules.");
  page.header(header);

  for (const auto& section : sections()) {
    if (!section.present(data)) continue;
    page.heading(section.title, section.id);
    summary.sections.push_back(section.id);
    section.write(data, page, figures);
  }
  // A sweep run more than once (pbench run NAME --again): its headline figures run by run.
  if (store_.runs(record->id).size() > 1) {
    page.heading("History", "history");
    summary.sections.push_back("history");
    const auto history = query::history_table(store_, sweep, std::nullopt, {});
    page.table(history);
    for (auto& f : history_figures(history, data.envs)) figures.add(f);
  }

  // The same sweep on other clusters (pbench store merge): its headline side by side.
  cluster_section(store_, sweep, page, figures, summary);
  // What the sweep's runs cost against their plan.
  cost_section(store_, sweep, runner_, page, summary);

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
