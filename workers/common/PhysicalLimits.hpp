#pragma once
// The one check every worker runs on its figures before it calls a result valid: a figure that
// no measurement can give (a negative latency or overhead, a bandwidth of zero or less, a total
// time shorter than the sum of its parts, a value that is not a finite number) makes the result
// not valid, with a reason naming the quantity, its value and its unit.
//
// This is no test of plausibility: only of what cannot be. The metric catalogue's bounds, which
// the orchestrator holds every stored value to (MetricCatalogue.hpp: a latency floor of 10 ns, a
// bandwidth ceiling per process), word their breaches the same way. Each worker declares its
// quantities and adds the reasons it gets back to its validity reasons, first, since a figure that
// cannot be is the gravest reason a result has.
//
// Reasons start with "physically impossible: " so that they can be told from the method's own
// rules (T < 15 min, the 3% rule) in any listing.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pbench::worker {

/// What a quantity must satisfy to be possible at all.
enum class PhysicalRule {
  positive,               ///< > 0: a bandwidth, a latency, a duration of something done
  non_negative,           ///< >= 0: an overhead, a time that may be nil
  at_least_sum_of_parts,  ///< the whole >= the sum of its parts (minus a stated slack)
};

/// A named value: a member of a family (label "task 2") or a part of a whole (label "open").
struct LabelledValue {
  std::string label;
  double value = 0;
};

/// One declared quantity, or a family of them that share name, unit, rule and meaning (OL_i
/// of every task), which gives one reason listing every member that breaks the rule.
struct PhysicalQuantity {
  std::string name;  ///< as the result names it ("OL", "G (q = 4)", "partition 2: elapsed")
  std::string unit;  ///< base unit: "s", "B/s", "s/B", "B"
  PhysicalRule rule = PhysicalRule::positive;
  std::vector<LabelledValue> values;  ///< one with an empty label, or the family's members
  std::vector<LabelledValue> parts;   ///< at_least_sum_of_parts: the parts of values[0]
  double slack = 0;                   ///< at_least_sum_of_parts: how far the parts may exceed
                                      ///< the whole (clock and rounding) [unit]
  std::string why;                    ///< what a breach means here; appended to the reason
};

class PhysicalLimits {
 public:
  /// Declares `name` = `value` [unit] as a quantity that must be > 0.
  PhysicalLimits& positive(std::string name, double value, std::string unit, std::string why = {});
  /// Declares `name` = `value` [unit] as a quantity that must be >= 0.
  PhysicalLimits& non_negative(std::string name, double value, std::string unit,
                               std::string why = {});
  /// Declares a family of quantities that must each be > 0 (one reason for all that are not).
  PhysicalLimits& positive_each(std::string name, std::vector<LabelledValue> members,
                                std::string unit, std::string why = {});
  /// Declares that `whole` [unit] cannot fall short of the sum of `parts` by more than
  /// `slack` (>= 0).
  PhysicalLimits& at_least_sum_of_parts(std::string name, double whole, std::string unit,
                                        std::vector<LabelledValue> parts, double slack,
                                        std::string why = {});

  /// A reason for each declared quantity (or family) that breaks its rule, in the order they
  /// were declared; empty when every figure is possible.
  std::vector<std::string> reasons() const;
  const std::vector<PhysicalQuantity>& quantities() const { return quantities_; }

 private:
  /// Declares a quantity (or family) of one value or more, without parts.
  PhysicalLimits& declare(std::string name, std::string unit, PhysicalRule rule,
                          std::vector<LabelledValue> values, std::string why);

  std::vector<PhysicalQuantity> quantities_;
};

/// How a reason shows a value with its unit: seconds below 1 ms in microseconds, s/B in ns/B,
/// anything else in its own unit, with 4 significant digits ("-4.67 us", "0 B/s").
std::string physical_value_text(double value, const std::string& unit);

/// How every such reason starts, here and in the metric catalogue's bounds.
inline constexpr std::string_view kPhysicalPrefix = "physically impossible: ";
/// Whether `reason` is one of these checks' reasons (it carries their "physically impossible: "
/// prefix), here or in the metric catalogue's bounds.
bool is_physical_reason(const std::string& reason);

/// A family lists at most this many members in its reason, then says how many more.
inline constexpr std::size_t kPhysicalListed = 5;

/// `items` joined with `separator`, at most `most` of them, then " and N more": how every reason
/// lists members (ranks, tasks, nodes), so that it stays short however many there are.
std::string few_listed(const std::vector<std::string>& items, std::size_t most,
                       std::string_view separator = ", ");

}  // namespace pbench::worker
