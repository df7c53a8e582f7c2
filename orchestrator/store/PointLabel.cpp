#include "store/PointLabel.hpp"

#include <nlohmann/json.hpp>

#include "util/NumberText.hpp"

namespace pbench::store {
namespace {

/// The short keys of `p` (an object), with its shape NxP first when `with_shape`.
std::string parameter_words(const nlohmann::json& p, bool with_shape) {
  std::string out;
  const auto add = [&](const std::string& text) { out += (out.empty() ? "" : " ") + text; };
  const auto value = [](const nlohmann::json& v) {
    if (v.is_string())
      return v.get<std::string>().empty() ? std::string("-") : v.get<std::string>();
    if (v.is_boolean()) return std::string(v.get<bool>() ? "on" : "off");
    if (v.is_number_float()) return plain_significant(v.get<double>(), 6);
    return v.dump();
  };
  if (with_shape && p.contains("nodes") && p.contains("procs_per_node")) {
    add(value(p["nodes"]) + "x" + value(p["procs_per_node"]));
  }
  if (p.contains("queue_depth")) add("q=" + value(p["queue_depth"]));
  if (p.contains("schedule_time")) {
    add("T=" + value(p["schedule_time"]));
    add("hints=" + (p.contains("hints") ? value(p["hints"]) : std::string("-")));
  } else if (p.contains("hints")) {
    add("hints=" + value(p["hints"]));
  }
  if (p.contains("transfer_size")) add("xfer=" + value(p["transfer_size"]));
  if (p.contains("pattern")) add("pattern=" + value(p["pattern"]));
  if (p.contains("collective")) add("coll=" + value(p["collective"]));
  if (p.contains("env")) add("env=" + value(p["env"]));
  return out;
}

}  // namespace

std::string short_parameters(const std::string& params_json) {
  const auto p = nlohmann::json::parse(params_json, nullptr, false);
  if (!p.is_object()) return params_json;
  const std::string words = parameter_words(p, true);
  return words.empty() ? "-" : words;
}

std::string point_label(const std::string& worker, long long partition,
                        const std::string& params_json, const std::string& key) {
  std::string out = worker + " p=" + std::to_string(partition);
  const auto p = nlohmann::json::parse(params_json, nullptr, false);
  if (p.is_object()) {
    if (p.contains("nodes") && p.contains("procs_per_node")) {
      out += " (" + p["nodes"].dump() + "x" + p["procs_per_node"].dump() + ")";
    }
    if (const std::string words = parameter_words(p, false); !words.empty()) out += " " + words;
  }
  return out + " [" + key + "]";
}

}  // namespace pbench::store
