// libFuzzer target: a result document, as `pbench collect` reads it from a worker's
// result.json, through parse, schema validation, semantic checks and the insert into a store
// (SQLite in memory, the real schema and statements). Besides crashes, leaks and hangs it fails
// (abort) when an ingest breaks the contract: a refused document changed the store, a stored
// one is not found again as a duplicate, or its metric rows are not the ones it reported.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "ingest/Ingester.hpp"
#include "store/Store.hpp"
#include "util/Error.hpp"

namespace {

using pbench::store::Store;

/// A fresh store every so many stored documents, so a long run does not grow without bound.
constexpr int kDocumentsPerStore = 512;

std::int64_t count(Store& store, const char* sql) {
  auto statement = store.db().prepare(sql);
  statement.step();
  return statement.int64(0);
}

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "fuzz_ingest: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::unique_ptr<Store> store;
  static int stored = 0;
  if (!store || stored >= kDocumentsPerStore) {
    store = std::make_unique<Store>(Store::open_in_memory());
    stored = 0;
  }
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::int64_t results_before = count(*store, "SELECT count(*) FROM results");
  const std::int64_t metrics_before = count(*store, "SELECT count(*) FROM metrics");
  pbench::ingest::Ingester ingester(*store);
  pbench::ingest::IngestOutcome outcome;
  try {
    outcome = ingester.ingest_text(text, "fuzz.json");
  } catch (const pbench::ValidationError&) {
    if (count(*store, "SELECT count(*) FROM results") != results_before ||
        count(*store, "SELECT count(*) FROM metrics") != metrics_before) {
      broken("a refused document changed the store");
    }
    return 0;
  }
  if (!outcome.duplicate) {
    ++stored;
    auto metrics = store->db().prepare("SELECT count(*) FROM metrics WHERE result_id = ?1");
    metrics.bind(1, outcome.result_id).step();
    if (metrics.int64(0) != static_cast<std::int64_t>(outcome.metrics)) {
      broken("the metric rows stored are not the ones the ingest reported");
    }
  }
  const auto again = ingester.ingest_text(text, "fuzz.json");
  if (!again.duplicate || again.result_id != outcome.result_id) {
    broken("a stored document was not recognised as a duplicate");
  }
  return 0;
}
