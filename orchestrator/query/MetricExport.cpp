#include "query/MetricExport.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "common/MetricCatalogue.hpp"
#include "query/LinksQuery.hpp"
#include "query/QueryTable.hpp"
#include "query/SystemQuery.hpp"
#include "util/Error.hpp"
#include "util/Sha256.hpp"
#include "util/SplitText.hpp"
#include "util/Time.hpp"

namespace pbench::query {
namespace {

// The labels every sample has, in this order; a metric's own labels follow.
const std::vector<std::string> kFixedLabels = {"sweep", "run",         "partition", "nodes",
                                               "ppn",   "queue_depth", "T",         "hints",
                                               "env",   "hosts_hash",  "valid",     "point"};
// Labels the exposition format leaves out: a new run every night (and its point's key) would
// start new series, which breaks dashboards and alerts (Prometheus's naming guidance: no
// unbounded label values). The sweep, shape, queue depth, T, hints and environment name a point.
// A result's validity can change from night to night too: it is a value of its own
// (pbench_<worker>_result_valid, pbench_headline_valid), not a label of the series.
const std::set<std::string> kPerRunLabels = {"run", "point", "valid"};

// The name tokens promtool's lint reads as abbreviated units ("metric names should not contain
// abbreviated units"), as promtool 2.42 flags them.
const std::set<std::string> kAbbreviatedUnits = {"s",  "ms", "us", "ns", "sec", "b", "kb",
                                                 "mb", "gb", "tb", "pb", "m",   "h", "d"};

// A metric's name in the export: the stored name, with the tokens promtool would read as units
// spelled out (b_eff -> effective_bandwidth, b_ring -> ring_bandwidth, o_s -> send_overhead).
std::string prometheus_metric(const std::string& metric) {
  const auto starts = [&](const std::string& prefix) {
    return metric.rfind(prefix, 0) == 0 &&
           (metric.size() == prefix.size() || metric[prefix.size()] == '_');
  };
  if (starts("b_eff_io")) return "effective_io_bandwidth" + metric.substr(8);
  if (starts("b_eff")) return "effective_bandwidth" + metric.substr(5);
  if (metric == "o_s") return "send_overhead";
  if (metric == "o_r") return "receive_overhead";
  if (metric.rfind("b_", 0) == 0) return metric.substr(2) + "_bandwidth";
  return metric;
}

std::string identifier(const std::string& text) {
  std::string out;
  for (unsigned char c : text) out += std::isalnum(c) ? static_cast<char>(c) : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front()))) out = "_" + out;
  return out;
}

std::string unit_suffix(const std::string& unit) {
  // Base units spelled out; a count has no suffix (promtool keeps "_count" for histograms and
  // summaries, "_total" for counters, and these are gauges).
  static const std::map<std::string, std::string> names = {
      {"s", "seconds"},
      {"B/s", "bytes_per_second"},
      {"s/B", "seconds_per_byte"},
      {"B", "bytes"},
      {"1/s", "per_second"},
      {"B/flop", "bytes_per_flop"},
      {"count", ""},
      {"rank", "rank"},
      {"", ""},
  };
  if (const auto it = names.find(unit); it != names.end()) return it->second;
  std::string out = identifier(unit);
  std::transform(out.begin(), out.end(), out.begin(), ::tolower);
  return out;
}

// Well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
bool is_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int extra = 0;
    unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
    if (c < 0x80) {
      extra = 0;
    } else if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    } else {
      return false;
    }
    if (i + extra >= s.size() && extra > 0) return false;
    for (int k = 1; k <= extra; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < low || b > high) : (b >> 6) != 0x2) return false;
    }
    i += extra + 1;
  }
  return true;
}

// A label value as the exposition format writes it between quotes.
std::string escaped(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string scalar_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return v.dump();
}

