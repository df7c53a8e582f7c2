#include "ingest/ResultRules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "common/MetricCatalogue.hpp"
#include "ingest/Problem.hpp"

namespace pbench::ingest {

using nlohmann::json;

namespace {

/// Longer strings are not taken for timestamps (the schema refuses them as too long).
constexpr std::size_t kMaxTimestampBytes = 1024;

/// A contract timestamp split for ordering: "YYYY-MM-DDTHH:MM:SS" and the fraction's digits;
/// nothing for a value that is not one. The format is the schema's timestamp pattern,
/// ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$, read by hand: with
/// std::regex it cost a quarter of these checks.
std::optional<std::pair<std::string, std::string>> split_timestamp(const json& value) {
  if (!value.is_string()) return std::nullopt;
  const std::string& text = value.get_ref<const std::string&>();
  if (text.size() > kMaxTimestampBytes) return std::nullopt;
  constexpr std::string_view kShape = "0000-00-00T00:00:00";  // '0': a digit; else itself
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (text.size() < kShape.size() + 1) return std::nullopt;
  for (std::size_t i = 0; i < kShape.size(); ++i) {
    if (kShape[i] == '0' ? !digit(text[i]) : text[i] != kShape[i]) return std::nullopt;
  }
  std::size_t end = kShape.size();
  std::string fraction;
  if (text[end] == '.') {
    const std::size_t first = end + 1;
    end = first;
    while (end < text.size() && digit(text[end])) ++end;
    if (end == first) return std::nullopt;
    fraction = text.substr(first, end - first);
  }
  if (end + 1 != text.size() || text[end] != 'Z') return std::nullopt;
  return std::make_pair(text.substr(0, kShape.size()), std::move(fraction));
}

/// Labels with integral numbers written as integers, so {"q": 1} and {"q": 1.0} compare equal.
json canonical_labels(json labels) {
  for (auto& [key, value] : labels.items()) {
    if (value.is_number_float() && std::floor(value.get<double>()) == value.get<double>() &&
        std::fabs(value.get<double>()) < 9e18) {
      value = static_cast<std::int64_t>(value.get<double>());
    }
  }
  return labels;
}

void check_tables(const json& measurements, std::vector<std::string>& problems) {
  for (const auto& [table_name, table] : measurements.items()) {
    if (!table.is_object()) continue;
    const json::json_pointer at_table = json::json_pointer("/measurements") / table_name;
    const auto columns = table.find("columns");
    if (columns == table.end() || !columns->is_array()) continue;
    std::map<std::string, std::size_t, std::less<>> first_column;
    for (std::size_t j = 0; j < columns->size(); ++j) {
      const json& column = (*columns)[j];
      if (!column.is_object() || !column.contains("name") || !column["name"].is_string()) continue;
      const auto [it, fresh] = first_column.emplace(column["name"].get<std::string>(), j);
      if (!fresh) {
        problems.push_back(problem(at_table / "columns" / j / "name",
                                   "duplicate column name " + preview(column["name"]) +
                                       " (first at column " + std::to_string(it->second) + ")"));
      }
    }
    const auto rows = table.find("rows");
    if (rows == table.end() || !rows->is_array()) continue;
    for (std::size_t i = 0; i < rows->size(); ++i) {
      const json& row = (*rows)[i];
      if (row.is_array() && row.size() != columns->size()) {
        problems.push_back(
            problem(at_table / "rows" / i, std::to_string(row.size()) + " values for " +
                                               std::to_string(columns->size()) + " columns"));
      }
    }
  }
}

void check_times(const json& doc, std::vector<std::string>& problems) {
  if (!doc.contains("started_at") || !doc.contains("ended_at")) return;
  const auto started = split_timestamp(doc["started_at"]);
  const auto ended = split_timestamp(doc["ended_at"]);
  if (!started || !ended) return;
  std::string started_fraction = started->second;
  std::string ended_fraction = ended->second;
  const std::size_t width = std::max(started_fraction.size(), ended_fraction.size());
  started_fraction.resize(width, '0');
  ended_fraction.resize(width, '0');
  if (std::tie(ended->first, ended_fraction) < std::tie(started->first, started_fraction)) {
    problems.push_back(
        problem(json::json_pointer("/ended_at"), "ended_at " + doc["ended_at"].get<std::string>() +
                                                     " is before started_at " +
                                                     doc["started_at"].get<std::string>()));
  }
}

void check_metrics(const json& summary, std::vector<std::string>& problems) {
  std::map<std::string, std::size_t, std::less<>> first_metric;
  for (std::size_t i = 0; i < summary.size(); ++i) {
    const json& metric = summary[i];
    if (!metric.is_object() || !metric.contains("name") || !metric["name"].is_string()) continue;
    const json labels = metric.contains("labels") && metric["labels"].is_object()
                            ? canonical_labels(metric["labels"])
                            : json::object();
    const std::string key = metric["name"].get<std::string>() + '\n' +
                            labels.dump(-1, ' ', false, json::error_handler_t::replace);
    const auto [it, fresh] = first_metric.emplace(key, i);
    if (!fresh) {
      problems.push_back(problem(json::json_pointer("/summary") / i,
                                 "duplicate metric " + preview(metric["name"]) + " with labels " +
                                     preview(labels) + " (first at /summary/" +
                                     std::to_string(it->second) + ")"));
    }
  }
}

/// The path of the value check_sizes looks at, as reference tokens; made into a JSON pointer only
/// for a problem (building one per value was most of the checks' cost).
using Path = std::vector<std::string>;

json::json_pointer pointer_of(const Path& path) {
  json::json_pointer at;
  for (const auto& token : path) at /= token;
  return at;
}

void check_sizes(const json& value, Path& path, std::vector<std::string>& problems) {
  const auto too_long = [&](const char* what, std::size_t bytes) {
    problems.push_back(problem(
        pointer_of(path), std::string(what) + " of " + std::to_string(bytes) +
                              " bytes, more than the " +
                              std::to_string(ResultRules::kMaxStringBytes) +
                              " (1 MiB) a field may hold"));
  };
  if (value.is_string()) {
    const auto bytes = value.get_ref<const std::string&>().size();
    if (bytes > ResultRules::kMaxStringBytes) too_long("a string", bytes);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (!value[i].is_structured() && !value[i].is_string()) continue;
      path.push_back(std::to_string(i));
      check_sizes(value[i], path, problems);
      path.pop_back();
    }
  } else if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it.key().size() > ResultRules::kMaxStringBytes) {
        too_long("a key", it.key().size());
        continue;
      }
      if (!it->is_structured() && !it->is_string()) continue;
      path.push_back(it.key());
      check_sizes(*it, path, problems);
      path.pop_back();
    }
  }
}

