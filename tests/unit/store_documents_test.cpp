// The store's documents compressed (store/PackedDocument.hpp, schema version 11): every sample
// document back byte for byte, through pack and unpack and through a store; a damaged frame
// named; a version 10 store migrated in place, resumed where an interrupted migration stopped.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ingest/Ingester.hpp"
#include "store/PackedDocument.hpp"
#include "store/Store.hpp"
#include "support/OldStores.hpp"
#include "support/ResultFixtures.hpp"
#include "support/ResultSamples.hpp"
#include "support/NumberOf.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"
#include "util/Sha256.hpp"

using namespace pbench;
using testing::number_of;

namespace {

/// A scratch directory, removed at the end.
struct ScratchDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("pbench-documents-test-" + std::to_string(::getpid()));
  ScratchDir() { std::filesystem::create_directories(path); }
  ~ScratchDir() { std::filesystem::remove_all(path); }
};

/// Every JSON file under tests/data/results (good, bad, bad-semantics), as its bytes.
std::vector<std::pair<std::string, std::string>> sample_texts() {
  std::vector<std::pair<std::string, std::string>> out;
  const auto root = std::filesystem::path(PBENCH_SOURCE_DIR) / "tests" / "data" / "results";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".json") continue;
    out.emplace_back(entry.path().string(), testing::read_text(entry.path()));
  }
  return out;
}

}  // namespace

TEST_CASE("store documents: every sample document packs and unpacks byte for byte") {
  const auto samples = sample_texts();
  REQUIRE(samples.size() > 30);
  for (const auto& [path, text] : samples) {
    CAPTURE(path);
    const auto doc = nlohmann::json::parse(text, nullptr, false);
    const auto packed =
        store::pack_document(doc.is_object() ? doc : nlohmann::json::object(), text);
    CHECK(store::unpack_document(packed.packed) == text);
    if (!doc.is_object()) continue;
    // The head is the document without its two large members, and nothing else changed.
    const auto head = nlohmann::json::parse(packed.head);
    CHECK_FALSE(head.contains("measurements"));
    CHECK_FALSE(head.contains("summary"));
    for (const auto& [key, value] : doc.items()) {
      if (key != "measurements" && key != "summary") CHECK(head[key] == value);
    }
  }
}

TEST_CASE("store documents: every ingested sample reads back as its SHA-256 says") {
  auto store = store::Store::open_in_memory();
  ingest::Ingester ingester(store);
  const auto good = testing::result_samples("good");
  REQUIRE(good.size() >= 5);
  for (const auto& [name, doc] : good) {
    CAPTURE(name);
    const auto outcome = ingester.ingest_text(doc.dump(2), name);
    const std::string text = store.document(outcome.result_id);
    CHECK(text == doc.dump());  // the canonical text ingest stored
    auto hash =
        store.db().prepare("SELECT document_hash, document(packed) FROM results WHERE id = ?1");
    hash.bind(1, outcome.result_id);
    REQUIRE(hash.step());
    CHECK(sha256_hex(text) == hash.text(0));
    CHECK(hash.text(1) == text);  // SQL's document(packed) is the same reading
  }
}

TEST_CASE("store documents: a damaged frame is named, not guessed at") {
  CHECK_THROWS_AS(store::unpack_document("not a zstd frame"), StoreError);
  const std::string text = R"({"worker":"logp","summary":[]})";
  auto packed = store::pack_document(nlohmann::json::parse(text), text).packed;
  packed[packed.size() / 2] = static_cast<char>(packed[packed.size() / 2] ^ 0x5a);
  packed.resize(packed.size() - 2);
  CHECK_THROWS_AS(store::unpack_document(packed), StoreError);
  auto store = store::Store::open_in_memory();
  CHECK_THROWS_WITH_AS(store.document(42), "no result 42 in the store", StoreError);
}

TEST_CASE(
    "store documents: a version 10 store is compressed in place, resuming an interrupted "
    "migration") {
  ScratchDir dir;
  const auto path = (dir.path / "v10.db").string();
  std::vector<std::pair<std::string, std::string>> before;  // hash, canonical text
  {
    testing::Fixture f(store::Store::open(path, store::Store::Access::create));
    f.add_sweep("s", {{"logp", 2}, {"logp", 4}, {"comm", 2}});
    f.add_run(0, testing::logp_document(2, 1, 1e-6, 2e-7, 1e-10));
    f.add_run(1, testing::logp_document(4, 1, 2e-6, 3e-7, 2e-10));
    f.add_run(2, testing::document("comm", 2, {testing::metric("b_eff", 1e9, "B/s")}, true));
    auto s =
        f.store.db().prepare("SELECT document_hash, document(packed) FROM results ORDER BY id");
    while (s.step()) before.emplace_back(s.text(0), s.text(1));
    testing::make_version_10(f.store);
    // An interrupted migration: the columns added and the first document packed, the version
    // still 10.
    auto& db = f.store.db();
    db.exec("ALTER TABLE results ADD COLUMN head TEXT NOT NULL DEFAULT ''");
    db.exec("ALTER TABLE results ADD COLUMN packed BLOB");
    const auto first =
        store::pack_document(nlohmann::json::parse(before[0].second), before[0].second);
    db.prepare("UPDATE results SET head = ?1, packed = ?2, document = '' WHERE id = 1")
        .bind(1, first.head)
        .bind_blob(2, first.packed)
        .run();
    db.exec("PRAGMA journal_mode=DELETE");
  }
  REQUIRE(before.size() == 3);
  auto store = store::Store::open(path, store::Store::Access::existing);
  CHECK(number_of(store, "PRAGMA user_version") == 12);
  CHECK(number_of(store,
                 "SELECT count(*) FROM pragma_table_info('results') WHERE name = 'document'") == 0);
  CHECK(number_of(store, "SELECT count(*) FROM meta WHERE key = 'compact'") == 0);  // vacuumed
  for (std::size_t i = 0; i < before.size(); ++i) {
    CAPTURE(i);
    const std::string text = store.document(static_cast<std::int64_t>(i + 1));
    CHECK(text == before[i].second);
    CHECK(sha256_hex(text) == before[i].first);
  }
  // The views read the heads: every point's result is there, with its first reason.
  CHECK(number_of(store, "SELECT count(*) FROM run_results") == 3);
  CHECK(number_of(store, "SELECT count(*) FROM headline_answers") > 0);
}
