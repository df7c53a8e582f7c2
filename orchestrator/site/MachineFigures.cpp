#include "site/MachineFigures.hpp"

#include <cmath>
#include <sstream>

#include "common/Units.hpp"
#include "sweep/TomlReader.hpp"
#include "util/Error.hpp"

namespace pbench::site {

namespace {

std::optional<double>* field(MachineFigures& f, const std::string& key) {
  if (key == "latency_us") return &f.latency_us;
  if (key == "process_bandwidth_gb_s") return &f.process_bandwidth_gb_s;
  if (key == "node_bandwidth_gb_s") return &f.node_bandwidth_gb_s;
  if (key == "fs_bandwidth_gb_s") return &f.fs_bandwidth_gb_s;
  if (key == "fs_metadata_ops_s") return &f.fs_metadata_ops_s;
  if (key == "startup_s_per_process") return &f.startup_s_per_process;
  return nullptr;
}

std::string known_keys() {
  std::string out = "cluster";
  for (const auto& r : machine_figure_ranges()) out += std::string(", ") + r.key;
  return out;
}

}  // namespace

const std::vector<FigureRange>& machine_figure_ranges() {
  // The physical caps: no process streams past 10 TB/s (issue 51), no message is faster than
  // light across a room nor slower than a second, no start-up takes a minute per process.
  static const std::vector<FigureRange> ranges = {
      {"latency_us", "us", 0, 1e6},
      {"process_bandwidth_gb_s", "GB/s", 0, 1e4},
      {"node_bandwidth_gb_s", "GB/s", 0, 1e5},
      {"fs_bandwidth_gb_s", "GB/s", 0, 1e6},
      {"fs_metadata_ops_s", "operations/s", 0, 1e9},
      {"startup_s_per_process", "s", 0, 60},
  };
  return ranges;
}

void MachineFigures::set(const std::string& key, double value) {
  auto* target = field(*this, key);
  if (!target) throw UsageError(key + ": unknown key (known: " + known_keys() + ")");
  for (const auto& r : machine_figure_ranges()) {
    if (key != r.key) continue;
    if (!std::isfinite(value) || !(value > r.least) || value > r.most) {
      std::ostringstream out;
      out << key << ": " << value << " is outside its range (more than "
          << units::short_number(r.least, 3) << ", at most " << units::short_number(r.most, 3)
          << " " << r.unit << ")";
      throw UsageError(out.str());
    }
  }
  *target = value;
}

bool MachineFigures::empty() const {
  return !latency_us && !process_bandwidth_gb_s && !node_bandwidth_gb_s && !fs_bandwidth_gb_s &&
         !fs_metadata_ops_s && !startup_s_per_process && cluster.empty();
}

nlohmann::json MachineFigures::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  MachineFigures copy = *this;
  for (const auto& r : machine_figure_ranges()) {
    if (const auto* value = field(copy, r.key); value && *value) j[r.key] = **value;
  }
  if (!cluster.empty()) j["cluster"] = cluster;
  return j;
}

MachineFigures MachineFigures::from_json(const nlohmann::json& j) {
  MachineFigures f;
  if (!j.is_object()) return f;
  for (const auto& [key, value] : j.items()) {
    if (key == "cluster") {
      if (!value.is_string()) throw UsageError("machine.cluster: expected a name");
      f.cluster = value.get<std::string>();
    } else {
      if (!value.is_number()) throw UsageError("machine." + key + ": expected a number");
      f.set(key, value.get<double>());
    }
  }
  return f;
}

sweep::MachineConstants MachineFigures::apply(sweep::MachineConstants base,
                                              const std::string& source) const {
  if (latency_us) {
    base.latency = *latency_us * 1e-6;
    base.sources["latency"] = source;
  }
  if (process_bandwidth_gb_s) {
    base.bandwidth = *process_bandwidth_gb_s * 1e9;
    base.sources["bandwidth"] = source;
  }
  if (node_bandwidth_gb_s) {
    base.node_bandwidth = *node_bandwidth_gb_s * 1e9;
    base.sources["node bandwidth"] = source;
  }
  if (fs_bandwidth_gb_s) {
    base.io_bandwidth = *fs_bandwidth_gb_s * 1e9;
    base.sources["file system"] = source;
  }
  if (fs_metadata_ops_s) {
    base.metadata_seconds = 1 / *fs_metadata_ops_s;
    base.sources["file operation"] = source;
  }
  if (startup_s_per_process) {
    base.launch_per_process = *startup_s_per_process;
    base.sources["start-up"] = source;
  }
  return base;
}

std::optional<MachineFigures> machine_figures_of(std::string_view profile_text,
                                                 const std::string& origin) {
  toml::table root;
  try {
    root = toml::parse(profile_text, origin);
  } catch (const toml::parse_error&) {
    return std::nullopt;  // the profile's own parse says what is wrong
  }
  const auto* node = root.get("machine");
  if (!node) return std::nullopt;
  const sweep::TomlReader r("site profile " + origin);
  const auto* table = node->as_table();
  if (!table) r.fail("machine", "expected a table [machine]");
  MachineFigures figures;
  for (const auto& [key, value] : *table) {
    const std::string name(key.str());
    if (name == "cluster") {
      figures.cluster = r.text(value, "machine.cluster");
      if (figures.cluster.empty()) r.fail("machine.cluster", "an empty name");
      continue;
    }
    const auto number = value.value<double>();
    if (!field(figures, name)) r.fail("machine." + name, "unknown key (known: " + known_keys() + ")");
    if (!number) r.fail("machine." + name, "expected a number");
    try {
      figures.set(name, *number);
    } catch (const UsageError& e) {
      r.fail("machine", e.what());
    }
  }
  return figures;
}

metrics::BandwidthPeaks MachineFigures::bandwidth_peaks(const std::string& source) const {
  metrics::BandwidthPeaks peaks;
  if (process_bandwidth_gb_s) peaks.per_process = *process_bandwidth_gb_s * 1e9;
  if (node_bandwidth_gb_s) peaks.per_node = *node_bandwidth_gb_s * 1e9;
  if (peaks.per_process || peaks.per_node) peaks.source = source;
  return peaks;
}

metrics::BandwidthPeaks sweep_bandwidth_peaks(const std::string& spec_json) {
  const auto spec = nlohmann::json::parse(spec_json, nullptr, false);
  if (!spec.is_object() || !spec.contains("machine") || !spec["machine"].is_object()) return {};
  std::string source = "site profile";
  if (spec.contains("site") && spec["site"].is_object()) {
    const auto path = spec["site"].value("path", std::string());
    if (!path.empty()) source += " " + path;
  }
  return MachineFigures::from_json(spec["machine"]).bandwidth_peaks(source + " [machine]");
}

}  // namespace pbench::site
