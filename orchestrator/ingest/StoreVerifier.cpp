#include "ingest/StoreVerifier.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ingest/MetricRows.hpp"
#include "ingest/ResultChecksum.hpp"
#include "store/Integrity.hpp"
#include "store/PackedDocument.hpp"
#include "util/Error.hpp"
#include "util/Sha256.hpp"

namespace pbench::ingest {
namespace {

/// The result, its sweep and point, as a problem names them: "result 12 (sweep s, logp p=2 q=1
/// [KEY])"; "result 12 (no point)".
struct Owner {
  std::int64_t id = 0;
  std::string sweep;
  std::string point;
  std::string text() const {
    return "result " + std::to_string(id) +
           (sweep.empty() ? " (no point)" : " (sweep " + sweep + ", " + point + ")");
  }
};

std::string optional_number(const std::optional<double>& value) {
  return value ? exact_number(*value) : std::string("null");
}

class Verifier {
 public:
  Verifier(store::Database& db, VerifyReport& report)
      : db_(db),
        report_(report),
        metrics_(db_.prepare("SELECT name, value, unit, samples, labels FROM metrics "
                             "WHERE result_id = ?1 ORDER BY id")) {}

  void result(const Owner& owner, const std::string& hash, const std::string& text,
              const std::map<std::string, std::string>& columns) {
    ++report_.results;
    if (const std::string actual = sha256_hex(text); actual != hash) {
      add("document", owner, "", hash, actual,
          owner.text() + ": its document does not match its SHA-256 (stored " + hash.substr(0, 12) +
              "..., the document's " + actual.substr(0, 12) +
              "...): the document or its hash was changed after ingest");
    }
    const auto doc = nlohmann::json::parse(text, nullptr, false);
    if (!doc.is_object() || !doc.contains("summary") || !doc["summary"].is_array()) {
      add("document", owner, "", "", "",
          owner.text() +
              ": its document is not a result document (no JSON object with a "
              "summary): its metric rows cannot be checked");
      return;
    }
    for (const auto& [column, stored] : columns) {
      if (!doc.contains(column)) continue;
      const auto& value = doc[column];
      const std::string from_document = value.is_string() ? value.get<std::string>() : value.dump();
      if (from_document != stored) {
        add("column", owner, column, stored, from_document,
            owner.text() + ": column " + column + " is " + stored + ", its document says " +
                from_document);
      }
    }
    std::vector<MetricRow> expected;
    try {
      expected = metric_rows(doc);
    } catch (const nlohmann::json::exception&) {
      add("document", owner, "", "", "",
          owner.text() +
              ": its document's summary is not as ingest reads it: its metric rows "
              "cannot be checked");
      return;
    }
    compare_metrics(owner, expected);
  }

  /// The stored document (its canonical form's SHA-256 `hash`) against its file in the runs
  /// directory, when the result has an attempt that names one.
  void on_disk(const Owner& owner, const std::string& hash, const std::string& result_path) {
    if (result_path.empty()) return;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(result_path, ec)) {
      report_.missing_on_disk.push_back(owner.text() + ": its document '" + result_path +
                                        "' is not in the runs directory (the store holds it)");
      return;
    }
    std::ifstream in(result_path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    ++report_.on_disk;
    const auto doc = nlohmann::json::parse(bytes.str(), nullptr, false);
    const std::string actual =
        doc.is_discarded() ? std::string("not JSON") : sha256_hex(doc.dump());
    if (actual != hash) {
      add("runs", owner, "", hash, actual,
          owner.text() + ": its document on disk '" + result_path +
              "' differs from the stored one (stored SHA-256 " + hash.substr(0, 12) +
              "..., the file's " + (doc.is_discarded() ? actual : actual.substr(0, 12) + "...") +
              "): changed after collect; the store holds it as collected");
      return;
    }
    if (auto edited = ResultChecksum::edited(result_path, bytes.str()); !edited.empty()) {
      add("runs", owner, "", "", "",
          owner.text() + ": its document on disk '" + result_path + "' was " + edited);
    }
  }

  void add(const std::string& kind, const Owner& owner, const std::string& metric,
           const std::string& stored, const std::string& document, const std::string& message) {
    report_.problems.push_back(
        {kind, owner.id, owner.sweep, owner.point, metric, stored, document, message});
  }

