#include "ingest/Ingester.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/MetricCatalogue.hpp"
#include "common/PhysicalLimits.hpp"
#include "ingest/DocumentRules.hpp"
#include "ingest/JsonSchema.hpp"
#include "ingest/LaunchCheck.hpp"
#include "ingest/MetricRows.hpp"
#include "ingest/ResultChecksum.hpp"
#include "ingest/ResultRules.hpp"
#include "store/PackedDocument.hpp"
#include "store/ResultLayout.hpp"
#include "util/Error.hpp"
#include "util/Sha256.hpp"
#include "util/Time.hpp"

namespace pbench::ingest {
namespace {

constexpr int kSupportedSchemaVersion = 1;
constexpr std::size_t kProblemsShown = 5;
constexpr std::size_t kReasonChars = 100;
/// Deeper than any result document nests. Deeper input is refused before it is parsed: printing
/// a document again (its canonical form, error messages) recurses once per level.
constexpr std::size_t kMaxNestingDepth = 64;

std::string summarise(const std::vector<std::string>& problems) {
  std::string out;
  for (std::size_t i = 0; i < problems.size() && i < kProblemsShown; ++i) {
    out += (i ? "; " : "") + problems[i];
  }
  if (problems.size() > kProblemsShown) {
    out += "; and " + std::to_string(problems.size() - kProblemsShown) + " more";
  }
  return out;
}

/// A JSON library error without its "[json.exception...] " prefix, cut to a readable length.
std::string reason(const nlohmann::json::exception& e) {
  std::string text = e.what();
  if (const auto end = text.find("] ");
      text.rfind("[json.exception.", 0) == 0 && end != text.npos) {
    text.erase(0, end + 2);
  }
  if (text.size() > kReasonChars) text = text.substr(0, kReasonChars) + "...";
  return text;
}

/// The 1-based byte at which `text` nests arrays and objects deeper than kMaxNestingDepth, if it
/// does; brackets inside strings do not count.
std::optional<std::size_t> too_deep_at(const std::string& text) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNestingDepth) return i + 1;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

/// What stands at the 1-based `byte` where the JSON parser stopped, when it is a number JSON
/// cannot hold (NaN, Infinity, -Infinity, as Python's json module writes them): ": NaN is not a
/// JSON number (...)"; "" otherwise.
std::string non_json_number_at(const std::string& text, std::size_t byte) {
  std::size_t end = std::min(byte, text.size());
  auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  while (end < text.size() && letter(text[end])) ++end;
  std::size_t begin = std::min(byte > 0 ? byte - 1 : 0, end);
  while (begin > 0 && letter(text[begin - 1])) --begin;
  if (begin > 0 && text[begin - 1] == '-') --begin;
  const std::string word = text.substr(begin, end - begin);
  for (const char* name : {"NaN", "Infinity", "-Infinity", "nan", "inf", "-inf"}) {
    if (word == name) {
      return ": " + word +
             " is not a JSON number (a value that could not be measured is written as null)";
    }
  }
  return "";
}

std::string too_large(const std::string& where, std::uintmax_t bytes) {
  return where + ": " + std::to_string(bytes) + " bytes, more than the " +
         std::to_string(ResultRules::kMaxDocumentBytes) + " (64 MiB) a result document may have";
}

/// Resets a kept statement when the scope using it ends, by return or exception: between
/// documents it holds neither a read of the store nor bindings.
class Rewind {
 public:
  explicit Rewind(store::Statement& statement) : statement_(statement) {}
  ~Rewind() { statement_.reset(); }
  Rewind(const Rewind&) = delete;
  Rewind& operator=(const Rewind&) = delete;

