#pragma once
// Validates worker result documents against the contract and stores each once: the document
// whole, its typed columns and its summary metrics, in one transaction.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "common/MetricCatalogue.hpp"
#include "ingest/AttemptIdentity.hpp"
#include "store/Store.hpp"

namespace pbench::ingest {

struct IngestOutcome {
  bool duplicate = false;  ///< the same document was already stored; nothing changed
  std::int64_t result_id = 0;
  std::size_t metrics = 0;
  /// Why the result was not launched as its point asked (ingest/LaunchCheck.hpp): it is stored
  /// not valid with this reason first; empty when it was.
  std::string launch;
  /// Why a figure of the result cannot be (the catalogue's bound of each metric), when its
  /// document said it was valid: stored not valid with this reason; empty otherwise.
  std::string impossible;
  /// Which arguments its point fixed the document did not run with (AttemptIdentity.hpp): it is
  /// stored not valid with this reason; empty when it ran with all.
  std::string arguments;
  /// Why its document, which said valid, is not by its own parameters and figures (the
  /// method's rules on its echoed parameters, the identities of its figures: DocumentRules.hpp):
  /// stored not valid with this reason; empty otherwise.
  std::string rules;
};

class Ingester {
 public:
  explicit Ingester(store::Store& store);
  ~Ingester();
  Ingester(Ingester&&) noexcept;
  Ingester(const Ingester&) = delete;
  Ingester& operator=(const Ingester&) = delete;

  /// Reads, validates and stores the document at `path`, linked to a point and attempt when
  /// given. Throws ValidationError naming the path and the problems; nothing is stored then.
  /// With `identity` (the attempt that collects it), a document written for another sweep,
  /// point or attempt, or a byte-identical copy of another attempt's stored result, is refused;
  /// one that ran with other arguments than its point fixed is stored not valid, naming them;
  /// and a document whose bytes are not those collect recorded beside it (result.sha256:
  /// ResultChecksum.hpp) is refused as edited, while a stored one gets its hash recorded.
  IngestOutcome ingest_file(const std::string& path, std::optional<std::int64_t> point_id = {},
                            std::optional<std::int64_t> attempt_id = {},
                            const AttemptIdentity* identity = nullptr);
  /// The same for a document's text; `origin` names it in errors.
  /// Holds every bandwidth to what this machine is stated to move (a site profile's [machine]
  /// peaks) instead of the generic 10 TB/s per process alone (MetricCatalogue.hpp).
  void set_machine_peaks(metrics::BandwidthPeaks peaks) { peaks_ = std::move(peaks); }
  IngestOutcome ingest_text(const std::string& text, const std::string& origin,
                            std::optional<std::int64_t> point_id = {},
                            std::optional<std::int64_t> attempt_id = {},
                            const AttemptIdentity* identity = nullptr);

 private:
  struct Statements;
  store::Store& store_;
  metrics::BandwidthPeaks peaks_;
  /// Prepared on the first document and kept for the next: preparing them for each document
  /// (SQLite compiling the SQL) cost as much as validating it.
  std::unique_ptr<Statements> statements_;
};

/// Parses and validates a document; throws ValidationError ("result 'origin': ...").
nlohmann::json parse_and_validate(const std::string& text, const std::string& origin);

}  // namespace pbench::ingest
