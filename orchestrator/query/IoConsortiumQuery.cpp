#include "query/IoConsortiumQuery.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "query/Layout.hpp"
#include "query/MissingCells.hpp"
#include "util/Error.hpp"

namespace pbench::query {
namespace {

using Json = nlohmann::json;

const std::vector<std::string>& named_tests() {
  static const std::vector<std::string> tests = {"sustained_write", "cached_write",
                                                 "sustained_read"};
  return tests;
}

/// The member `key` of an object, or null (a const json's operator[] must not miss).
Json get(const Json& o, const std::string& key) {
  return o.is_object() && o.contains(key) ? o[key] : Json();
}

/// The first validity reason of a document, or "".
std::string first_reason(const Json& doc) {
  const Json reasons = get(get(doc, "validity"), "reasons");
  return reasons.is_array() && !reasons.empty() && reasons[0].is_string()
             ? reasons[0].get<std::string>()
             : "";
}

/// The rows of a result table as objects keyed by column name (none when it is absent).
std::vector<Json> rows_of(const Json& doc, const std::string& table) {
  std::vector<Json> out;
  const Json t = get(get(doc, "measurements"), table);
  if (!get(t, "columns").is_array() || !get(t, "rows").is_array()) return out;
  std::vector<std::string> names;
  for (const auto& c : t["columns"]) names.push_back(c.value("name", ""));
  for (const auto& row : t["rows"]) {
    Json o = Json::object();
    for (std::size_t i = 0; i < names.size() && i < row.size(); ++i) o[names[i]] = row[i];
    out.push_back(std::move(o));
  }
  return out;
}

/// The echoed worker parameter `name`, or null.
Json parameter(const Json& doc, const std::string& name) {
  return get(get(get(doc, "parameters"), name), "value");
}

Cell number(const Json& v) {
  return v.is_number() ? Cell{v.get<double>()} : Cell{};
}

Cell integer(const Json& v) {
  return v.is_number_integer() ? Cell{v.get<std::int64_t>()} : Cell{};
}

/// Min, mean and max of values (three empty cells for none).
std::vector<Cell> spread(const std::vector<double>& values) {
  if (values.empty()) return {Cell{}, Cell{}, Cell{}};
  double sum = 0;
  for (double v : values) sum += v;
  return {*std::min_element(values.begin(), values.end()), sum / static_cast<double>(values.size()),
          *std::max_element(values.begin(), values.end())};
}

}  // namespace

std::int64_t count_consortium_results(store::Store& store,
                                      const std::optional<std::string>& sweep) {
  auto s = store.db().prepare(
      "SELECT count(*) FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "JOIN results r ON r.id = " +
      std::string(store::kChosenResult) +
      " "
      "WHERE p.worker = 'io' AND (?1 IS NULL OR sw.name = ?1) "
      "AND json_extract(r.head, '$.parameters.suite.value') = 'consortium'");
  s.bind(1, sweep);
  return s.step() ? s.int64(0) : 0;
}

namespace {

std::vector<QueryColumn> consortium_columns() {
  return {
      label_column("sweep"),
      label_column("partition", "procs"),
      nodes_column(),
      ppn_column(),
      label_column("pattern"),
      label_column("api"),
      label_column("sharing"),
      label_column("hints"),
      {"transfer_size", "B", "transfer", "B", 1, 0},
      {"block_size", "B", "block", "B", 1, 0},
      {"segment_count", "count", "segments", "", 1, 0},
      label_column("test"),
      {"bandwidth", "B/s", "bandwidth", "MB/s", 1e-6, 4},
      {"process_bandwidth_min", "B/s", "proc min", "MB/s", 1e-6, 4},
      {"process_bandwidth_mean", "B/s", "proc mean", "MB/s", 1e-6, 4},
      {"process_bandwidth_max", "B/s", "proc max", "MB/s", 1e-6, 4},
      {"open_time_min", "s", "open min", "ms", 1e3, 3},
      {"open_time_mean", "s", "open mean", "ms", 1e3, 3},
      {"open_time_max", "s", "open max", "ms", 1e3, 3},
      {"close_time_min", "s", "close min", "ms", 1e3, 3},
      {"close_time_mean", "s", "close mean", "ms", 1e3, 3},
      {"close_time_max", "s", "close max", "ms", 1e3, 3},
      {"rate", "1/s", "rate", "files/s", 1, 4},
      {"samples", "count", "samples", "", 1, 0},
      label_column("valid"),
  };
}

// The figures of one named test: its best iteration's transfer rate, the spread of the
// processes' bandwidths in that iteration, its open and close times, and the iterations
// counted; nothing when the document has no row of it.
std::optional<std::vector<Cell>> test_figures(const std::vector<Json>& tests,
                                              const std::vector<Json>& processes,
                                              const std::string& test) {
  const Json* best = nullptr;
  std::int64_t samples = 0;
  for (const Json& row : tests) {
    if (row.value("test", "") != test) continue;
    ++samples;
    const Json rate = get(row, "transfer_rate");
    const Json so_far = best ? get(*best, "transfer_rate") : Json();
    if (!best ||
        (rate.is_number() && (!so_far.is_number() || rate.get<double>() > so_far.get<double>()))) {
      best = &row;
    }
  }
  if (!best) return std::nullopt;
  // Per-process bandwidth in the best iteration: each process's bytes over its own time from
  // before the open to after the close.
  std::vector<double> bandwidths;
  for (const Json& p : processes) {
    if (p.value("test", "") != test || get(p, "iteration") != get(*best, "iteration")) continue;
    const Json bytes = get(p, "bytes");
    const Json time = get(p, "total_time");
    if (bytes.is_number() && time.is_number() && time.get<double>() > 0) {
      bandwidths.push_back(bytes.get<double>() / time.get<double>());
    }
  }
  std::vector<Cell> figures = {number(get(*best, "transfer_rate"))};
  for (Cell& c : spread(bandwidths)) figures.push_back(std::move(c));
  for (const char* what : {"open_time", "close_time"}) {
    for (const char* stat : {"_min", "_mean", "_max"}) {
      figures.push_back(number(get(*best, std::string(what) + stat)));
    }
  }
  figures.push_back(Cell{});  // rate: files only
  figures.push_back(samples);
  return figures;
}

// Many small files: per directory and phase (in the document's order) the best rate over the
// iterations and the iterations counted.
std::vector<std::pair<std::pair<std::string, std::string>, std::vector<Cell>>> small_file_figures(
    const Json& doc) {
  std::vector<std::pair<std::string, std::string>> order;
  std::map<std::pair<std::string, std::string>, std::pair<Json, std::int64_t>> phases;
  for (const Json& row : rows_of(doc, "consortium_small_files")) {
    const auto key = std::make_pair(row.value("directory", ""), row.value("phase", ""));
    auto [it, inserted] = phases.try_emplace(key, nullptr, 0);
    if (inserted) order.push_back(key);
    ++it->second.second;
    const Json rate = get(row, "rate");
    if (rate.is_number() &&
        (!it->second.first.is_number() || rate.get<double>() > it->second.first)) {
      it->second.first = rate;
    }
  }
  std::vector<std::pair<std::pair<std::string, std::string>, std::vector<Cell>>> out;
  for (const auto& key : order) {
    std::vector<Cell> figures(10);  // bandwidth and times: I/O tests only
    figures.push_back(number(phases[key].first));
    figures.push_back(phases[key].second);
    out.emplace_back(key, std::move(figures));
  }
  return out;
}

// "sweep s, partition 4, IOR-easy, mpiio-coll, transfer 1048576 B, environment mpich": where a
// note about one result points.
std::string result_place(const std::string& sweep, const std::string& partition,
                         const Json& pattern, const std::string& api, const Json& doc,
                         const Json& params) {
  return "sweep " + sweep + ", partition " + partition + ", " +
         (pattern.is_string() ? pattern.get<std::string>() : "?") + ", " + api + ", transfer " +
         parameter(doc, "transfer_size").dump() + " B" +
         (params.is_object() && params.contains("env") && params["env"].is_string()
              ? ", environment " + params["env"].get<std::string>()
              : std::string());
}

}  // namespace

QueryTable io_consortium_table(store::Store& store, const std::optional<std::string>& sweep) {
  if (sweep && !store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
  QueryTable table;
  table.columns = consortium_columns();
  auto s = store.db().prepare(
      "SELECT sw.name, p.partition, p.params_json, r.valid, document(r.packed), " +
      std::string(kLayoutSql) +
      " FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "JOIN results r ON r.id = " +
      std::string(store::kChosenResult) +
      " "
      "WHERE p.worker = 'io' AND (?1 IS NULL OR sw.name = ?1) ORDER BY sw.id, p.partition, p.id");
  s.bind(1, sweep);
  while (s.step()) {
    const Json doc = Json::parse(s.text(4), nullptr, false);
    if (doc.is_discarded() || parameter(doc, "suite") != "consortium") continue;
    const Json params = Json::parse(s.text(2), nullptr, false);
    std::string hints = "-";
    if (!params.is_discarded() && params.contains("hints") && params["hints"].is_string() &&
        !params["hints"].get<std::string>().empty()) {
      hints = params["hints"].get<std::string>();
    }
    const Json pattern = parameter(doc, "pattern");
    const std::string api = parameter(doc, "api") == "posix"    ? "posix"
                            : parameter(doc, "collective") != 0 ? "mpiio-coll"
                                                                : "mpiio-indep";
    const bool fpp = parameter(doc, "file_per_process") != 0;
    const bool valid = s.int64(3) != 0;
    const std::vector<Cell> point = {
        s.text(0),
        s.int64(1),
        optional_int_cell(s, 5),
        optional_int_cell(s, 6),
        pattern.is_string() ? Cell{pattern.get<std::string>()} : Cell{},
        api,
        std::string(fpp ? "per_process" : "shared"),
        hints,
        integer(parameter(doc, "transfer_size")),
        integer(parameter(doc, "block_size")),
        integer(parameter(doc, "segment_count"))};
    const auto add_row = [&](const std::string& sharing, const std::string& test,
                             std::vector<Cell> figures) {
      std::vector<Cell> row = point;
      if (!sharing.empty()) row[6] = sharing;
      row.push_back(test);
      for (auto& f : figures) row.push_back(std::move(f));
      row.push_back(std::string(valid ? "yes" : "no"));
      table.rows.push_back(std::move(row));
    };
    const std::vector<Json> tests = rows_of(doc, "consortium_tests");
    const std::vector<Json> processes = rows_of(doc, "consortium_processes");
    for (const std::string& test : named_tests()) {
      if (auto figures = test_figures(tests, processes, test)) {
        add_row("", test, std::move(*figures));
      }
    }
    const auto files = small_file_figures(doc);
    for (const auto& [key, figures] : files) add_row(key.first, key.second, figures);
    const std::string where =
        result_place(s.text(0), partition_text(s.int64(1), s.optional_text(7).value_or("")),
                     pattern, api, doc, params);
    if (tests.empty() && files.empty()) {
      const std::string why = first_reason(doc);
      table.notes.push_back(where + ": " + (why.empty() ? "no measurement" : why));
    } else if (!valid && !first_reason(doc).empty()) {
      table.notes.push_back(where + ": not valid: " + first_reason(doc));
    }
  }
  if (table.rows.empty() && table.notes.empty()) {
    table.notes.push_back("no consortium results" +
                          (sweep ? " in sweep " + *sweep : std::string()) +
                          " (sweep with --workers io --suite consortium)");
  }
  add_placement_notes(store, "io", sweep, table);
  add_missing_cell_notes(store, "io", sweep, table);
  return table;
}

}  // namespace pbench::query
