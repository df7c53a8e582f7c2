#include "query/ModelQuery.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "query/Layout.hpp"
#include "query/LinksQuery.hpp"
#include "query/ModelEvidence.hpp"
#include "query/ViewRows.hpp"
#include "util/Error.hpp"

namespace pbench::query {
namespace {

using nlohmann::json;

std::string micro_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g us", seconds * 1e6);
  return text;
}

std::string nano_per_byte(double seconds_per_byte) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g ns/B", seconds_per_byte * 1e9);
  return text;
}

/// The path of a logp result's pairs ("intranode" / "internode" in its table pairs).
Path pairs_path(const json& pairs) {
  bool inside = false, across = false;
  for (const auto& row : document_rows(pairs)) {
    const auto placement = column_text(row, "placement");
    inside = inside || placement == "intranode";
    across = across || placement == "internode";
  }
  if (inside && across) return Path::mixed;
  if (across) return Path::network;
  return inside ? Path::shared_memory : Path::unknown;
}

/// "2 procs (1x2)" as the tables say a partition and where its ranks ran.
std::string where_text(std::int64_t partition, std::int64_t nodes, std::int64_t ppn) {
  std::string out = std::to_string(partition) + " procs";
  if (nodes > 0 && ppn > 0) out += " (" + std::to_string(nodes) + "x" + std::to_string(ppn) + ")";
  return out;
}