 private:
  store::Statement& statement_;
};

/// Why a summary value of `doc` cannot be, whatever the document says about its validity (the
/// catalogue's bound of each metric: MetricCatalogue.hpp); "" when every value can be. A null
/// value (a metric not measured) is no value. With `stated_only`, only what the machine's stated
/// peaks add: a value the generic bounds already fail is the worker's own check's finding.
std::string impossible_values(const nlohmann::json& doc, long long nodes,
                              const metrics::BandwidthPeaks& peaks, bool stated_only) {
  const auto& worker = doc["worker"].get_ref<const std::string&>();
  const long long nprocs = doc["nprocs"].get<long long>();
  std::vector<metrics::MetricValue> values;
  for (const auto& m : doc["summary"]) {
    if (!m["value"].is_number()) continue;
    metrics::MetricValue v{m["name"].get<std::string>(), m["value"].get<double>(),
                           m.contains("labels") ? m["labels"].dump() : std::string()};
    if (stated_only) {
      const auto* spec = metrics::find_metric(worker, v.name);
      if (spec == nullptr ||
          !metrics::impossible_value(*spec, v.value, nprocs, nodes, metrics::BandwidthPeaks{})
               .empty()) {
        continue;
      }
    }
    values.push_back(std::move(v));
  }
  return metrics::impossible_figures(worker, nprocs, nodes, peaks, values);
}

}  // namespace

struct Ingester::Statements {
  explicit Statements(store::Database& db)
      : existing(db.prepare(
            "SELECT r.id, r.attempt_id, sw.name, p.point_key, a.attempt_no FROM results r "
            "LEFT JOIN points p ON p.id = r.point_id LEFT JOIN sweeps sw ON sw.id = p.sweep_id "
            "LEFT JOIN attempts a ON a.id = r.attempt_id WHERE r.document_hash = ?1")),
        params(db.prepare("SELECT params_json, worker, partition FROM points WHERE id = ?1")),
        insert(db.prepare(
            "INSERT INTO results(point_id, attempt_id, document_hash, schema_version, worker, "
            "worker_version, nprocs, valid, started_at, ended_at, ingested_at, head, nodes, "
            "procs_per_node, node_list, placement, ingest_reason, packed, run_no) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, "
            "?18, "
            // The run of its attempt; without one, the latest run of its point's sweep.
            "coalesce((SELECT run_no FROM attempts WHERE id = ?2), "
            "(SELECT max(r.run_no) FROM runs r JOIN points p ON p.sweep_id = r.sweep_id "
            "WHERE p.id = ?1), 1))")),
        metric(db.prepare("INSERT INTO metrics(result_id, name, value, unit, samples, labels) "
                          "VALUES (?1, ?2, ?3, ?4, ?5, ?6)")) {}

  store::Statement existing;
  store::Statement params;
  store::Statement insert;
  store::Statement metric;
};

Ingester::Ingester(store::Store& store) : store_(store) {}
Ingester::~Ingester() = default;
Ingester::Ingester(Ingester&&) noexcept = default;

nlohmann::json parse_and_validate(const std::string& text, const std::string& origin) {
  const std::string where = "result '" + origin + "'";
  if (text.size() > ResultRules::kMaxDocumentBytes) {
    throw ValidationError(too_large(where, text.size()));
  }
  if (const auto at = too_deep_at(text)) {
    throw ValidationError(where + ": nested deeper than " + std::to_string(kMaxNestingDepth) +
                          " levels at byte " + std::to_string(*at));
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw ValidationError(where + ": malformed JSON at byte " + std::to_string(e.byte) +
                          (text.empty() ? " (empty file)" : non_json_number_at(text, e.byte)));
  } catch (const nlohmann::json::out_of_range& e) {
    // A number beyond the range of a double, e.g. 1e400: "number overflow parsing '1e400'".
    throw ValidationError(where + ": " + reason(e));
  }
  if (!doc.is_object()) throw ValidationError(where + ": not a JSON object");
  if (!doc.contains("schema_version")) {
    throw ValidationError(where + ": no schema_version (not a pbench result document)");
  }
  if (doc["schema_version"] != kSupportedSchemaVersion) {
    throw ValidationError(where + ": schema version " + doc["schema_version"].dump() +
                          "; this pbench reads version " + std::to_string(kSupportedSchemaVersion));
  }
  auto problems = ResultRules::size_problems(doc);
  if (problems.empty()) problems = result_schema().problems(doc);
  if (problems.empty()) problems = ResultRules::problems(doc);
  if (!problems.empty()) throw ValidationError(where + ": " + summarise(problems));
  return doc;
}

