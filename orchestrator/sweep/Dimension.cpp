#include "sweep/Dimension.hpp"

#include <cstdint>
#include <sstream>
#include <stdexcept>

#include "sweep/WorkerCatalog.hpp"

namespace pbench::sweep {

std::string Dimension::option() const {
  const auto comma = flag.rfind(',');
  return comma == std::string::npos ? flag : flag.substr(comma + 1);
}

std::string Dimension::default_text() const {
  std::string out;
  if (!defaults.is_array()) return out;
  for (const auto& v : defaults) out += (out.empty() ? "" : ",") + value_text(v);
  return out;
}

nlohmann::json Dimension::typed(const nlohmann::json& values) const {
  switch (kind) {
    case ValueKind::kCount:
      return values.get<std::vector<int>>();
    case ValueKind::kSeconds:
      return values.get<std::vector<double>>();
    case ValueKind::kSize:
      return values.get<std::vector<std::int64_t>>();
    case ValueKind::kText:
      return values.get<std::vector<std::string>>();
    case ValueKind::kSwitch:
      return values.get<std::vector<bool>>();
  }
  return values;
}

std::string Dimension::value_text(const nlohmann::json& value) const {
  switch (kind) {
    case ValueKind::kCount:
      return std::to_string(value.get<int>());
    case ValueKind::kSeconds: {
      std::ostringstream out;
      out << value.get<double>();
      return out.str();
    }
    case ValueKind::kSize:
      return std::to_string(value.get<std::int64_t>());
    case ValueKind::kText:
      return value.get<std::string>();
    case ValueKind::kSwitch:
      return value.get<bool>() ? "on" : "off";
  }
  return value.dump();
}

std::string Dimension::argument_text(const nlohmann::json& value) const {
  if (kind == ValueKind::kSwitch) return value.get<bool>() ? "1" : "0";
  return value_text(value);
}

std::vector<const Dimension*> all_dimensions() {
  std::vector<const Dimension*> out;
  for (const auto& worker : worker_catalog()) {
    for (const auto& d : worker.dimensions) {
      bool known = false;
      for (const Dimension* seen : out) known = known || seen->name == d.name;
      if (!known) out.push_back(&d);
    }
  }
  return out;
}

const Dimension& find_dimension(const std::string& name) {
  for (const Dimension* d : all_dimensions()) {
    if (d->name == name) return *d;
  }
  throw std::out_of_range("no worker has the sweep dimension '" + name + "'");
}

std::map<std::string, nlohmann::json> default_dimensions() {
  std::map<std::string, nlohmann::json> out;
  for (const Dimension* d : all_dimensions()) {
    if (!d->defaults.is_null()) out[d->name] = d->typed(d->defaults);
  }
  return out;
}

}  // namespace pbench::sweep
