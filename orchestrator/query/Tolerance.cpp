#include "query/Tolerance.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "util/Error.hpp"
#include "util/TextSafety.hpp"

namespace pbench::query {
namespace {

// Units a tolerance may be given in, per base unit of a figure: name -> factor to the base.
const std::map<std::string, std::map<std::string, double>>& unit_factors() {
  static const std::map<std::string, std::map<std::string, double>> units = {
      {"s", {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}}},
      {"s/B", {{"s/B", 1}, {"us/B", 1e-6}, {"ns/B", 1e-9}, {"ps/B", 1e-12}}},
      {"B/s",
       {{"B/s", 1},
        {"kB/s", 1e3},
        {"MB/s", 1e6},
        {"GB/s", 1e9},
        {"KiB/s", 1024.0},
        {"MiB/s", 1048576.0},
        {"GiB/s", 1073741824.0}}},
  };
  return units;
}

}  // namespace

double Tolerance::allowed(double reference) const {
  return relative ? std::fabs(reference) * amount / 100.0 : amount;
}

Tolerance parse_tolerance(const std::string& text, const std::string& unit,
                          const std::string& where) {
  const char* begin = text.c_str();
  char* end = nullptr;
  const double amount = std::strtod(begin, &end);
  const auto bad = [&](const std::string& why) {
    return UsageError(where + ": tolerance '" + printable_utf8(text) + "' " + why +
                      " (give a percentage like \"5%\" or an amount with a unit like \"0.2 us\")");
  };
  if (end == begin) throw bad("has no number");
  if (!std::isfinite(amount) || amount < 0) throw bad("is not a finite number >= 0");
  std::string rest(end);
  while (!rest.empty() && rest.front() == ' ') rest.erase(rest.begin());
  while (!rest.empty() && rest.back() == ' ') rest.pop_back();
  Tolerance t;
  t.text = text;
  if (rest == "%") {
    t.relative = true;
    t.amount = amount;
    return t;
  }
  if (rest.empty()) throw bad("has no unit");
  const auto base = unit_factors().find(unit);
  if (base == unit_factors().end())
    throw bad("is absolute, but the figure's unit '" + unit + "' takes a percentage only");
  const auto factor = base->second.find(rest);
  if (factor == base->second.end()) {
    std::string known;
    for (const auto& [name, f] : base->second) known += (known.empty() ? "" : ", ") + name;
    throw bad("has unit '" + printable_utf8(rest) + "', not one of " + known);
  }
  t.relative = false;
  t.amount = amount * factor->second;
  return t;
}

FigureSpread spread_of(std::vector<double> values) {
  FigureSpread s;
  s.n = static_cast<int>(values.size());
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const auto quantile = [](const std::vector<double>& sorted, double q) {
    const double at = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(at));
    const auto above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
  };
  s.median = quantile(values, 0.5);
  s.p5 = quantile(values, 0.05);
  s.p95 = quantile(values, 0.95);
  std::vector<double> deviations;
  for (double v : values) deviations.push_back(std::fabs(v - s.median));
  std::sort(deviations.begin(), deviations.end());
  s.mad = quantile(deviations, 0.5);
  return s;
}

Tolerance auto_tolerance(const FigureSpread& spread) {
  double percent = kAutoFloorPercent;
  if (spread.median != 0) {
    percent = std::max(percent, kAutoSigmas * spread.sigma() / std::fabs(spread.median) * 100.0);
  }
  // Three significant digits, never in e-notation ("2.5%", "116%", "1040%").
  char text[32];
  std::snprintf(text, sizeof(text), percent >= 100 ? "%.0f%%" : "%.3g%%", percent);
  Tolerance t;
  t.relative = true;
  t.amount = std::strtod(text, nullptr);  // the amount the file will say
  t.text = text;
  return t;
}

}  // namespace pbench::query
