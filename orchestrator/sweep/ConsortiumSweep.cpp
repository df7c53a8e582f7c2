#include "sweep/ConsortiumSweep.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <optional>

#include "common/Units.hpp"
#include "io/ConsortiumParameters.hpp"
#include "io/ConsortiumPattern.hpp"
#include "sweep/SweepSpec.hpp"
#include "util/Error.hpp"

namespace pbench::sweep {
namespace {

/// The items of a comma-separated list; throws UsageError for an empty list or item.
std::vector<std::string> items_of(const std::string& text, const std::string& option) {
  if (text.empty()) throw UsageError(option + ": empty list");
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    out.push_back(
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (out.back().empty()) {
      throw UsageError(option + ": '" + text + "' has an empty item at position " +
                       std::to_string(out.size()));
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

/// The io setting `name`, or nothing.
std::optional<std::string> io_setting(const SweepSpec& spec, const std::string& name) {
  const auto worker = spec.settings.find("io");
  if (worker == spec.settings.end()) return std::nullopt;
  const auto value = worker->second.find(name);
  if (value == worker->second.end()) return std::nullopt;
  return value->second;
}

/// A size as the workers read it (4096, 64KiB, 1MiB, 1MB: common/Units.hpp), or nothing.
std::optional<std::int64_t> size_value(const std::string& text) { return units::parse_size(text); }

/// A whole-number io setting, or `fallback`; sizes in bytes may carry units (64KiB).
std::int64_t integer_setting(const SweepSpec& spec, const std::string& name, std::int64_t fallback,
                             bool size = false) {
  const auto text = io_setting(spec, name);
  if (!text) return fallback;
  std::optional<std::int64_t> value;
  if (size) {
    value = size_value(*text);
  } else {
    std::int64_t number = 0;
    const auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), number);
    if (!text->empty() && ec == std::errc() && ptr == text->data() + text->size()) value = number;
  }
  if (!value) {
    throw UsageError("--set io." + name + "=" + *text + ": '" + *text + "' is not " +
                     (size ? "a size (e.g. 4096, 64KiB, 1MiB; units: " + std::string(units::kSizeUnits) + ")" : "a whole number"));
  }
  return *value;
}

/// A dimension given both as a list and as a fixed --set value is ambiguous: refused.
void refuse_both(const SweepSpec& spec, bool given, const std::string& option,
                 const std::string& parameter) {
  if (given && io_setting(spec, parameter)) {
    throw UsageError(option + " and --set io." + parameter +
                     " both give the same parameter: use one of them");
  }
}

std::string describe_point(int partition, const std::string& pattern, std::int64_t transfer) {
  return "io point (partition " + std::to_string(partition) + ", pattern " + pattern +
         ", transfer size " + std::to_string(transfer) + " B): ";
}

}  // namespace

std::string io_suite(const SweepSpec& spec) {
  return io_setting(spec, "suite").value_or("b_eff_io");
}

std::vector<std::int64_t> parse_size_list(const std::string& text, const std::string& option) {
  std::vector<std::int64_t> out;
  for (const std::string& item : items_of(text, option)) {
    const auto value = size_value(item);
    if (!value || *value < 1) {
      throw UsageError(option + ": '" + item + "' in '" + text +
                       "' is not a positive size (e.g. 4096, 64KiB, 1MiB, 1MB; units: " + units::kSizeUnits + ")");
    }
    out.push_back(*value);
  }
  return out;
}

std::vector<std::string> parse_pattern_list(const std::string& text, const std::string& option) {
  std::vector<std::string> out = items_of(text, option);
  for (const auto& name : out) {
    if (!io::parse_pattern(name)) {
      throw UsageError(option + ": '" + name + "' in '" + text +
                       "' is not a pattern (segmented, strided, random or general)");
    }
  }
  return out;
}

std::vector<bool> parse_switch_list(const std::string& text, const std::string& option) {
  std::vector<bool> out;
  for (const auto& item : items_of(text, option)) {
    if (item == "on" || item == "1" || item == "yes" || item == "true") {
      out.push_back(true);
    } else if (item == "off" || item == "0" || item == "no" || item == "false") {
      out.push_back(false);
    } else {
      throw UsageError(option + ": '" + item + "' in '" + text + "' is not on or off");
    }
  }
  return out;
}

void validate_io_suite(const SweepSpec& spec) {
  const std::string suite = io_suite(spec);
  if (suite != "b_eff_io" && suite != "consortium") {
    throw UsageError("--suite: '" + suite + "' is not a suite of io (b_eff_io or consortium)");
  }
  const auto transfer_sizes = spec.values_as<std::int64_t>("transfer_size");
  const auto given_patterns = spec.values_as<std::string>("pattern");
  const auto collective = spec.values_as<bool>("collective");
  const bool dimensions = !transfer_sizes.empty() || !given_patterns.empty() || !collective.empty();
  if (suite != "consortium") {
    const char* option = !transfer_sizes.empty()   ? "--transfer-sizes"
                         : !given_patterns.empty() ? "--patterns"
                                                   : "--collective";
    if (dimensions) {
      throw UsageError(std::string(option) +
                       " applies to io's consortium suite: add --suite consortium");
    }
    return;
  }
  if (!spec.values("schedule_time").empty()) {
    throw UsageError(
        "--schedule-times: the consortium suite has no scheduled time T (that is b_eff_io's)");
  }
  refuse_both(spec, !transfer_sizes.empty(), "--transfer-sizes", "transfer_size");
  refuse_both(spec, !given_patterns.empty(), "--patterns", "pattern");
  refuse_both(spec, !collective.empty(), "--collective", "collective");

  // The worker's defaults for what the sweep does not give.
  const io::ConsortiumOptions defaults;
  const bool posix = io_setting(spec, "api").value_or(defaults.api) == "posix";
  const bool any_collective =
      std::find(collective.begin(), collective.end(), true) != collective.end() ||
      integer_setting(spec, "collective", defaults.collective) != 0;
  if (posix && any_collective) {
    throw UsageError("--collective on: collective calls need MPI-IO, and io.api is posix");
  }
  const bool file_per_process =
      integer_setting(spec, "file_per_process", defaults.file_per_process) != 0;
  std::vector<std::string> patterns = given_patterns;
  if (patterns.empty()) patterns = {io_setting(spec, "pattern").value_or(defaults.pattern)};
  std::vector<std::int64_t> transfers = transfer_sizes;
  if (transfers.empty()) {
    transfers = {integer_setting(spec, "transfer_size", defaults.transfer_size, true)};
  }
  io::ConsortiumLayout layout;
  layout.header_bytes = integer_setting(spec, "header_bytes", defaults.header_bytes, true);
  layout.block_size = integer_setting(spec, "block_size", defaults.block_size, true);
  layout.segment_count = integer_setting(spec, "segment_count", defaults.segment_count);
  layout.padding = integer_setting(spec, "padding", defaults.padding, true);
  for (const auto& p : spec.partitions) {
    const int partition = p.processes;
    layout.clients = file_per_process ? 1 : partition;
    for (const auto& name : patterns) {
      const auto pattern = io::parse_pattern(name);
      if (!pattern) {
        throw UsageError("--set io.pattern=" + name +
                         ": not a pattern (segmented, strided, random or general)");
      }
      layout.pattern = *pattern;
      for (std::int64_t transfer : transfers) {
        layout.transfer_size = transfer;
        if (const auto problem = layout.problem()) {
          throw UsageError(describe_point(partition, name, transfer) + *problem);
        }
      }
    }
  }
}

void check_pattern(const std::string& name) {
  if (!io::parse_pattern(name)) {
    throw UsageError("--patterns: '" + name +
                     "' is not a pattern (segmented, strided, random or general)");
  }
}

}  // namespace pbench::sweep