/// The logp sources of every sweep (or of one) in the run the store reads, one per sweep,
/// environment and shape, in the order of their newest result.
std::vector<std::pair<std::int64_t, LogpSource>> read_logp(
    store::Store& store, const std::optional<std::string>& sweep) {
  auto s = store.db().prepare(
      "SELECT v.sweep, v.env, v.partition, coalesce(v.nodes, 0), coalesce(v.ppn, 0), "
      "(SELECT f.shape FROM result_facts f WHERE f.result_id = v.result_id), v.result_id, "
      "v.queue_depth, v.eel, v.g, v.big_g, v.valid, "
      "(SELECT json_extract(document(d.packed), '$.measurements.pairs') FROM results d "
      " WHERE d.id = v.result_id) "
      "FROM logp_table v WHERE (?1 IS NULL OR v.sweep = ?1) AND " +
      chosen_run_of_view(store) + " ORDER BY v.sweep_id, v.result_id, v.queue_depth");
  s.bind(1, sweep);
  using Key = std::tuple<std::string, std::string, std::int64_t, std::int64_t, std::int64_t>;
  std::map<Key, std::pair<std::int64_t, LogpSource>> found;
  std::map<Key, std::map<int, LoggpDepth>> depths;
  std::map<Key, double> eel;
  while (s.step()) {
    if (s.is_null(7) || s.is_null(8) || s.is_null(9) || s.is_null(10)) continue;
    const auto env = s.optional_text(1);
    const Key key{s.text(0), env.value_or(""), s.int64(2), s.int64(3), s.int64(4)};
    auto& [newest, source] = found[key];
    if (newest == 0) {
      source.sweep = s.text(0);
      source.env = env;
      source.partition = s.int64(2);
      source.nodes = s.int64(3);
      source.ppn = s.int64(4);
      source.asked = s.optional_text(5).value_or("");
      source.path = Path::unknown;
    }
    newest = std::max(newest, s.int64(6));
    source.valid = source.valid && s.text(11) == "yes";
    if (!s.is_null(12)) {
      const Path path = pairs_path(json::parse(s.text(12), nullptr, false));
      if (source.path == Path::unknown)
        source.path = path;
      else if (path != Path::unknown && path != source.path)
        source.path = Path::mixed;
    }
    // The method's EEL is the minimum over runs; over several results the smallest. g and G
    // per queue depth from the result with the smallest g at that depth.
    const double e = s.real(8);
    if (!eel.count(key) || e < eel[key]) eel[key] = e;
    const int q = static_cast<int>(s.int64(7));
    const LoggpDepth d{q, s.real(9), s.real(10)};
    auto& at = depths[key];
    if (!at.count(q) || d.g < at[q].g) at[q] = d;
  }
  std::vector<std::pair<std::int64_t, LogpSource>> out;
  for (auto& [key, entry] : found) {
    if (!depths.count(key) || depths[key].empty()) continue;
    entry.second.parameters.eel = eel[key];
    for (const auto& [q, d] : depths[key]) entry.second.parameters.depths.push_back(d);
    out.push_back(entry);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

/// The source that predicts a figure of environment `env` on `nodes` x `ppn` along `path`:
/// the same environment and shape, else the same environment and path, else the same
/// environment, else the first; and how well it matches, in words ("" when exactly).
std::pair<const LogpSource*, std::string> choose_source(const std::vector<LogpSource>& sources,
                                                        const std::optional<std::string>& env,
                                                        std::int64_t nodes, std::int64_t ppn,
                                                        Path path) {
  const LogpSource* same_env = nullptr;
  const LogpSource* same_path = nullptr;
  for (const auto& s : sources) {
    if (s.env != env) continue;
    if (s.nodes == nodes && s.ppn == ppn && nodes > 0) return {&s, ""};
    if (!same_path && !paths_differ(s.path, path)) same_path = &s;
    if (!same_env) same_env = &s;
  }
  if (same_path) return {same_path, "another shape"};
  if (same_env) return {same_env, "another shape"};
  return {&sources.front(), "another environment"};
}

struct ModelRow {
  std::string sweep;
  std::optional<std::string> env;
  std::int64_t partition = 0, nodes = 0, ppn = 0;
  std::string figure, subject;
  double size = 0;
  std::string unit;
  double predicted = 0, measured = 0;
  bool higher_is_better = true;
  int queue_depth = 1;
  const LogpSource* source = nullptr;
  std::string match;
  std::int64_t samples = 0;
  /// The measured value's own spread, in its unit (its repetitions' lowest and highest, or a
  /// stated confidence interval), over `spread_samples` samples; NaN: unknown.
  double measured_low = NAN, measured_high = NAN;
  int spread_samples = 0;
  bool valid = true;
  std::string reason;
  ModelPoint point;
  ModelReading reading;
};

double speed_of(const ModelRow& r) {
  if (!(r.predicted > 0) || !(r.measured > 0)) return NAN;
  return r.higher_is_better ? r.measured / r.predicted : r.predicted / r.measured;
}

/// The speeds of the measured value's spread (low, high), as speed_of reads the value.
std::pair<double, double> spread_speeds(const ModelRow& r) {
  if (!(r.predicted > 0) || !(r.measured_low > 0) || !(r.measured_high >= r.measured_low))
    return {NAN, NAN};
  if (r.higher_is_better) return {r.measured_low / r.predicted, r.measured_high / r.predicted};
  return {r.predicted / r.measured_high, r.predicted / r.measured_low};
}

/// Reads alike series in place: several patterns of one shape in one result (six rings of 2
/// on 2 processes), or one series alone, by increasing size. Alike series are read as one, so
/// that they get one reading per size: the speed at a size is the median of theirs, the
/// spread the lowest to the highest of their spreads, the samples all of theirs.
void read_alike(const std::vector<std::vector<ModelRow*>>& alike) {
  std::map<double, std::vector<ModelRow*>> by_size;
  for (const auto& series : alike) {
    for (ModelRow* r : series) {
      if (std::isfinite(speed_of(*r))) by_size[r->size].push_back(r);
    }
  }
  std::vector<ModelPoint> points;
  for (const auto& [size, rows] : by_size) {
    std::vector<double> speeds;
    ModelPoint point = rows.front()->point;
    point.size = size;
    point.low = INFINITY;
    point.high = -INFINITY;
    point.samples = 0;
    for (const ModelRow* r : rows) {
      speeds.push_back(speed_of(*r));
      const auto [low, high] = spread_speeds(*r);
      const bool known = r->spread_samples > 0 && low <= high;
      point.low = std::min(point.low, known ? low : speeds.back());
      point.high = std::max(point.high, known ? high : speeds.back());
      point.samples += std::max(r->spread_samples, 1);
      if (point.not_comparable.empty()) point.not_comparable = r->point.not_comparable;
    }
    if (rows.size() == 1 && rows.front()->spread_samples < 2) point.samples = 0;
    std::sort(speeds.begin(), speeds.end());
    const std::size_t mid = speeds.size() / 2;
    point.speed = speeds.size() % 2 ? speeds[mid] : (speeds[mid - 1] + speeds[mid]) / 2;
    points.push_back(point);
  }
  const auto readings = read_series(points);
  std::size_t i = 0;
  for (auto& [size, rows] : by_size) {
    for (ModelRow* r : rows) {
      r->point.speed = speed_of(*r);
      r->reading = readings[i];
    }
    ++i;
  }
}

void read_rows(const std::vector<ModelRow*>& series) {
  read_alike({series});
}

struct ModelContext {
  store::Store& store;
  const std::string& sweep;
  const std::vector<LogpSource>& sources;
  std::vector<ModelRow> rows;
  std::vector<std::string> notes;
};

/// The ping-pong's rows (time and bandwidth per size) of one comm result; returns its lowest
/// speed per size (as the rings compare with it).
std::map<double, double> add_pingpong(ModelContext& c, const ModelRow& base,
                                      const std::map<double, CommEvidence>& evidence,
                                      const CommPaths& path) {
  std::map<double, double> pingpong_speed;
  const auto [source, match] =
      choose_source(c.sources, base.env, base.nodes, base.ppn, path("pingpong"));
  std::vector<std::size_t> times, bandwidths;
  for (const auto& [size, e] : evidence) {
    ModelRow r = base;
    r.subject = "pingpong";
    r.size = size;
    r.source = source;
    r.match = match;
    r.samples = e.rows;
    r.spread_samples = e.samples;
    r.queue_depth = source->parameters.depth_for(1).queue_depth;
    r.point.path_differs = paths_differ(source->path, path("pingpong"));
    r.point.not_comparable = source->valid || !base.point.not_comparable.empty()
                                 ? base.point.not_comparable
                                 : "logp not valid";
    ModelRow time = r, rate = r;
    time.figure = "pingpong_time";
    time.unit = "s";
    time.higher_is_better = false;
    time.predicted = predicted_pingpong_time(source->parameters, size);
    time.measured = size / e.best;
    time.measured_low = size / e.high;
    time.measured_high = size / e.low;
    rate.figure = "pingpong_bandwidth";
    rate.unit = "B/s";
    rate.predicted = predicted_pingpong_bandwidth(source->parameters, size);
    rate.measured = e.best;
    rate.measured_low = e.low;
    rate.measured_high = e.high;
    if (rate.predicted > 0) pingpong_speed[size] = e.low / rate.predicted;
    times.push_back(c.rows.size());
    c.rows.push_back(time);
    bandwidths.push_back(c.rows.size());
    c.rows.push_back(rate);
  }
  for (const auto* indices : {&times, &bandwidths}) {
    std::vector<ModelRow*> series;
    for (std::size_t i : *indices) series.push_back(&c.rows[i]);
    read_rows(series);
  }
  return pingpong_speed;
}

// comm: the ping-pong (time and bandwidth) and every b_eff ring pattern per size; the ring
// patterns of one shape (the same ring sizes, path and messages across nodes) read as one.
void add_comm(ModelContext& c) {
  auto s = c.store.db().prepare(
      "SELECT v.sweep, v.env, v.partition, coalesce(v.nodes, 0), coalesce(v.ppn, 0), v.valid, "
      "v.reason, json_extract(document(d.packed), '$.measurements.patterns'), "
      "json_extract(document(d.packed), '$.measurements.measurements'), "
      "json_extract(document(d.packed), '$.measurements.pattern_nodes'), "
      "json_extract(d.head, '$.rank_hosts'), json_extract(d.head, '$.node_cores') "
      "FROM run_results v JOIN results d ON d.id = v.result_id "
      "WHERE v.worker = 'comm' AND v.sweep = ?1 AND " +
      chosen_run_of_view(c.store) + " ORDER BY v.partition, v.point_id");
  s.bind(1, c.sweep);
  while (s.step()) {
    ModelRow base;
    base.sweep = s.text(0);
    base.env = s.optional_text(1);
    base.partition = s.int64(2);
    base.nodes = s.int64(3);
    base.ppn = s.int64(4);
    base.valid = s.int64(5) != 0;
    base.reason = s.optional_text(6).value_or("");
    const auto parse = [&](int column) {
      return s.is_null(column) ? json() : json::parse(s.text(column), nullptr, false);
    };
    base.point.not_comparable = not_comparable_text(base.valid, base.reason, parse(11), true);
    const auto patterns = document_rows(parse(7));
    auto evidence = comm_evidence(document_rows(parse(8)));
    const CommPaths path = comm_paths(document_rows(parse(9)), parse(10));
    auto pingpong_speed = add_pingpong(c, base, evidence["pingpong"], path);

    using Shape = std::tuple<std::vector<int>, Path, double>;
    std::map<Shape, std::vector<std::vector<std::size_t>>> shapes;
    for (const auto& pattern : patterns) {
      const std::string label = column_text(pattern, "pattern");
      std::vector<int> rings = rings_of(pattern);
      const double participants = column_number(pattern, "participants");
      if (rings.empty() || !(participants > 0)) continue;
      const auto [source, match] =
          choose_source(c.sources, base.env, base.nodes, base.ppn, path(label));
      std::vector<std::size_t> indices;
      for (const auto& [size, e] : evidence[label]) {
        ModelRow r = base;
        r.figure = "ring_bandwidth_per_process";
        r.subject = label;
        r.size = size;
        r.unit = "B/s";
        r.source = source;
        r.match = match;
        r.samples = e.rows;
        r.spread_samples = e.samples;
        r.queue_depth = ring_queue_depth(source->parameters, rings);
        r.predicted = predicted_ring_bandwidth_per_process(source->parameters, size, rings);
        r.measured = e.best / participants;
        r.measured_low = e.low / participants;
        r.measured_high = e.high / participants;
        r.point.ring = true;
        r.point.path_differs = paths_differ(source->path, path(label));
        if (r.point.not_comparable.empty() && !source->valid)
          r.point.not_comparable = "logp not valid";
        // The ping-pong says whether the point-to-point path itself is slower than the model
        // only when it ran on the ring's path (ranks 0 and 1 of 2x2 share a node: shared
        // memory, against a ring whose messages cross the network).
        if (paths_differ(path("pingpong"), path(label))) {
          r.point.pingpong_elsewhere = true;
        } else if (pingpong_speed.count(size) && std::isfinite(pingpong_speed[size])) {
          r.point.pingpong_speed = pingpong_speed[size];
        }
        indices.push_back(c.rows.size());
        c.rows.push_back(r);
      }
      std::sort(rings.begin(), rings.end());
      const auto crossing = path.crossing_of.find(label);
      shapes[{rings, path(label), crossing == path.crossing_of.end() ? -1.0 : crossing->second}]
          .push_back(std::move(indices));
    }
    for (const auto& [shape, members] : shapes) {
      std::vector<std::vector<ModelRow*>> alike;
      for (const auto& indices : members) {
        alike.emplace_back();
        for (std::size_t i : indices) alike.back().push_back(&c.rows[i]);
      }
      read_alike(alike);
    }
  }
}

/// The bcast result's statistics table (mean, stddev and measurements per size, method, task).
std::vector<std::map<std::string, json>> bcast_statistics(store::Store& store,
                                                          std::int64_t result_id) {
  auto s = store.db().prepare(
      "SELECT json_extract(document(packed), '$.measurements.statistics') FROM results WHERE id = "
      "?1");
  s.bind(1, result_id);
  if (!s.step() || s.is_null(0)) return {};
  return document_rows(json::parse(s.text(0), nullptr, false));
}

/// The OL's stated confidence: the OL task's ol_i mean +- 2 standard errors (about 95%), from
/// the worker's statistics over its measurements.
void set_ol_confidence(ModelRow& r, const std::vector<std::map<std::string, json>>& statistics,
                       std::int64_t ol_task) {
  for (const auto& row : statistics) {
    if (column_text(row, "method") != "ol_i" || column_number(row, "size") != r.size ||
        column_number(row, "task") != static_cast<double>(ol_task))
      continue;
    const double mean = column_number(row, "mean"), stddev = column_number(row, "stddev"),
                 count = column_number(row, "measurements");
    if (!(mean > 0) || !(stddev >= 0) || !(count >= 2)) return;
    const double half = 2 * stddev / std::sqrt(count);
    r.measured_low = std::max(mean - half, mean * 1e-6);
    r.measured_high = mean + half;
    r.spread_samples = static_cast<int>(count);
    return;
  }
}

// bcast: OL per size along the implementation's tree (MPI_Bcast's tree is unknown: binomial).
void add_bcast(ModelContext& c) {
  auto s = c.store.db().prepare(
      "SELECT v.sweep, v.env, v.partition, coalesce(v.nodes, 0), coalesce(v.ppn, 0), v.valid, "
      "v.reason, v.impl, v.hop_delay, v.size, v.ol, v.result_id, "
      "(SELECT r.nprocs FROM results r WHERE r.id = v.result_id), "
      "(SELECT m.samples FROM metrics m WHERE m.result_id = v.result_id AND m.name = 'ol' "
      " AND json_extract(m.labels, '$.size') = v.size ORDER BY m.id DESC LIMIT 1), "
      "v.ol_task, (SELECT json_extract(d.head, '$.node_cores') FROM results d "
      " WHERE d.id = v.result_id) "
      "FROM bcast_table v WHERE v.sweep = ?1 AND " +
      chosen_run_of_view(c.store) + " ORDER BY v.partition, v.point_id, v.size");
  s.bind(1, c.sweep);
  std::int64_t current = -1;
  std::vector<std::size_t> indices;
  std::vector<std::map<std::string, json>> statistics;
  const auto flush = [&] {
    std::vector<ModelRow*> series;
    for (std::size_t i : indices) series.push_back(&c.rows[i]);
    read_rows(series);
    indices.clear();
  };
  while (s.step()) {
    if (s.is_null(10) || s.is_null(9)) continue;
    if (s.int64(11) != current) {
      flush();
      current = s.int64(11);
      statistics = bcast_statistics(c.store, current);
    }
    const int nprocs = static_cast<int>(s.int64(12));
    if (nprocs < 2) continue;
    const std::string impl = s.text(7);
    bcast::Algorithm algorithm = bcast::Algorithm::binomial;
    std::string subject = impl;
    if (impl == "linear")
      algorithm = bcast::Algorithm::linear;
    else if (impl == "backward")
      algorithm = bcast::Algorithm::backward;
    else if (impl != "binomial")
      subject = impl + " (as binomial)";
    ModelRow r;
    r.sweep = s.text(0);
    r.env = s.optional_text(1);
    r.partition = s.int64(2);
    r.nodes = s.int64(3);
    r.ppn = s.int64(4);
    r.valid = s.text(5) == "yes";
    r.reason = s.optional_text(6).value_or("");
    r.figure = "bcast_ol";
    r.subject = subject;
    r.size = s.real(9);
    r.unit = "s";
    r.higher_is_better = false;
    const Path path = r.nodes > 1    ? Path::network
                      : r.nodes == 1 ? Path::shared_memory
                                     : Path::unknown;
    const auto [source, match] = choose_source(c.sources, r.env, r.nodes, r.ppn, path);
    r.source = source;
    r.match = match;
    r.queue_depth = source->parameters.depth_for(1).queue_depth;
    r.predicted = predicted_broadcast_ol(source->parameters, r.size, algorithm, nprocs,
                                         s.is_null(8) ? 0.0 : s.real(8));
    r.measured = s.real(10);
    r.samples = s.is_null(13) ? 0 : s.int64(13);
    if (!s.is_null(14)) set_ol_confidence(r, statistics, s.int64(14));
    r.point.not_comparable = not_comparable_text(
        r.valid, r.reason, s.is_null(15) ? json() : json::parse(s.text(15), nullptr, false),
        source->valid);
    r.point.path_differs = paths_differ(source->path, path);
    indices.push_back(c.rows.size());
    c.rows.push_back(r);
  }
  flush();
}

// links: every ordered pair's bandwidth and latency.
void add_links(ModelContext& c) {
  for (const auto& m : link_matrices(c.store, c.sweep)) {
    auto s = c.store.db().prepare(
        "SELECT json_extract(r.head, '$.parameters.message_size.value'), "
        "json_extract(r.head, '$.parameters.messages.value'), "
        "json_extract(p.params_json, '$.env'), coalesce(r.nodes, p.nodes, 0), "
        "coalesce(r.procs_per_node, p.procs_per_node, 0), r.valid, "
        "(SELECT f.reason FROM result_facts f WHERE f.result_id = r.id), "
        "(SELECT json_group_object(x.name || ' ' || x.labels, x.samples) FROM metrics x "
        " WHERE x.result_id = r.id AND x.name IN ('link_bandwidth', 'link_latency')), "
        "json_extract(r.head, '$.node_cores') "
        "FROM results r JOIN points p ON p.id = r.point_id WHERE r.id = ?1");
    s.bind(1, m.result_id);
    if (!s.step() || s.is_null(0) || s.is_null(1)) continue;
    const double size = s.real(0);
    const int messages = static_cast<int>(s.int64(1));
    ModelRow base;
    base.sweep = m.sweep;
    base.env = s.optional_text(2);
    base.partition = m.partition;
    base.nodes = s.int64(3);
    base.ppn = s.int64(4);
    base.valid = s.int64(5) != 0;
    base.reason = s.optional_text(6).value_or("");
    const json samples = s.is_null(7) ? json() : json::parse(s.text(7), nullptr, false);
    const json node_cores = s.is_null(8) ? json() : json::parse(s.text(8), nullptr, false);
    const auto samples_of = [&](const std::string& name, const LinkValue& l) -> std::int64_t {
      const std::string key = name + " " + json{{"from", l.from}, {"to", l.to}}.dump();
      return samples.is_object() && samples.contains(key) && samples[key].is_number_integer()
                 ? samples[key].get<std::int64_t>()
                 : 0;
    };
    // Endpoints on one host are named host#index: such a link is shared memory.
    const auto host = [](const std::string& endpoint) {
      return endpoint.substr(0, endpoint.find('#'));
    };
    const auto outliers = bandwidth_outliers(m);
    const auto weak = [&](const LinkValue& l) {
      const auto& nodes = outliers.weak_nodes;
      return std::find(nodes.begin(), nodes.end(), l.from) != nodes.end() ||
             std::find(nodes.begin(), nodes.end(), l.to) != nodes.end() ||
             std::find(outliers.weak_links.begin(), outliers.weak_links.end(),
                       std::pair{l.from, l.to}) != outliers.weak_links.end();
    };
    std::vector<std::size_t> bandwidths, latencies;
    for (const auto* list : {&m.bandwidth, &m.latency}) {
      const bool is_bandwidth = list == &m.bandwidth;
      for (const auto& l : *list) {
        const Path path = host(l.from) == host(l.to) ? Path::shared_memory : Path::network;
        const auto [source, match] = choose_source(c.sources, base.env, base.nodes, base.ppn, path);
        ModelRow r = base;
        r.subject = l.from + " -> " + l.to;
        r.source = source;
        r.match = match;
        r.point.path_differs = paths_differ(source->path, path);
        r.point.weak = weak(l);
        r.point.not_comparable =
            not_comparable_text(base.valid, base.reason, node_cores, source->valid);
        if (is_bandwidth) {
          r.figure = "link_bandwidth";
          r.size = size;
          r.unit = "B/s";
          r.queue_depth = source->parameters.depth_for(messages).queue_depth;
          r.predicted = predicted_link_bandwidth(source->parameters, size, messages);
          r.samples = samples_of("link_bandwidth", l);
          bandwidths.push_back(c.rows.size());
        } else {
          r.figure = "link_latency";
          r.size = kEelSize;
          r.unit = "s";
          r.higher_is_better = false;
          r.queue_depth = source->parameters.depth_for(1).queue_depth;
          r.predicted = source->parameters.eel;
          r.samples = samples_of("link_latency", l);
          latencies.push_back(c.rows.size());
        }
        r.measured = l.value;
        c.rows.push_back(r);
      }
    }
    // Each link is a series of one: no jump between sizes, but the weak-link and path readings.
    for (const auto* indices : {&bandwidths, &latencies}) {
      for (std::size_t i : *indices) {
        std::vector<ModelRow*> one{&c.rows[i]};
        read_rows(one);
      }
    }
  }
}

}  // namespace

std::string LogpSource::label() const {
  std::string out = "logp of sweep " + sweep;
  if (env) out += " env " + *env;
  out += ", " + where_text(partition, nodes, ppn) + ", pair over " + path_name(path) + ", EEL " +
         micro_text(parameters.eel);
  for (const auto& d : parameters.depths) {
    out += "; q=" + std::to_string(d.queue_depth) + ": g " + micro_text(d.g) + ", G " +
           nano_per_byte(d.big_g);
  }
  if (!valid) out += " (not valid)";
  return out;
}

std::vector<LogpSource> logp_sources(store::Store& store, const std::string& sweep) {
  if (!store.find_sweep(sweep)) throw UsageError("no sweep named '" + sweep + "'");
  std::vector<LogpSource> out;
  for (auto& [newest, source] : read_logp(store, sweep)) out.push_back(source);
  if (!out.empty()) return out;
  // The machine's latest logp: the sweep of the newest logp result.
  const auto all = read_logp(store, std::nullopt);
  if (all.empty()) {
    throw UsageError("sweep '" + sweep +
                     "' has no logp result and the store has none: the model needs LogGP "
                     "parameters (pbench run NAME --workers logp)");
  }
  const std::string latest = all.back().second.sweep;
  for (const auto& [newest, source] : all) {
    if (source.sweep != latest) continue;
    out.push_back(source);
    out.back().same_sweep = false;
  }
  return out;
}

QueryTable model_table(store::Store& store, const std::string& sweep) {
  const auto sources = logp_sources(store, sweep);
  ModelContext c{store, sweep, sources, {}, {}};
  add_comm(c);
  add_bcast(c);
  add_links(c);

  QueryTable table;
  table.columns = {
      label_column("sweep"),
      label_column("partition", "procs"),
      nodes_column(),
      ppn_column(),
      label_column("figure"),
      label_column("subject", "of"),
      {"size", "B", "size", "B", 1, 10},
      label_column("unit"),
      {"predicted", "", "predicted", "", 1, 4, "unit"},
      {"measured", "", "measured", "", 1, 4, "unit"},
      {"ratio", "", "measured/predicted", "", 1, 3},
      label_column("reading"),
      label_column("queue_depth", "q"),
      label_column("logp"),
      label_column("samples"),
      label_column("valid"),
      reason_column(),
  };
  add_env_column(store, sweep, table.columns);
  const bool with_env = table.columns[1].key == "env";
  std::vector<const LogpSource*> used;
  for (const ModelRow& r : c.rows) {
    if (std::find(used.begin(), used.end(), r.source) == used.end()) used.push_back(r.source);
    const auto index = std::find(used.begin(), used.end(), r.source) - used.begin();
    std::vector<Cell> row{r.sweep};
    if (with_env) row.push_back(r.env ? Cell{*r.env} : Cell{});
    // A measured value of zero or less (a disturbed OL_i: not valid) is not compared.
    const bool comparable = r.predicted > 0 && r.measured > 0;
    const Cell ratio = comparable ? Cell{r.measured / r.predicted} : Cell{};
    const std::string reading = !comparable              ? "not comparable"
                                : r.reading.name.empty() ? "agrees"
                                                         : r.reading.name;
    const bool logp_valid = r.source->valid;
    for (Cell cell :
         {Cell{r.partition}, count_cell(r.nodes), count_cell(r.ppn), Cell{r.figure},
          Cell{r.subject}, Cell{static_cast<std::int64_t>(std::llround(r.size))}, Cell{r.unit},
          Cell{r.predicted}, Cell{r.measured}, ratio, Cell{reading},
          Cell{static_cast<std::int64_t>(r.queue_depth)},
          Cell{"#" + std::to_string(index + 1) + (r.match.empty() ? "" : " (" + r.match + ")")},
          Cell{r.samples}, Cell{std::string(r.valid && logp_valid ? "yes" : "no")},
          r.valid ? (logp_valid ? Cell{} : Cell{std::string("logp not valid")}) : Cell{r.reason}}) {
      row.push_back(cell);
    }
    table.rows.push_back(std::move(row));
  }
  // One note per series and cause, naming its sizes: "sweep S, 2 procs (1x2), pingpong_time of
  // pingpong at 9742-84990 B (6 sizes): protocol switch: the ratio jumps ...".
  std::vector<std::pair<std::string, std::vector<double>>> causes;
  for (const ModelRow& r : c.rows) {
    if (r.reading.name.empty()) continue;
    const std::string head = "sweep " + r.sweep + (r.env ? " env " + *r.env : "") + ", " +
                             where_text(r.partition, r.nodes, r.ppn) + ", " + r.figure + " of " +
                             r.subject;
    const std::string key = head + "\n" + r.reading.name + ": " + r.reading.why;
    auto it = std::find_if(causes.begin(), causes.end(),
                           [&](const auto& cause) { return cause.first == key; });
    if (it == causes.end()) it = causes.insert(causes.end(), {key, {}});
    it->second.push_back(r.size);
  }
  for (const auto& [key, sizes] : causes) {
    const auto cut = key.find('\n');
    const auto [low, high] = std::minmax_element(sizes.begin(), sizes.end());
    std::string at = std::to_string(std::llround(*low));
    if (sizes.size() > 1) {
      at += "-" + std::to_string(std::llround(*high)) + " B (" + std::to_string(sizes.size()) +
            " sizes)";
    } else {
      at += " B";
    }
    table.notes.push_back(key.substr(0, cut) + " at " + at + ": " + key.substr(cut + 1));
  }
  char band[128];
  std::snprintf(band, sizeof band,
                "band: measured and predicted agree when measured/predicted lies within "
                "%.2f-%.2f (docs/model.md)",
                1 / kModelBand, kModelBand);
  table.notes.insert(table.notes.begin(), band);
  for (std::size_t i = 0; i < used.size(); ++i) {
    table.notes.insert(
        table.notes.begin() + static_cast<std::ptrdiff_t>(i + 1),
        "logp #" + std::to_string(i + 1) + ": " + used[i]->label() +
            (used[i]->same_sweep ? std::string(" (this sweep)")
                                 : " (the store's latest logp: sweep " + sweep + " has none)"));
  }
  if (c.rows.empty()) {
    table.notes.push_back("sweep " + sweep +
                          " has no comm, bcast or links result to predict (the model predicts "
                          "comm's ping-pong and rings, the broadcast's OL and the link matrix)");
  }
  return table;
}

}  // namespace pbench::query