// The host list hash of a result: the first 16 hex digits of the SHA-256 of its sorted hosts
// (`hosts`: the document's hosts array).
std::string hosts_hash(const nlohmann::json& list) {
  if (!list.is_array()) return "";
  std::set<std::string> hosts;
  for (const auto& h : list) {
    hosts.insert(h.is_string() ? h.get<std::string>() : h.dump());
  }
  std::string joined;
  for (const auto& h : hosts) joined += h + "\n";
  return sha256_hex(joined).substr(0, 16);
}

std::string number_text(double v) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.17g", v);
  return text;
}

void add_run(store::Store& store, const std::string& sweep, int run, const std::string& time,
             std::vector<ExportSample>& out) {
  store.choose_run(store::RunChoice::number(run));
  // Every metric of the run's chosen results, as the store's view metric_values gives them.
  auto s = store.db().prepare(
      "SELECT worker, partition, params, point, valid, result_id, metric, value, unit, labels, "
      "nodes, ppn FROM metric_values WHERE sweep = ?1 AND run = ?2 AND value IS NOT NULL "
      "ORDER BY point_id, metric_id");
  s.bind(1, sweep).bind(2, run);
  // Only the hosts of a document (SQLite reads them out; parsing whole documents of 10-160 kB
  // was most of an export's time).
  auto documents = store.db().prepare(
      "SELECT CASE json_type(head, '$.hosts') WHEN 'array' "
      "THEN json_extract(head, '$.hosts') END FROM results WHERE id = ?1");
  std::map<std::int64_t, std::string> hashes;  // result id -> hosts_hash
  // A result's validity, once per result and queue depth (logp's metrics carry one each).
  std::set<std::pair<std::int64_t, std::string>> validity_written;
  while (s.step()) {
    const double value = s.real(7);
    if (!std::isfinite(value)) continue;
    ExportSample sample;
    sample.worker = s.text(0);
    sample.metric = s.text(6);
    sample.unit = s.text(8);
    sample.value = value;
    sample.time = time;
    const auto params = nlohmann::json::parse(s.text(2), nullptr, false);
    auto labels = nlohmann::json::parse(s.text(9), nullptr, false);
    if (!labels.is_object()) labels = nlohmann::json::object();
    const auto result_id = s.int64(5);
    auto hash = hashes.find(result_id);
    if (hash == hashes.end()) {
      documents.reset();
      documents.bind(1, result_id);
      const auto hosts = documents.step() ? documents.optional_text(0) : std::nullopt;
      hash =
          hashes
              .emplace(result_id, hosts_hash(hosts ? nlohmann::json::parse(*hosts, nullptr, false)
                                                   : nlohmann::json()))
              .first;
    }
    const auto param = [&](const char* key) {
      return params.is_object() && params.contains(key) ? scalar_text(params[key]) : "";
    };
    std::string queue_depth = param("queue_depth"), schedule_time = param("schedule_time");
    if (queue_depth.empty() && labels.contains("queue_depth")) {
      queue_depth = scalar_text(labels["queue_depth"]);
    }
    sample.labels = {{"sweep", sweep},
                     {"run", std::to_string(run)},
                     {"partition", s.text(1)},
                     {"nodes", s.optional_text(10).value_or("")},
                     {"ppn", s.optional_text(11).value_or("")},
                     {"queue_depth", queue_depth},
                     {"T", schedule_time},
                     {"hints", param("hints")},
                     {"env", param("env")},
                     {"hosts_hash", hash->second},
                     {"valid", s.int64(4) != 0 ? "true" : "false"},
                     {"point", s.text(3)}};
    if (validity_written.insert({result_id, queue_depth}).second) {
      ExportSample validity = sample;
      validity.metric = "valid";
      validity.unit = "";
      validity.value = s.int64(4) != 0 ? 1 : 0;
      validity.family = "pbench_" + identifier(sample.worker) + "_result_valid";
      validity.help = "pbench " + sample.worker +
                      ": 1 when the point's result is valid, 0 when it is not (the series of its "
                      "metrics with the same labels)";
      out.push_back(std::move(validity));
    }
    for (const auto& [key, v] : labels.items()) {
      if (key == "partition" || key == "queue_depth") continue;
      std::string name = identifier(key);
      if (std::find(kFixedLabels.begin(), kFixedLabels.end(), name) != kFixedLabels.end()) {
        name = "label_" + name;
      }
      sample.labels.emplace_back(name, scalar_text(v));
    }
    out.push_back(std::move(sample));
  }
}

