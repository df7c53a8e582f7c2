#pragma once
// Each worker's part of the report, described once per worker and suite (as its sweep
// dimensions are in sweep/WorkerCatalog.cpp and its query table in query/WorkerQueries.cpp): the
// section's anchor and title, the table it shows (query WORKER --suite S), which of the worker's
// newest results it draws, and its figures. The report writes a section for each entry whose
// worker the sweep ran; a worker's new figure is one more line in its entry.
#include <functional>
#include <string>
#include <vector>

#include "query/QueryTable.hpp"
#include "report/EnvironmentLabels.hpp"
#include "report/Figure.hpp"
#include "report/StoredResult.hpp"
#include "store/Store.hpp"

namespace pbench::report {

/// What a worker's figures are drawn from.
struct WorkerSectionInput {
  store::Store& store;
  const std::string& sweep;
  const query::QueryTable& table;            ///< the section's table
  const std::vector<StoredResult>& results;  ///< the newest results the section shows
  const EnvironmentLabels& envs;             ///< how the figures name the environments
};

struct WorkerReport {
  std::string id;      ///< the section's anchor in the page (the worker, or its suite)
  std::string worker;  ///< the worker whose points and results the section shows
  std::string title;
  std::string suite;  ///< the table's suite (query WORKER --suite); "" for the worker's only one
  /// Which of the worker's newest results the section shows; every one when empty. A section
  /// with a filter is written only when a result passes it (a sweep of io's consortium suite
  /// alone has no b_eff_io section).
  std::function<bool(const StoredResult&)> shows;
  std::function<std::vector<Figure>(const WorkerSectionInput&)> figures;
};

/// Every worker's sections, in the order the page shows them (the worker catalog's order).
const std::vector<WorkerReport>& worker_reports();

}  // namespace pbench::report