// Every metric must be one the metric catalogue holds for the document's worker, in its unit:
// the store's views and every command read a metric's meaning, unit and direction from there.
void check_catalogue(const json& doc, const json& summary, std::vector<std::string>& problems) {
  const auto w = doc.find("worker");
  if (w == doc.end() || !w->is_string()) return;
  const std::string& worker = w->get_ref<const std::string&>();
  // Several metrics unknown to the worker named and all another worker's: one sentence naming
  // both workers, not a line per metric.
  std::vector<std::string> unknown;
  std::string owner;
  bool one_owner = true;
  for (const auto& metric : summary) {
    if (!metric.is_object() || !metric.contains("name") || !metric["name"].is_string()) continue;
    const std::string& name = metric["name"].get_ref<const std::string&>();
    if (metrics::find_metric(worker, name) != nullptr) continue;
    unknown.push_back(name);
    std::string found;
    for (const auto& spec : metrics::catalogue()) {
      if (spec.name == name) found = std::string(spec.worker);
    }
    if (found.empty() || (!owner.empty() && found != owner)) one_owner = false;
    if (owner.empty()) owner = found;
  }
  if (unknown.size() >= 2 && one_owner && !owner.empty()) {
    std::string listed;
    for (std::size_t i = 0; i < unknown.size() && i < 3; ++i) {
      listed += (i ? ", " : "") + unknown[i];
    }
    if (unknown.size() > 3) listed += " and " + std::to_string(unknown.size() - 3) + " more";
    problems.push_back(problem(json::json_pointer("/worker"),
                               "it names worker " + preview(*w) + ", but its metrics (" + listed +
                                   ") are worker \"" + owner + "\"'s: not one worker's result"));
    return;
  }
  for (std::size_t i = 0; i < summary.size(); ++i) {
    const json& metric = summary[i];
    if (!metric.is_object() || !metric.contains("name") || !metric["name"].is_string()) continue;
    const std::string& name = metric["name"].get_ref<const std::string&>();
    const auto* spec = metrics::find_metric(worker, name);
    if (spec == nullptr) {
      problems.push_back(problem(json::json_pointer("/summary") / i,
                                 "unknown metric " + preview(metric["name"]) + " of worker " +
                                     preview(*w) + " (not in the metric catalogue; " + worker +
                                     " has: " + metrics::metric_names(worker) + ")"));
    } else if (metric.contains("unit") && metric["unit"].is_string() &&
               metric["unit"].get_ref<const std::string&>() != spec->unit) {
      problems.push_back(problem(json::json_pointer("/summary") / i / "unit",
                                 "metric " + preview(metric["name"]) + " is in " +
                                     std::string(spec->unit) + " by the metric catalogue, not " +
                                     preview(metric["unit"])));
    }
  }
}

}  // namespace

std::vector<std::string> ResultRules::size_problems(const json& doc) {
  std::vector<std::string> problems;
  Path path;
  check_sizes(doc, path, problems);
  return problems;
}

std::vector<std::string> ResultRules::problems(const json& doc) {
  std::vector<std::string> problems;
  if (!doc.is_object()) return problems;
  if (const auto m = doc.find("measurements"); m != doc.end() && m->is_object()) {
    check_tables(*m, problems);
  }
  check_times(doc, problems);
  if (const auto s = doc.find("summary"); s != doc.end() && s->is_array()) {
    check_metrics(*s, problems);
    check_catalogue(doc, *s, problems);
  }
  return problems;
}

}  // namespace pbench::ingest