// The fixed labels of a sample that is not a result's metric: the point's shape and
// environment, no queue depth, T, hints or host list.
std::vector<std::pair<std::string, std::string>> fixed_labels(
    const std::string& sweep, int run, const std::string& partition, const std::string& nodes,
    const std::string& ppn, const std::string& env, bool valid, const std::string& point) {
  return {{"sweep", sweep},
          {"run", std::to_string(run)},
          {"partition", partition},
          {"nodes", nodes},
          {"ppn", ppn},
          {"queue_depth", ""},
          {"T", ""},
          {"hints", ""},
          {"env", env},
          {"hosts_hash", ""},
          {"valid", valid ? "true" : "false"},
          {"point", point}};
}

// The headline figures, under their one name ("logp_G"), as query system, check and the
// reference files name them, each with its validity as a value (pbench_headline_valid: a label
// that flips with a night's validity would start a new series).
void add_headlines(store::Store& store, const std::string& sweep, int run, const std::string& time,
                   std::vector<ExportSample>& out) {
  const auto headline = system_table(store, sweep, {});
  const auto column = [&](const char* key) { return column_index(headline, key); };
  const std::size_t c_figure = column("figure"), c_value = column("value"), c_unit = column("unit"),
                    c_partition = column("partition"), c_at = column("at"),
                    c_point = column("point"), c_valid = column("valid"), c_nodes = column("nodes"),
                    c_ppn = column("ppn");
  const auto c_env = find_column(headline, "env");
  for (const auto& row : headline.rows) {
    const auto* figure = std::get_if<std::string>(&row[c_figure]);
    const auto* value = std::get_if<double>(&row[c_value]);
    const auto* unit = std::get_if<std::string>(&row[c_unit]);
    if (figure == nullptr || value == nullptr || unit == nullptr || !std::isfinite(*value)) {
      continue;
    }
    const auto* spec = metrics::find_figure(*figure);
    if (spec == nullptr) continue;
    ExportSample sample;
    sample.worker = spec->worker;
    sample.metric = *figure;
    sample.figure = *figure;
    sample.unit = *unit;
    sample.value = *value;
    sample.time = time;
    const auto* partition = std::get_if<std::int64_t>(&row[c_partition]);
    const auto* point = std::get_if<std::string>(&row[c_point]);
    const auto* valid = std::get_if<std::string>(&row[c_valid]);
    const auto* env = c_env ? std::get_if<std::string>(&row[*c_env]) : nullptr;
    const auto integer_text = [&](std::size_t column) {
      const auto* v = std::get_if<std::int64_t>(&row[column]);
      return v ? std::to_string(*v) : std::string();
    };
    const bool is_valid = valid && *valid == "yes";
    sample.labels =
        fixed_labels(sweep, run, partition ? std::to_string(*partition) : "", integer_text(c_nodes),
                     integer_text(c_ppn), env ? *env : "", is_valid, point ? *point : "");
    sample.labels.emplace_back("figure", *figure);
    sample.labels.emplace_back(
        "at", std::get_if<std::string>(&row[c_at]) ? std::get<std::string>(row[c_at]) : "");
    ExportSample validity = sample;
    validity.metric = "valid";
    validity.unit = "";
    validity.value = is_valid ? 1 : 0;
    validity.family = "pbench_headline_valid";
    validity.help =
        "pbench headline figures: 1 when the figure's result is valid, 0 when it is not (the "
        "series of pbench_headline_* with the same labels)";
    out.push_back(std::move(sample));
    out.push_back(std::move(validity));
  }
}

