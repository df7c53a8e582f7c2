#pragma once

// What pbench-comm tells people and programs: the --describe listing (text or JSON), the
// readable protocol of a run (settings, pattern list, bandwidth by message size per pattern and
// method, the summary as the paper's Table 1, the final b_eff line), and the result document.
#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "comm/BeffFigures.hpp"
#include "comm/Benchmark.hpp"
#include "comm/CommOptions.hpp"
#include "comm/MessageSizes.hpp"
#include "comm/PatternSet.hpp"
#include "common/NodeLayout.hpp"

namespace pbench::worker {
class ResultDocument;
}

namespace pbench::comm {

class CommReport {
 public:
  /// A report on a run of `patterns` with `sizes`; `memory_source` says where the memory per
  /// process came from, `seed_drawn` whether the seed was drawn (not given).
  /// `nodes` is the host of every rank, when known (then each pattern's node crossings and
  /// b_eff per node are reported).
  CommReport(const CommConfig& config, const PatternSet& patterns, MessageSizes sizes,
             std::string memory_source, bool seed_drawn,
             std::optional<worker::NodeLayout> nodes = std::nullopt);

  /// Settings, message sizes and the pattern list, before the measurements.
  void header(std::ostream& out) const;
  /// One line before each new message size.
  void progress(std::ostream& out, int repetition, int position, double elapsed) const;
  /// Bandwidth tables, b_pat per pattern, the summary, validity, and the final b_eff line.
  void results(std::ostream& out, const BenchmarkOutcome& outcome, const BeffFigures& figures,
               const std::vector<std::string>& reasons,
               const std::vector<std::string>& warnings) const;
  /// Seeds, tables (message_sizes, l_max, patterns, pattern_nodes, measurements, table1) and
  /// summary metrics.
  void fill(worker::ResultDocument& result, const BenchmarkOutcome& outcome,
            const BeffFigures& figures) const;

  /// The input the b_eff reduction needs for this run.
  BeffInput reduction_input() const;

  /// --describe as text: patterns (ring sizes and labels), random pattern count and seed, and
  /// the message sizes when the memory per process is given.
  static std::string describe_text(const CommConfig& config, const PatternSet& patterns,
                                   const std::optional<MessageSizes>& sizes);
  /// --describe as JSON, the same content.
  static nlohmann::json describe_json(const CommConfig& config, const PatternSet& patterns,
                                      const std::optional<MessageSizes>& sizes);
  /// The note that the seed is recorded, unlike the original's time seed.
  static std::string seed_note(std::uint32_t seed, bool drawn);
  /// Where this run measures otherwise than the original b_eff 3.6.0.1 in ways that move the
  /// figures on a machine whose cores the processes share (bench/README.md, "pbench-comm beside
  /// the original b_eff"): rows of (aspect, pbench, b_eff 3.6.0.1), in every result as the table
  /// differences_from_b_eff_3_6.
  static std::vector<std::array<std::string, 3>> differences_from_b_eff_3_6(
      const CommConfig& config);

 private:
  // fill()'s parts, in the document's order: the run's set-up (seed, differences from b_eff
  // 3.6, message sizes, L_max, patterns and where they cross nodes), every measurement, and the
  // figures (table 1 and the metrics).
  void fill_setup(worker::ResultDocument& result) const;
  void fill_measurements(worker::ResultDocument& result, const BenchmarkOutcome& outcome) const;
  void fill_figures(worker::ResultDocument& result, const BeffFigures& figures) const;
  const CommConfig& config_;
  const PatternSet& patterns_;
  MessageSizes sizes_;
  std::string memory_source_;
  bool seed_drawn_;
  std::optional<worker::NodeLayout> nodes_;
  int nprocs_;
};

}  // namespace pbench::comm
