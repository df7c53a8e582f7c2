#include "common/PhysicalLimits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pbench::worker {
namespace {

const std::string kPrefix(kPhysicalPrefix);

std::string significant(double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.4g", value);
  return text;
}

bool breaks(PhysicalRule rule, double value) {
  if (!std::isfinite(value)) return true;
  return rule == PhysicalRule::positive ? !(value > 0) : !(value >= 0);
}

/// "is not positive", "is negative" or "is not a finite number".
std::string breach(PhysicalRule rule, double value) {
  if (!std::isfinite(value)) return "is not a finite number";
  return rule == PhysicalRule::positive ? "is not positive" : "is negative";
}

std::string with_why(std::string reason, const std::string& why) {
  return why.empty() ? reason : reason + ": " + why;
}

std::string single_reason(const PhysicalQuantity& q) {
  const double value = q.values.front().value;
  if (!breaks(q.rule, value)) return {};
  return with_why(
      kPrefix + q.name + " = " + physical_value_text(value, q.unit) + " " + breach(q.rule, value),
      q.why);
}

std::string family_reason(const PhysicalQuantity& q) {
  std::vector<std::string> members;
  for (const auto& member : q.values) {
    if (!breaks(q.rule, member.value)) continue;
    members.push_back(member.label + " (" + physical_value_text(member.value, q.unit) + ")");
  }
  if (members.empty()) return {};
  return with_why(kPrefix + q.name + " " +
                      (q.rule == PhysicalRule::positive ? "is not positive" : "is negative") +
                      " for " + few_listed(members, kPhysicalListed),
                  q.why);
}

std::string sum_reason(const PhysicalQuantity& q) {
  const double whole = q.values.front().value;
  double sum = 0;
  std::string terms;
  std::size_t listed = 0;
  bool finite = std::isfinite(whole);
  for (const auto& part : q.parts) {
    sum += part.value;
    finite = finite && std::isfinite(part.value);
    if (++listed > kPhysicalListed) continue;
    terms +=
        (terms.empty() ? "" : " + ") + part.label + " " + physical_value_text(part.value, q.unit);
  }
  if (listed > kPhysicalListed) {
    terms += " + " + std::to_string(listed - kPhysicalListed) + " more";
  }
  if (finite && whole + q.slack >= sum) return {};
  const std::string what = finite ? "is less than the sum of its parts, " +
                                        physical_value_text(sum, q.unit) + " (" + terms + ")"
                                  : "or one of its parts is not a finite number (" + terms + ")";
  return with_why(kPrefix + q.name + " = " + physical_value_text(whole, q.unit) + " " + what,
                  q.why);
}

}  // namespace

std::string few_listed(const std::vector<std::string>& items, std::size_t most,
                       std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < most; ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  if (items.size() > most) out += " and " + std::to_string(items.size() - most) + " more";
  return out;
}

PhysicalLimits& PhysicalLimits::declare(std::string name, std::string unit, PhysicalRule rule,
                                        std::vector<LabelledValue> values, std::string why) {
  quantities_.push_back(
      {std::move(name), std::move(unit), rule, std::move(values), {}, 0, std::move(why)});
  return *this;
}

PhysicalLimits& PhysicalLimits::positive(std::string name, double value, std::string unit,
                                         std::string why) {
  return declare(std::move(name), std::move(unit), PhysicalRule::positive, {{"", value}},
                 std::move(why));
}

PhysicalLimits& PhysicalLimits::non_negative(std::string name, double value, std::string unit,
                                             std::string why) {
  return declare(std::move(name), std::move(unit), PhysicalRule::non_negative, {{"", value}},
                 std::move(why));
}

PhysicalLimits& PhysicalLimits::positive_each(std::string name, std::vector<LabelledValue> members,
                                              std::string unit, std::string why) {
  return declare(std::move(name), std::move(unit), PhysicalRule::positive, std::move(members),
                 std::move(why));
}

PhysicalLimits& PhysicalLimits::at_least_sum_of_parts(std::string name, double whole,
                                                      std::string unit,
                                                      std::vector<LabelledValue> parts,
                                                      double slack, std::string why) {
  quantities_.push_back({std::move(name),
                         std::move(unit),
                         PhysicalRule::at_least_sum_of_parts,
                         {{"", whole}},
                         std::move(parts),
                         std::max(0.0, slack),
                         std::move(why)});
  return *this;
}

std::vector<std::string> PhysicalLimits::reasons() const {
  std::vector<std::string> out;
  for (const auto& q : quantities_) {
    if (q.values.empty()) continue;  // an empty family: nothing measured, nothing impossible
    std::string reason;
    if (q.rule == PhysicalRule::at_least_sum_of_parts) {
      reason = sum_reason(q);
    } else if (q.values.size() == 1 && q.values.front().label.empty()) {
      reason = single_reason(q);
    } else {
      reason = family_reason(q);
    }
    if (!reason.empty()) out.push_back(std::move(reason));
  }
  return out;
}

std::string physical_value_text(double value, const std::string& unit) {
  if (unit == "s" && std::fabs(value) < 1e-3) return significant(value * 1e6) + " us";
  if (unit == "s/B") return significant(value * 1e9) + " ns/B";
  return unit.empty() ? significant(value) : significant(value) + " " + unit;
}

bool is_physical_reason(const std::string& reason) {
  return reason.find(kPrefix) != std::string::npos;
}

}  // namespace pbench::worker
