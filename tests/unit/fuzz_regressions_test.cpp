// Inputs the fuzz targets (fuzz/) found to crash pbench, and inputs of the same kind found while
// fixing those, each kept as a test of the behaviour the brief asks for bad input: a clear
// one-line error naming the problem, and nothing stored changed.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "ingest/Ingester.hpp"
#include "store/Store.hpp"
#include "support/ResultFixtures.hpp"
#include "util/Error.hpp"

using namespace pbench;

namespace {

std::int64_t count(store::Store& store, const std::string& table) {
  auto s = store.db().prepare("SELECT count(*) FROM " + table);
  s.step();
  return s.int64(0);
}

/// A valid logp document whose parameter value (any JSON is allowed there) is `value_text`.
std::string document_with_parameter_value(const std::string& value_text) {
  auto doc = testing::logp_document(2, 8, 1e-6, 2e-7, 1e-10);
  doc["parameters"]["queue_depths"]["value"] = "VALUE";
  std::string text = doc.dump();
  text.replace(text.find("\"VALUE\""), 7, value_text);
  return text;
}

}  // namespace

TEST_CASE("fuzz ingest: a number beyond a double's range is an invalid result, not a crash") {
  // fuzz_ingest: nlohmann/json throws out_of_range (not parse_error) for 2e308, which escaped
  // the ingester; `pbench collect` stopped at that result instead of rejecting it.
  auto store = store::Store::open_in_memory();
  ingest::Ingester ingester(store);
  CHECK_THROWS_WITH_AS(ingester.ingest_text(document_with_parameter_value("2e308"), "big.json"),
                       "result 'big.json': number overflow parsing '2e308'", ValidationError);
  CHECK_THROWS_WITH_AS(ingester.ingest_text("{\"schema_version\": -1e99999}", "neg.json"),
                       "result 'neg.json': number overflow parsing '-1e99999'", ValidationError);
  CHECK(count(store, "results") == 0);
  CHECK(count(store, "metrics") == 0);
  // A large but representable number is a value like any other.
  CHECK_FALSE(ingester.ingest_text(document_with_parameter_value("1e308"), "ok.json").duplicate);
}