 private:
  /// Metric rows are matched by name and labels, in order among rows with the same both.
  void compare_metrics(const Owner& owner, const std::vector<MetricRow>& expected) {
    using Key = std::pair<std::string, std::string>;
    std::map<Key, std::vector<const MetricRow*>> wanted;
    for (const auto& row : expected) wanted[{row.name, row.labels}].push_back(&row);
    std::map<Key, std::size_t> used;
    std::vector<MetricRow> stored;
    metrics_.reset();
    metrics_.bind(1, owner.id);
    while (metrics_.step()) {
      stored.push_back({metrics_.text(0), metrics_.optional_real(1), metrics_.text(2),
                        metrics_.int64(3), metrics_.text(4)});
    }
    metrics_.reset();
    for (const auto& row : stored) {
      ++report_.metric_rows;
      const Key key{row.name, row.labels};
      const std::string metric = row.name + " " + row.labels;
      auto it = wanted.find(key);
      const std::size_t n = used[key]++;
      if (it == wanted.end() || n >= it->second.size()) {
        add("metric", owner, metric, optional_number(row.value), "-",
            owner.text() + ": metric " + metric + ": stored " + optional_number(row.value) +
                ", not in its document");
        continue;
      }
      const MetricRow& want = *it->second[n];
      const bool same_value = row.value.has_value() == want.value.has_value() &&
                              (!row.value || *row.value == *want.value);
      if (!same_value) {
        add("metric", owner, metric, optional_number(row.value), optional_number(want.value),
            owner.text() + ": metric " + metric + ": stored " + optional_number(row.value) +
                ", its document says " + optional_number(want.value));
      }
      if (row.unit != want.unit) {
        add("metric", owner, metric + " unit", row.unit, want.unit,
            owner.text() + ": metric " + metric + ": stored unit " + row.unit +
                ", its document says " + want.unit);
      }
      if (row.samples != want.samples) {
        add("metric", owner, metric + " samples", std::to_string(row.samples),
            std::to_string(want.samples),
            owner.text() + ": metric " + metric + ": stored samples " +
                std::to_string(row.samples) + ", its document says " +
                std::to_string(want.samples));
      }
    }
    for (const auto& [key, rows] : wanted) {
      for (std::size_t n = used[key]; n < rows.size(); ++n) {
        const std::string metric = key.first + " " + key.second;
        add("metric", owner, metric, "-", optional_number(rows[n]->value),
            owner.text() + ": metric " + metric + ": its document says " +
                optional_number(rows[n]->value) + ", no row stored");
      }
    }
  }

  store::Database& db_;
  VerifyReport& report_;
  store::Statement metrics_;
};

/// A cell as text that tells any two values apart: a double to 17 digits, NULL as "NULL".
std::string cell_text(const store::Statement& s, int column) {
  switch (s.type(column)) {
    case SQLITE_NULL:
      return "NULL";
    case SQLITE_FLOAT:
      return exact_number(s.real(column));
    default:
      return s.text(column);
  }
}

std::vector<std::string> split_columns(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < list.size()) {
    auto end = list.find(", ", start);
    if (end == std::string::npos) end = list.size();
    out.push_back(list.substr(start, end - start));
    start = end + 2;
  }
  return out;
}

/// Every kept headline answer (what `query system` reads) against the view headlines, which
/// computes it from the metric rows now: a kept value changed, or metric rows changed since
/// the answer was kept, is named per run, figure and column.
void compare_headlines(store::Database& db, VerifyReport& report) {
  const auto columns = split_columns(store::kHeadlineAnswerColumns);
  const std::string where =
      " WHERE sweep_id = ?1 AND run = ?2 ORDER BY group_order, env, group_partition, "
      "group_nodes, group_ppn, row_order, figure";
  auto kept = db.prepare(std::string("SELECT ") + store::kHeadlineAnswerColumns +
                         " FROM headline_answers" + where);
  auto fresh = db.prepare(std::string("SELECT ") + store::kHeadlineAnswerColumns +
                          " FROM headlines" + where);
  auto rows_of = [&](store::Statement& s, std::int64_t sweep_id, std::int64_t run) {
    std::vector<std::vector<std::string>> rows;
    s.reset();
    s.bind(1, sweep_id).bind(2, run);
    while (s.step()) {
      std::vector<std::string> row;
      for (std::size_t c = 0; c < columns.size(); ++c) {
        row.push_back(cell_text(s, static_cast<int>(c)));
      }
      rows.push_back(std::move(row));
    }
    s.reset();
    return rows;
  };
  const auto at = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) -
                                    columns.begin());
  };
  auto runs = db.prepare(
      "SELECT a.sweep_id, s.name, a.run FROM headline_answered a JOIN sweeps s ON s.id = "
      "a.sweep_id ORDER BY a.sweep_id, a.run");
  while (runs.step()) {
    const std::string name = runs.text(1);
    const std::string which = "sweep " + name + " run " + std::to_string(runs.int64(2));
    const auto held = rows_of(kept, runs.int64(0), runs.int64(2));
    const auto now = rows_of(fresh, runs.int64(0), runs.int64(2));
    if (held.size() != now.size()) {
      report.problems.push_back({"headline", std::nullopt, name, "", "",
                                 std::to_string(held.size()), std::to_string(now.size()),
                                 which + ": " + std::to_string(held.size()) +
                                     " kept headline rows, the store's metric rows give " +
                                     std::to_string(now.size())});
      continue;
    }
    for (std::size_t i = 0; i < held.size(); ++i) {
      for (std::size_t c = 0; c < columns.size(); ++c) {
        if (held[i][c] == now[i][c]) continue;
        // Its figure, partition and (a sweep made with --envs) environment.
        const std::string& env = held[i][at("env")];
        const std::string figure = held[i][at("figure")] + " (partition " +
                                   held[i][at("partition")] +
                                   (env == "NULL" ? "" : ", env " + env) + ")";
        report.problems.push_back({"headline", std::nullopt, name, "", figure + " " + columns[c],
                                   held[i][c], now[i][c],
                                   which + ": headline " + figure + ": kept " + columns[c] + " " +
                                       held[i][c] + ", the store's metric rows give " + now[i][c]});
      }
    }
  }
}

}  // namespace