// The weak links and nodes of each link matrix of the run, by bandwidth (query links' rule).
void add_link_outliers(store::Store& store, const std::string& sweep, int run,
                       const std::string& time, std::vector<ExportSample>& out) {
  for (const auto& m : link_matrices(store, sweep)) {
    const auto outliers = bandwidth_outliers(m);
    const auto x = m.asked.find('x');
    const std::string nodes = x == std::string::npos ? "" : m.asked.substr(0, x);
    const std::string ppn = x == std::string::npos ? "" : m.asked.substr(x + 1);
    for (const auto& [what, count] :
         {std::pair<std::string, std::size_t>{"weak_links", outliers.weak_links.size()},
          std::pair<std::string, std::size_t>{"weak_nodes", outliers.weak_nodes.size()}}) {
      ExportSample sample;
      sample.worker = "links";
      sample.metric = what;
      sample.unit = "count";
      sample.value = static_cast<double>(count);
      sample.time = time;
      sample.family = "pbench_links_" + what;
      sample.help = "pbench link matrix: the " +
                    std::string(what == "weak_links" ? "links" : "nodes") +
                    " named weak by bandwidth (pbench query links' rule)";
      sample.labels =
          fixed_labels(sweep, run, std::to_string(m.partition), nodes, ppn, m.env, m.valid, "");
      out.push_back(std::move(sample));
    }
  }
}

// The run's start (seconds since the epoch) and number: a rule tells a stale export by it.
void add_run_info(const std::string& sweep, int run, const std::string& time,
                  std::vector<ExportSample>& out) {
  ExportSample started;
  started.worker = "run";
  started.metric = "started";
  started.unit = "s";
  started.value = seconds_between("1970-01-01T00:00:00Z", time);
  started.time = time;
  started.family = "pbench_run_started_timestamp_seconds";
  started.help = "pbench: the start of the exported run, in seconds since 1970 (UTC)";
  started.labels = fixed_labels(sweep, run, "", "", "", "", true, "");
  ExportSample number = started;
  number.metric = "number";
  number.unit = "";
  number.value = run;
  number.family = "pbench_run_number";
  number.help = "pbench: the number of the exported run of the sweep (1, 2, ...)";
  out.push_back(std::move(started));
  out.push_back(std::move(number));
}

}  // namespace

std::vector<ExportSample> export_samples(store::Store& store, const std::string& sweep,
                                         const RunSelection& selection) {
  const auto record = store.find_sweep(sweep);
  if (!record) throw UsageError("no sweep named '" + sweep + "'");
  const auto runs = store.runs(record->id);
  std::vector<ExportSample> out;
  const int latest = runs.empty() ? 1 : runs.back().run_no;
  if (selection.kind == RunSelection::Kind::number && selection.number > latest) {
    throw UsageError("--run " + std::to_string(selection.number) + ": sweep '" + sweep + "' has " +
                     (latest == 1 ? "run 1 only" : "runs 1 to " + std::to_string(latest)));
  }
  for (const auto& run : runs) {
    const bool chosen =
        selection.kind == RunSelection::Kind::all ||
        (selection.kind == RunSelection::Kind::latest && run.run_no == latest) ||
        (selection.kind == RunSelection::Kind::number && run.run_no == selection.number);
    if (!chosen) continue;
    add_run(store, sweep, run.run_no, run.started_at, out);
    add_headlines(store, sweep, run.run_no, run.started_at, out);
    add_link_outliers(store, sweep, run.run_no, run.started_at, out);
    add_run_info(sweep, run.run_no, run.started_at, out);
  }
  store.choose_run(store::RunChoice::latest());
  return out;
}

