#include "ingest/DocumentRules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "common/MethodRules.hpp"

namespace pbench::ingest {

using nlohmann::json;

namespace {

/// The echoed value of parameter `name` (parameters.NAME.value); null when there is none.
const json* echoed_value(const json& doc, const char* name) {
  const auto p = doc.find("parameters");
  if (p == doc.end() || !p->is_object()) return nullptr;
  const auto entry = p->find(name);
  if (entry == p->end() || !entry->is_object()) return nullptr;
  const auto value = entry->find("value");
  return value == entry->end() ? nullptr : &*value;
}

/// The echoed value of parameter `name` when it is a number.
std::optional<double> parameter(const json& doc, const char* name) {
  const json* value = echoed_value(doc, name);
  if (value == nullptr || !value->is_number()) return std::nullopt;
  return value->get<double>();
}

/// The echoed value of parameter `name` when it is an array of numbers.
std::optional<std::vector<double>> parameter_list(const json& doc, const char* name) {
  const json* value = echoed_value(doc, name);
  if (value == nullptr || !value->is_array()) return std::nullopt;
  std::vector<double> out;
  for (const auto& v : *value) {
    if (!v.is_number()) return std::nullopt;
    out.push_back(v.get<double>());
  }
  return out;
}

/// The summary's numeric values of metric `name`, each with its labels.
std::vector<std::pair<json, double>> values_of(const json& doc, const std::string& name) {
  std::vector<std::pair<json, double>> out;
  for (const auto& m : doc["summary"]) {
    if (!m.is_object() || m.value("name", "") != name) continue;
    const auto value = m.find("value");
    if (value == m.end() || !value->is_number()) continue;
    out.emplace_back(m.contains("labels") ? m["labels"] : json::object(), value->get<double>());
  }
  return out;
}

/// The value of metric `name` without labels (or the first), when there is one.
std::optional<double> value_of(const json& doc, const std::string& name) {
  const auto values = values_of(doc, name);
  if (values.empty()) return std::nullopt;
  return values.front().second;
}

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

/// `derived` against what its terms give, within the tolerance of the largest term.
bool agrees(double derived, double expected, std::initializer_list<double> terms) {
  double scale = std::max(std::fabs(derived), std::fabs(expected));
  for (double t : terms) scale = std::max(scale, std::fabs(t));
  return std::fabs(derived - expected) <= DocumentRules::kRelativeTolerance * scale;
}

void check_logp(const json& doc, std::vector<std::string>& out) {
  const auto eel = value_of(doc, "eel_min");
  const auto o_s = value_of(doc, "o_s");
  const auto o_r = value_of(doc, "o_r");
  const auto l = value_of(doc, "latency_l");
  if (!eel || !o_s || !o_r || !l) return;
  const double expected = *eel - *o_s - *o_r;
  if (!agrees(*l, expected, {*eel, *o_s, *o_r})) {
    out.push_back("L = EEL - o_s - o_r: latency_l is " + number(*l) + " s, eel_min " +
                  number(*eel) + " - o_s " + number(*o_s) + " - o_r " + number(*o_r) + " = " +
                  number(expected) + " s");
  }
}

void check_comm(const json& doc, std::vector<std::string>& out) {
  const auto b_eff = value_of(doc, "b_eff");
  const auto ring = value_of(doc, "b_ring");
  const auto random = value_of(doc, "b_random");
  if (b_eff && ring && random && *ring > 0 && *random > 0) {
    const double expected = std::exp((std::log(*ring) + std::log(*random)) / 2);
    if (!agrees(*b_eff, expected, {*ring, *random})) {
      out.push_back("b_eff = logavg(b_ring, b_random): b_eff is " + number(*b_eff) +
                    " B/s, its rings give " + number(expected) + " B/s");
    }
  }
  const auto per_process = value_of(doc, "b_eff_per_process");
  const auto nprocs = doc.find("nprocs");
  if (b_eff && per_process && nprocs != doc.end() && nprocs->is_number_integer() &&
      nprocs->get<long long>() > 0) {
    const double expected = *b_eff / static_cast<double>(nprocs->get<long long>());
    if (!agrees(*per_process, expected, {expected})) {
      out.push_back("b_eff_per_process = b_eff / processes: b_eff_per_process is " +
                    number(*per_process) + " B/s, b_eff " + number(*b_eff) + " / " +
                    std::to_string(nprocs->get<long long>()) + " = " + number(expected) + " B/s");
    }
  }
}

void check_io(const json& doc, std::vector<std::string>& out) {
  // Each partition's access bandwidths, by access method.
  std::map<std::string, std::map<std::string, double>> access;
  for (const auto& [labels, value] : values_of(doc, "access_bandwidth")) {
    if (!labels.contains("partition") || !labels.contains("access")) continue;
    access[labels["partition"].dump()][labels["access"].is_string()
                                           ? labels["access"].get<std::string>()
                                           : labels["access"].dump()] = value;
  }
  std::map<std::string, double> paper;
  for (const auto& [labels, value] : values_of(doc, "b_eff_io_paper")) {
    if (!labels.contains("partition")) continue;
    const std::string n = labels["partition"].dump();
    paper[n] = value;
    const auto& a = access[n];
    if (!a.count("write") || !a.count("rewrite") || !a.count("read")) continue;
    const double expected = 0.25 * a.at("write") + 0.25 * a.at("rewrite") + 0.5 * a.at("read");
    if (!agrees(value, expected, {a.at("write"), a.at("rewrite"), a.at("read")})) {
      out.push_back("paper b_eff_io = 0.25 write + 0.25 rewrite + 0.5 read (partition " + n +
                    "): b_eff_io_paper is " + number(value) + " B/s, its access bandwidths give " +
                    number(expected) + " B/s");
    }
  }
  std::map<std::string, double> rev2;
  for (const auto& [labels, value] : values_of(doc, "b_eff_io")) {
    if (labels.contains("partition")) rev2[labels["partition"].dump()] = value;
  }
  for (const auto& [system, of] :
       {std::pair{"b_eff_io_system", &rev2}, std::pair{"b_eff_io_paper_system", &paper}}) {
    for (const auto& [labels, value] : values_of(doc, system)) {
      if (!labels.contains("partition")) continue;
      const auto it = of->find(labels["partition"].dump());
      if (it == of->end() || agrees(value, it->second, {it->second})) continue;
      out.push_back(std::string(system) + " is the figure of partition " +
                    labels["partition"].dump() + ": " + number(value) + " B/s, that partition's " +
                    number(it->second) + " B/s");
    }
  }
}

}  // namespace

std::vector<std::string> DocumentRules::method(const json& doc) {
  std::vector<std::string> out;
  const std::string worker = doc.value("worker", "");
  if (worker == "logp") {
    const auto runs = parameter(doc, "eel_runs");
    const auto max_size = parameter(doc, "max_size");
    const auto min_size = parameter(doc, "min_size");
    if (runs && max_size && min_size) {
      out = worker::MethodRules::logp(static_cast<std::int64_t>(*runs),
                                      static_cast<std::int64_t>(*max_size),
                                      static_cast<std::int64_t>(*min_size));
    }
  } else if (worker == "comm") {
    const auto patterns = parameter(doc, "random_patterns");
    const auto repetitions = parameter(doc, "repetitions");
    const auto window = parameter_list(doc, "target_window");
    const auto looplength = parameter(doc, "start_looplength");
    if (patterns && repetitions && window && window->size() == 2 && looplength) {
      const auto departures = worker::MethodRules::comm(
          static_cast<std::int64_t>(*patterns), static_cast<std::int64_t>(*repetitions),
          (*window)[0], (*window)[1], static_cast<std::int64_t>(*looplength));
      if (!departures.empty()) out.push_back(worker::MethodRules::comm_reason(departures));
    }
  } else if (worker == "io") {
    const auto times = values_of(doc, "partition_time");
    if (!times.empty()) {
      if (auto reason =
              worker::MethodRules::io(times.front().second, static_cast<int>(times.size()))) {
        out.push_back(std::move(*reason));
      }
    }
  }
  return out;
}

std::vector<std::string> DocumentRules::identities(const json& doc) {
  std::vector<std::string> out;
  if (!doc.contains("summary") || !doc["summary"].is_array()) return out;
  const std::string worker = doc.value("worker", "");
  if (worker == "logp") check_logp(doc, out);
  if (worker == "comm") check_comm(doc, out);
  if (worker == "io") check_io(doc, out);
  return out;
}

}  // namespace pbench::ingest