std::string exact_number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

VerifyReport verify_store(store::Database& db) {
  VerifyReport report;
  report.path = db.path();
  report.integrity = store::integrity_problems(db, true);
  for (const auto& line : report.integrity) {
    report.problems.push_back(
        {"integrity", std::nullopt, "", "", "", "", "", "integrity_check: " + line});
  }
  Verifier verifier(db, report);
  try {
    auto results = db.prepare(
        "SELECT r.id, r.document_hash, r.packed, r.worker, r.worker_version, r.nprocs, "
        "r.schema_version, r.started_at, r.ended_at, s.name, p.id, p.sweep_id, p.point_key, "
        "p.worker, p.partition, p.params_json, p.script_path, r.head, a.result_path FROM results r "
        "LEFT JOIN points p ON p.id = r.point_id LEFT JOIN sweeps s ON s.id = p.sweep_id "
        "LEFT JOIN attempts a ON a.id = r.attempt_id "
        "ORDER BY r.id");
    while (results.step()) {
      Owner owner{results.int64(0), results.optional_text(9).value_or(""), ""};
      if (!results.is_null(10)) {
        store::PointRecord point{results.int64(10),
                                 results.int64(11),
                                 results.text(12),
                                 results.text(13),
                                 static_cast<int>(results.int64(14)),
                                 results.text(15),
                                 results.text(16)};
        owner.point = store::describe_point(point);
      }
      const std::map<std::string, std::string> columns = {
          {"worker", results.text(3)},     {"worker_version", results.text(4)},
          {"nprocs", results.text(5)},     {"schema_version", results.text(6)},
          {"started_at", results.text(7)}, {"ended_at", results.text(8)}};
      // The document through the store's one reading of it (store/PackedDocument.hpp); one that
      // does not decompress is a document that does not match its SHA-256.
      std::string text;
      try {
        text = store::unpack_document(results.blob(2));
      } catch (const StoreError& e) {
        report.problems.push_back({"document", owner.id, owner.sweep, owner.point, "", "", "",
                                   owner.text() + ": its document cannot be read: " + e.what()});
      }
      verifier.result(owner, results.text(1), text, columns);
      verifier.on_disk(owner, results.text(1), results.optional_text(18).value_or(""));
      const auto doc = nlohmann::json::parse(text, nullptr, false);
      if (doc.is_object() && store::document_head(doc) != results.text(17)) {
        report.problems.push_back({"column", owner.id, owner.sweep, owner.point, "head", "", "",
                                   owner.text() + ": column head is not its document's head"});
      }
    }
    compare_headlines(db, report);
  } catch (const StoreDamagedError& e) {
    // A page SQLite cannot read ends the walk: what it said is the problem, and what was
    // checked before stays reported.
    report.problems.push_back(
        {"integrity", std::nullopt, "", "", "", "", "", "reading the results: " + e.sqlite_said()});
  }
  return report;
}

}  // namespace pbench::ingest
