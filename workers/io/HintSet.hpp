#pragma once
// MPI-IO hints for the benchmark files (METHODS.md section 2): from the environment
// (PBENCH_HINT_<KEY>=value), a hints file (one key=value per line, # comments), and --hint
// key=value on the command line, in rising precedence; a hint may be given for one pattern type
// only ("type0:cb_buffer_size=16777216"), which wins over the same key for all types. They are
// passed as MPI_Info at open; the hints in effect are read back per file.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pbench::io {

struct Hint {
  std::string key;
  std::string value;
  std::optional<int> type;  ///< only for this pattern type
  std::string source;       ///< "environment", "hints_file", "command_line"
};

using HintList = std::vector<std::pair<std::string, std::string>>;

class HintSet {
 public:
  /// Parses "key=value" or "typeN:key=value"; throws std::invalid_argument naming the problem.
  static Hint parse(const std::string& text, const std::string& source);

  /// Adds one hint (a later hint for the same key and scope replaces an earlier one).
  void add(Hint hint);
  /// Adds every "key=value" line of a file (blank lines and # comments skipped); throws
  /// std::invalid_argument naming the file and line.
  void add_file(const std::string& path);
  /// Adds every PBENCH_HINT_<KEY>=value of `environment` (a null-terminated "NAME=value" list);
  /// the key is <KEY> in lower case; "PBENCH_HINT_TYPE0_<KEY>" scopes it to type 0.
  void add_environment(char** environment);

  /// The hints for pattern type `type`: type-specific ones over those for every type, by key.
  HintList for_type(int type) const;
  const std::vector<Hint>& hints() const { return hints_; }
  bool empty() const { return hints_.empty(); }

 private:
  std::vector<Hint> hints_;
};

}  // namespace pbench::io