IngestOutcome Ingester::ingest_file(const std::string& path, std::optional<std::int64_t> point_id,
                                    std::optional<std::int64_t> attempt_id,
                                    const AttemptIdentity* identity) {
  // A job writes its result as a file; a link to another file would store that file's document
  // under this point.
  std::error_code link_error;
  if (std::filesystem::is_symlink(path, link_error)) {
    const auto target = std::filesystem::read_symlink(path, link_error);
    throw ValidationError("result '" + path + "': a symbolic link (to '" + target.string() +
                          "'), not a file its job wrote: not stored");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ValidationError("result '" + path + "': cannot be read");
  // A file larger than any document is refused unread (parse_and_validate says the same).
  std::error_code ec;
  if (const auto bytes = std::filesystem::file_size(path, ec);
      !ec && bytes > ResultRules::kMaxDocumentBytes) {
    throw ValidationError(too_large("result '" + path + "'", bytes));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (identity == nullptr) return ingest_text(text.str(), path, point_id, attempt_id, identity);
  // An attempt's document: the one collect recorded the hash of, if it did (ResultChecksum.hpp).
  if (auto edited = ResultChecksum::edited(path, text.str()); !edited.empty()) {
    throw ValidationError("result '" + path + "': " + edited + ": not stored");
  }
  auto outcome = ingest_text(text.str(), path, point_id, attempt_id, identity);
  ResultChecksum::record(path, text.str());
  return outcome;
}

namespace {

// Why ingest stores a document not valid, whatever it says: its impossible figures, a run with
// other arguments than its point's, and (when it says valid) the method's rules its echoed
// parameters break or the identities its figures do not obey; `reason` joins them.
struct Judgement {
  std::string impossible, arguments, rules, reason;
};

Judgement judge(const nlohmann::json& doc, long long nodes, const metrics::BandwidthPeaks& peaks,
                const AttemptIdentity* identity, bool says_valid) {
  Judgement j;
  // A figure that cannot be is never valid, whatever the document says. A document that says
  // not valid for a physical reason of its worker's own check keeps that reason, and ingest adds
  // only what the machine's stated peaks find beyond it (the worker knows no site profile).
  bool worker_found = false;
  if (!says_valid) {
    for (const auto& reason : doc["validity"]["reasons"]) {
      if (reason.is_string() && worker::is_physical_reason(reason.get_ref<const std::string&>())) {
        worker_found = true;
        break;
      }
    }
  }
  j.impossible = impossible_values(doc, nodes, peaks, worker_found);
  // Ran with other arguments than its point fixed: a measurement of another point.
  j.arguments = identity ? argument_mismatch(doc, identity->arguments) : "";
  // Judged by its own parameters and figures (DocumentRules.hpp): a document that says valid
  // where the method's rules fail its echoed parameters, or its figures do not obey the
  // identities its worker computes them by, is not valid.
  if (says_valid) {
    const auto join = [](const std::vector<std::string>& reasons) {
      std::string text;
      for (const auto& r : reasons) text += (text.empty() ? "" : "; ") + r;
      return text;
    };
    if (const auto method = DocumentRules::method(doc); !method.empty()) {
      j.rules = "its parameters break the method's rules: " + join(method);
    }
    if (const auto identities = DocumentRules::identities(doc); !identities.empty()) {
      j.rules +=
          (j.rules.empty() ? "" : "; ") + std::string("its figures disagree: ") + join(identities);
    }
  }
  j.reason = j.impossible;
  if (!j.rules.empty()) j.reason += (j.reason.empty() ? "" : "; ") + j.rules;
  if (!j.arguments.empty()) {
    j.reason += (j.reason.empty() ? "" : "; ") + std::string("not its point's run: ") + j.arguments;
  }
  return j;
}

}  // namespace

IngestOutcome Ingester::ingest_text(const std::string& text, const std::string& origin,
                                    std::optional<std::int64_t> point_id,
                                    std::optional<std::int64_t> attempt_id,
                                    const AttemptIdentity* identity) {
  const nlohmann::json doc = parse_and_validate(text, origin);
  if (identity) {
    if (auto mismatch = origin_mismatch(doc, *identity); !mismatch.empty()) {
      throw ValidationError("result '" + origin + "': " + mismatch + ": not stored");
    }
  }
  const std::string canonical = doc.dump();
  const std::string hash = sha256_hex(canonical);

  auto& db = store_.db();
  store::Transaction txn(db);
  if (!statements_) statements_ = std::make_unique<Statements>(db);
  // The point that asked for it: a result naming another worker is refused, and one that ran on
  // other processes or another shape is stored not valid with the reason first.
  std::optional<AskedLaunch> asked;
  if (point_id) {
    auto& params = statements_->params;
    const Rewind rewind_params(params);
    params.bind(1, *point_id);
    if (params.step()) {
      asked = asked_launch(params.text(1), static_cast<int>(params.int64(2)), params.text(0));
    }
  }
  if (asked) {
    if (auto mismatch = worker_mismatch(doc, *asked); !mismatch.empty()) {
      throw ValidationError("result '" + origin + "': " + mismatch);
    }
  }
  // Declared after the transaction: each statement is reset before it commits or rolls back.
  auto& existing = statements_->existing;
  const Rewind rewind_existing(existing);
  existing.bind(1, hash);
  if (existing.step()) {
    // The same document under another attempt is a copy of that attempt's result, not this
    // attempt's: its point would be done with nothing of its own measured.
    if (attempt_id && !existing.is_null(1) && existing.int64(1) != *attempt_id) {
      throw ValidationError("result '" + origin + "': byte for byte the result " +
                            std::to_string(existing.int64(0)) + " stored for sweep '" +
                            existing.text(2) + "', point " + existing.text(3) + ", attempt-" +
                            std::to_string(existing.int64(4)) +
                            ": a copy of that attempt's result, not this attempt's: not stored");
    }
    IngestOutcome outcome{true, existing.int64(0), 0, {}};
    // The transaction rolls back: nothing changes for a document stored before.
    return outcome;
  }
  // The document stays as the worker wrote it; the launch's reason is in the placement column.
  auto layout = store::result_layout(doc, asked ? asked->shape : store::AskedShape{});
  if (asked) layout.placement = launch_problem(doc, *asked, layout);
  const bool says_valid = doc["validity"]["valid"].get<bool>();
  const auto judged = judge(doc, layout.nodes.value_or(1), peaks_, identity, says_valid);
  const std::string& impossible = judged.impossible;
  const std::string& arguments = judged.arguments;
  const std::string& rules = judged.rules;
  const std::string& ingest_reason = judged.reason;
  auto& insert = statements_->insert;
  const Rewind rewind_insert(insert);
  store::bind_layout(insert, layout, 13);
  if (ingest_reason.empty()) {
    insert.bind(17, std::nullopt);
  } else {
    insert.bind(17, ingest_reason);
  }
  insert.bind(1, point_id).bind(2, attempt_id).bind(3, hash);
  insert.bind(4, doc["schema_version"].get<std::int64_t>());
  insert.bind(5, doc["worker"].get<std::string>());
  insert.bind(6, doc["worker_version"].get<std::string>());
  insert.bind(7, doc["nprocs"].get<std::int64_t>());
  insert.bind(8, says_valid && layout.placement.empty() && ingest_reason.empty() ? 1 : 0);
  insert.bind(9, doc["started_at"].get<std::string>());
  insert.bind(10, doc["ended_at"].get<std::string>());
  insert.bind(11, utc_now());
  const auto packed = store::pack_document(doc, canonical);
  insert.bind(12, packed.head).bind_blob(18, packed.packed).run();
  IngestOutcome outcome{false,
                        db.last_insert_rowid(),
                        0,
                        layout.placement,
                        says_valid ? impossible : std::string(),
                        arguments,
                        rules};

  auto& metric = statements_->metric;
  const Rewind rewind_metric(metric);
  for (const auto& row : metric_rows(doc)) {
    metric.reset();
    metric.bind(1, outcome.result_id).bind(2, row.name).bind(3, row.value);
    metric.bind(4, row.unit).bind(5, row.samples).bind(6, row.labels).run();
    ++outcome.metrics;
  }
  txn.commit();
  return outcome;
}

}  // namespace pbench::ingest
