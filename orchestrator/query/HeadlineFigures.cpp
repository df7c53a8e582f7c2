#include "query/HeadlineFigures.hpp"

#include "common/MetricCatalogue.hpp"
#include "common/PhysicalLimits.hpp"
#include "query/LinksQuery.hpp"
#include "query/QueryTable.hpp"
#include "query/SystemQuery.hpp"
#include "util/Error.hpp"
#include "util/TextSafety.hpp"

namespace pbench::query {

const std::vector<FigureName>& figure_names() {
  static const std::vector<FigureName> names = [] {
    std::vector<FigureName> out;
    for (const auto& m : metrics::catalogue()) {
      if (m.figure.empty() || m.headline == metrics::Headline::legacy ||
          m.headline == metrics::Headline::no) {
        continue;
      }
      const std::string figure(m.figure), prefix = std::string(m.worker) + "_";
      out.push_back({figure, std::string(m.worker),
                     figure.rfind(prefix, 0) == 0 ? figure.substr(prefix.size()) : figure,
                     m.headline != metrics::Headline::maximum, std::string(m.unit),
                     m.headline == metrics::Headline::per_label});
    }
    return out;
  }();
  return names;
}

const FigureName* by_figure(const std::string& figure) {
  for (const auto& f : figure_names()) {
    if (figure == f.figure) return &f;
  }
  return nullptr;
}

const FigureName& known_figure(const std::string& worker, const std::string& metric,
                               const std::string& where) {
  std::string workers, metrics;
  for (const auto& f : figure_names()) {
    if (workers.find(f.worker) == std::string::npos) {
      workers += (workers.empty() ? "" : ", ") + f.worker;
    }
    if (worker != f.worker) continue;
    if (metric == f.metric) return f;
    metrics += (metrics.empty() ? "" : ", ") + f.metric;
  }
  if (metrics.empty()) {
    throw UsageError(where + ": unknown worker '" + printable_utf8(worker) +
                     "' (known: " + workers + ")");
  }
  throw UsageError(where + ": worker '" + worker + "' has no headline metric '" +
                   printable_utf8(metric) + "' (known: " + metrics + ")");
}

namespace {

std::string text_cell(const Cell& cell) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return "";
}

std::optional<double> number_cell(const Cell& cell) {
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return static_cast<double>(*i);
  return std::nullopt;
}

std::optional<std::int64_t> integer_cell(const Cell& cell) {
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return *i;
  return std::nullopt;
}

}  // namespace

std::map<FigureKey, MeasuredFigure> measured_figures(store::Store& store,
                                                     const std::string& sweep) {
  const auto table = system_table(store, sweep, {});
  const auto figure = column_index(table, "figure"), value = column_index(table, "value"),
             unit = column_index(table, "unit"), partition = column_index(table, "partition"),
             valid = column_index(table, "valid"), reason = column_index(table, "reason");
  const auto env = find_column(table, "env");
  std::map<FigureKey, MeasuredFigure> out;
  for (const auto& row : table.rows) {
    const auto* name = by_figure(text_cell(row[figure]));
    if (name == nullptr) continue;
    const auto part = name->per_partition ? integer_cell(row[partition]) : std::nullopt;
    out[{name->figure, part, "", env ? text_cell(row[*env]) : ""}] = {
        number_cell(row[value]), text_cell(row[valid]) == "yes", text_cell(row[unit]),
        text_cell(row[reason])};
  }
  // Each matrix in its environment (--envs): two environments' links are two figures each.
  for (const auto& m : link_matrices(store, sweep)) {
    for (const auto& l : m.bandwidth) {
      out[{"link_bandwidth", m.partition, link_label(l.from, l.to), m.env}] = {l.value, m.valid,
                                                                               "B/s", ""};
    }
    for (const auto& [node, value] : m.node_bandwidth) {
      out[{"node_bandwidth", m.partition, node, m.env}] = {value, m.valid, "B/s", ""};
    }
  }
  return out;
}

std::string figure_label(const std::string& figure, const std::optional<std::int64_t>& partition,
                         const std::string& link, const std::string& env) {
  return figure + (link.empty() ? "" : " " + link) +
         (partition ? " at " + std::to_string(*partition) + " processes" : "") +
         (env.empty() ? "" : " in env " + env);
}

std::string value_text(double value, const std::string& unit) {
  if (unit == "B/s") return megabytes(value);
  return worker::physical_value_text(value, unit);
}

std::string link_label(const std::string& from, const std::string& to) {
  return from + " -> " + to;
}

}  // namespace pbench::query
