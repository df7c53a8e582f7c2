#pragma once
// A result document judged by its own parameters and figures, at ingest: what its worker would
// have said had it run with the parameters the document echoes, and whether its figures obey
// the identities its worker computes them by. A document that says valid where either fails is
// stored not valid with the rule named (Ingester.hpp); a document that says not valid is stored
// as it is.
//  - method rules: the same rule code the workers run (workers/common/MethodRules.hpp), on the
//    echoed parameters (logp: eel_runs, max_size, min_size; comm: random_patterns,
//    repetitions, target_window, start_looplength; io: the scheduled time per partition);
//  - identities: logp's L = EEL - o_s - o_r; comm's b_eff = logavg(b_ring, b_random) and
//    b_eff_per_process = b_eff / processes; io's paper b_eff_io of each partition = 0.25 write
//    + 0.25 rewrite + 0.5 read of its access bandwidths (each averaged over its pattern types),
//    and the system figures = the partition's figure they name. Equal within kRelativeTolerance
//    of the largest term: a worker computes each from the same doubles it writes, which JSON
//    carries exactly (17 digits), so only the last bits of a sum, a log or an exp may differ.
// A parameter or figure the document does not carry (or not as a number) is not judged.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pbench::ingest {

class DocumentRules {
 public:
  /// How far a derived figure may be from what its terms give, relative to the largest term.
  static constexpr double kRelativeTolerance = 1e-9;

  /// The method's rules `doc`'s echoed parameters break: "eel_runs 3 < 10: the method takes
  /// the minimum over at least 10 runs"; empty when none.
  static std::vector<std::string> method(const nlohmann::json& doc);
  /// The identities `doc`'s figures break: "L = EEL - o_s - o_r: latency_l is 4.1e-07 s, EEL
  /// - o_s - o_r = 5.91e-06 s"; empty when none.
  static std::vector<std::string> identities(const nlohmann::json& doc);
};

}  // namespace pbench::ingest
