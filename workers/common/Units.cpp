#include "common/Units.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

namespace pbench::units {

const char* const kSizeUnits = "B, k/M/G/T or kB/MB/GB/TB (1000), KiB/MiB/GiB/TiB (1024)";
const char* const kTimeUnits = "s, ms, us, min, h";

namespace {

std::string lower(std::string_view text) {
  std::string out;
  for (char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// Splits "1.5 MiB" into the number 1.5 and the unit "mib" (lower case, spaces dropped).
std::optional<std::pair<double, std::string>> number_and_unit(std::string_view text,
                                                              bool signed_number) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  std::size_t end = signed_number && !text.empty() && text.front() == '-' ? 1 : 0;
  const std::size_t digits = end;
  while (end < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) {
    ++end;
  }
  if (end == digits) return std::nullopt;  // no number (a sign only where a time may be < 0)
  double value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + end, value);
  if (ec != std::errc() || ptr != text.data() + end || !std::isfinite(value)) return std::nullopt;
  std::string_view unit = text.substr(end);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  return std::make_pair(value, lower(unit));
}

}  // namespace

std::optional<std::int64_t> parse_size(std::string_view text) {
  const auto parsed = number_and_unit(text, false);
  if (!parsed) return std::nullopt;
  const auto& [number, unit] = *parsed;
  static const std::pair<const char*, double> kFactors[] = {{"", 1},
                                                            {"b", 1},
                                                            {"kb", 1e3},
                                                            {"mb", 1e6},
                                                            {"gb", 1e9},
                                                            {"tb", 1e12},
                                                            {"k", 1e3},
                                                            {"m", 1e6},
                                                            {"g", 1e9},
                                                            {"t", 1e12},
                                                            {"kib", 1024.0},
                                                            {"mib", 1048576.0},
                                                            {"gib", 1073741824.0},
                                                            {"tib", 1099511627776.0}};
  for (const auto& [name, factor] : kFactors) {
    if (unit != name) continue;
    const double bytes = number * factor;
    if (bytes >= 9.2e18 || bytes != std::floor(bytes)) return std::nullopt;
    return static_cast<std::int64_t>(bytes);
  }
  return std::nullopt;
}

std::optional<double> parse_seconds(std::string_view text, double plain_unit) {
  const auto parsed = number_and_unit(text, true);
  if (!parsed) return std::nullopt;
  const auto& [number, unit] = *parsed;
  if (unit.empty()) return number * plain_unit;
  static const std::pair<const char*, double> kFactors[] = {
      {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"\xc2\xb5s", 1e-6}, {"min", 60}, {"h", 3600}};
  for (const auto& [name, factor] : kFactors) {
    if (unit == name) return number * factor;
  }
  return std::nullopt;
}

std::string plain_number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.9f", value);
  std::string out = buffer;
  if (out.find('.') != std::string::npos) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return out;
}

std::string short_number(double value, int significant) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", significant, value);
  return buffer;
}

}  // namespace pbench::units
