#pragma once
// A worker's sweep dimension, described once as data (issue 53): its name (the point's key),
// its key in the stored specification and in a sweep file, its command-line option and help,
// the kind and default of its values, how its values are read and checked, the worker option a
// point passes it as, and how the report's provenance names it. The workers' dimensions are in
// their descriptions (sweep/WorkerCatalog.cpp); SweepSpec holds their values by name, and the
// command line (cli/SweepOptions), the sweep file (sweep/SweepFile), the stored specification
// (SweepSpec::to_json/from_json), the expansion into points and the validation read this table.
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace pbench::sweep {

/// What a dimension's values are, and how they are stored (a JSON array of that type).
enum class ValueKind {
  kCount,    ///< positive whole numbers (int), e.g. queue depths
  kSeconds,  ///< times in seconds (double), with units on the command line ("5min")
  kSize,     ///< byte counts (64-bit), with units on the command line ("64KiB")
  kText,     ///< words or texts
  kSwitch,   ///< on or off (bool)
};

struct Dimension {
  /// The point's key and the dimension's name: "queue_depth".
  std::string name;
  /// Its key in the stored specification (sweep.json, SweepSpec::to_json): "queue_depths".
  std::string spec_key;
  /// Its key in a sweep file (TOML, sweep/SweepFile.hpp): "queue_depths".
  std::string file_key;
  /// The command-line option, as CLI11 declares it: "-T,--schedule-times".
  std::string flag;
  /// The option's help text.
  std::string help;
  ValueKind kind = ValueKind::kText;
  /// The values when the sweep gives none, a JSON array; null when there are none. A dimension
  /// with defaults is always varied (and always stored); one without is varied only when
  /// given, so that a sweep without it keeps the stored form and point keys it always had.
  nlohmann::json defaults;
  /// Each option gives one whole value (--hints a=b,c=d --hints e=f), not a comma list.
  bool one_per_option = false;
  /// Reads the option's text (a comma list) into values of the kind; throws UsageError
  /// naming `option` and the bad item. Unused for a dimension given one value per option.
  nlohmann::json (*parse)(const std::string& text, const std::string& option) = nullptr;
  /// Checks one value of a sweep (from any source); throws UsageError naming the option.
  /// Null: every value of the kind is allowed.
  void (*check)(const nlohmann::json& value) = nullptr;
  /// Given without its worker in the sweep, the sweep is refused (else the values are kept
  /// and vary nothing).
  bool needs_worker = false;
  /// The worker option that carries a point's value: "--queue-depths".
  std::string worker_option;
  /// The worker's parameter (its --describe-parameters name) the value sets, for the plan's
  /// cost rules (sweep/MethodCost.hpp): "queue_depths"; empty: none they use.
  std::string worker_parameter;
  /// How the report's provenance names the values: "queue depths", with `unit` after each
  /// number (" s") and `separator` between values.
  std::string label;
  std::string unit;
  std::string separator = ", ";

  /// The long option the errors name: "--schedule-times".
  std::string option() const;
  /// The defaults as the command line writes them ("1,8,64"); empty when none.
  std::string default_text() const;
  /// `values` (a JSON array) as this dimension's kind stores them (whole numbers of seconds as
  /// seconds, ...); throws nlohmann::json::type_error when a value is not of the kind.
  nlohmann::json typed(const nlohmann::json& values) const;
  /// One value as errors and the provenance write it (60, 65536, on, a text).
  std::string value_text(const nlohmann::json& value) const;
  /// One value as the worker option takes it (collective: 1 or 0).
  std::string argument_text(const nlohmann::json& value) const;
};

/// Every worker's dimensions, each once, in the workers' order (the order the command line
/// declares them and a point's keys are crossed in).
std::vector<const Dimension*> all_dimensions();
/// The dimension called `name`; throws std::out_of_range for a name no worker has.
const Dimension& find_dimension(const std::string& name);
/// The values a sweep starts with: every dimension's defaults, by name (those that have them).
std::map<std::string, nlohmann::json> default_dimensions();

}  // namespace pbench::sweep