std::string metric_family(const ExportSample& sample) {
  if (!sample.family.empty()) return sample.family;
  if (!sample.figure.empty()) {
    const std::string suffix = unit_suffix(sample.unit);
    return "pbench_headline" + (suffix.empty() ? std::string() : "_" + suffix);
  }
  std::string name =
      "pbench_" + identifier(sample.worker) + "_" + identifier(prometheus_metric(sample.metric));
  const std::string suffix = unit_suffix(sample.unit);
  if (!suffix.empty()) name += "_" + suffix;
  return name;
}

bool is_per_run_label(const ExportSample& sample, const std::string& label) {
  if (kPerRunLabels.count(label)) return true;
  if (sample.figure.empty()) return false;
  if (label == "at") return true;
  const auto* spec = metrics::find_figure(sample.figure);
  return spec != nullptr && spec->headline == metrics::Headline::maximum &&
         (label == "partition" || label == "nodes" || label == "ppn");
}

std::string to_openmetrics(const std::vector<ExportSample>& samples) {
  // A family's samples must stand together: grouped by name, in the order first seen.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const ExportSample*>> families;
  for (const auto& s : samples) {
    const auto name = metric_family(s);
    if (families.find(name) == families.end()) order.push_back(name);
    families[name].push_back(&s);
  }
  std::string out;
  for (const auto& name : order) {
    const auto& first = *families[name].front();
    out += "# HELP " + name +
           (!first.help.empty() ? " " + first.help
            : first.figure.empty()
                ? " pbench " + first.worker + " " + first.metric
                : std::string(" pbench headline figures, one series per figure (label figure: "
                              "its name in query system, check and reference files)")) +
           (first.unit.empty() || !first.help.empty() ? "" : " in " + unit_suffix(first.unit)) +
           "\n";
    out += "# TYPE " + name + " gauge\n";
    // A series is written once (its labels identify it).
    std::set<std::string> written;
    for (const auto* s : families[name]) {
      std::string labels;
      for (const auto& [key, value] : s->labels) {
        if (is_per_run_label(*s, key)) continue;
        if (!is_utf8(value)) {
          throw UsageError("label " + key + " of " + name +
                           " is not UTF-8, which the exposition format cannot carry");
        }
        labels += (labels.empty() ? "" : ",") + key + "=\"" + escaped(value) + "\"";
      }
      if (!written.insert(labels).second) continue;
      out += name + "{" + labels + "} " + number_text(s->value) + "\n";
    }
  }
  out += "# EOF\n";
  return out;
}

std::vector<std::string> abbreviated_units(const std::string& family) {
  std::vector<std::string> found;
  for (const auto part : split_text(family, '_')) {
    const std::string token(part);
    if (kAbbreviatedUnits.count(token)) found.push_back(token);
  }
  return found;
}

std::string to_csv_long(const std::vector<ExportSample>& samples) {
  QueryTable table;
  table.columns.push_back(label_column("time"));
  for (const auto& key : kFixedLabels) table.columns.push_back({key, "", key, "", 1, 0});
  for (const char* key : {"worker", "metric", "unit"}) {
    table.columns.push_back({key, "", key, "", 1, 0});
  }
  table.columns.push_back({"value", "", "value", "", 1, 17});
  table.columns.push_back(label_column("labels"));
  for (const auto& s : samples) {
    std::vector<Cell> row = {s.time};
    nlohmann::json own = nlohmann::json::object();
    for (std::size_t i = 0; i < s.labels.size(); ++i) {
      if (i < kFixedLabels.size()) {
        row.push_back(s.labels[i].second);
      } else {
        own[s.labels[i].first] = s.labels[i].second;
      }
    }
    row.push_back(s.worker);
    row.push_back(s.metric);
    row.push_back(s.unit);
    row.push_back(s.value);
    row.push_back(own.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    table.rows.push_back(std::move(row));
  }
  return render(table, Format::csv);
}

}  // namespace pbench::query
