// A result belongs to its point (issue 38, item 1): the origin a worker writes (sweep, point,
// attempt, the attempt's nonce) is held to the attempt that collects it, and the arguments it
// ran with to the ones its point fixed; a byte-identical copy of another attempt's result is
// refused.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "ingest/AttemptIdentity.hpp"
#include "ingest/Ingester.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"

using namespace pbench;
using nlohmann::json;
using testing::document;

namespace {

ingest::AttemptIdentity expected() {
  ingest::AttemptIdentity identity;
  identity.sweep = "q64";
  identity.point = "aaaa000011112222";
  identity.attempt = "attempt-2";
  identity.nonce = "n2";
  identity.arguments = {"--queue-depths", "64", "--sizes=8,1M", "--x=-1"};
  return identity;
}

json with_origin(json doc, const std::string& sweep, const std::string& point,
                 const std::string& attempt, const std::string& nonce) {
  doc["origin"] = {{"sweep", sweep}, {"point", point}, {"attempt", attempt}, {"nonce", nonce}};
  doc["arguments"] = {"--queue-depths", "64", "--sizes=8,1M", "--x=-1", "--output", "result.json"};
  return doc;
}

json logp_doc(const std::string& started_at = "2026-11-22T07:00:00.000Z") {
  return document("logp", 2, json::array({testing::metric("g", 1e-6, "s")}), true, json::object(),
                  started_at);
}

}  // namespace

TEST_CASE("attempt identity: the origin is the attempt's, or the document is not its result") {
  const auto id = expected();
  const json doc = logp_doc();
  CHECK(ingest::origin_mismatch(with_origin(doc, "q64", id.point, "attempt-2", "n2"), id).empty());
  CHECK(ingest::origin_mismatch(with_origin(doc, "other", "bbbb", "attempt-1", "x"), id) ==
        "written for sweep 'other', point bbbb, attempt-1, not for this attempt (sweep 'q64', "
        "point aaaa000011112222, attempt-2)");
  CHECK(ingest::origin_mismatch(with_origin(doc, "q64", id.point, "attempt-1", "n1"), id) ==
        "written for sweep 'q64', point aaaa000011112222, attempt-1, not for this attempt "
        "(sweep 'q64', point aaaa000011112222, attempt-2)");
  // The same attempt's name from another run of it (a runs directory made again).
  CHECK(ingest::origin_mismatch(with_origin(doc, "q64", id.point, "attempt-2", "old"), id) ==
        "written for sweep 'q64', point aaaa000011112222, attempt-2 by another run of it (its "
        "nonce old is not this attempt's n2)");
  // No origin: the job gave its worker one, so this is not its worker's document.
  CHECK(ingest::origin_mismatch(doc, id).rfind("its document names no sweep, point or attempt",
                                               0) == 0);
  // A job that recorded no nonce (a template without the identity lines): nothing to hold.
  auto no_nonce = id;
  no_nonce.nonce.reset();
  CHECK(ingest::origin_mismatch(doc, no_nonce).empty());
}

TEST_CASE("attempt identity: the arguments the point fixed, against the document's") {
  CHECK(ingest::option_values({"--a", "1", "--b=2", "--c", "--d", "-1", "--a=3"}) ==
        std::map<std::string, std::string>{{"--a", "3"}, {"--b", "2"}, {"--c", ""}, {"--d", "-1"}});
  const auto fixed = expected().arguments;
  const json same = with_origin(logp_doc(), "q64", "p", "attempt-2", "n2");
  CHECK(ingest::argument_mismatch(same, fixed).empty());
  // The same values written the other way (--name value, --name=value) are the same.
  json spelled = same;
  spelled["arguments"] = {"--queue-depths=64", "--sizes", "8,1M", "--x=-1"};
  CHECK(ingest::argument_mismatch(spelled, fixed).empty());
  json other = same;
  other["arguments"] = {"--queue-depths", "1", "--x=-1"};
  CHECK(ingest::argument_mismatch(other, fixed) ==
        "ran with --queue-depths 1, its point fixed 64; ran without --sizes, its point fixed 8,1M");
  json none = logp_doc();
  CHECK(ingest::argument_mismatch(none, fixed) ==
        "its document does not record the arguments it ran with, so it cannot be held to its "
        "point's (3 fixed)");
  CHECK(ingest::argument_mismatch(none, {}).empty());
}

TEST_CASE("ingest with an attempt identity: refused, stored not valid, or a copy refused") {
  testing::Fixture f;
  f.add_sweep("q64", {{"logp", 2}, {"logp", 2}});
  auto attempt = [&](std::int64_t point_id) {
    store::AttemptRecord a;
    a.point_id = point_id;
    a.state = store::PointState::done;
    return f.store.add_attempt(a);
  };
  const auto first = attempt(f.points[0].id);
  const auto second = attempt(f.points[1].id);
  ingest::Ingester ingester(f.store);
  auto id = expected();

  SUBCASE("another point's document is refused, nothing is stored") {
    const json other = with_origin(logp_doc(), "other", "bbbb", "attempt-1", "x");
    CHECK_THROWS_WITH_AS(
        ingester.ingest_text(other.dump(), "r.json", f.points[0].id, first.id, &id),
        doctest::Contains("not for this attempt"), ValidationError);
    CHECK(f.store.result_count(f.store.find_sweep("q64")->id) == 0);
  }
  SUBCASE("its own document with other arguments is stored not valid, naming them") {
    json doc = with_origin(logp_doc(), "q64", id.point, "attempt-2", "n2");
    doc["arguments"] = {"--queue-depths", "1", "--sizes=8,1M", "--x=-1"};
    const auto outcome = ingester.ingest_text(doc.dump(), "r.json", f.points[0].id, first.id, &id);
    CHECK(outcome.arguments == "ran with --queue-depths 1, its point fixed 64");
    CHECK(testing::stored_valid(f.store, outcome.result_id) == 0);
    auto s = f.store.db().prepare("SELECT ingest_reason FROM results WHERE id = ?1");
    s.bind(1, outcome.result_id);
    REQUIRE(s.step());
    CHECK(s.text(0) == "not its point's run: ran with --queue-depths 1, its point fixed 64");
  }
  SUBCASE("its own document with its arguments is stored valid") {
    const json doc = with_origin(logp_doc(), "q64", id.point, "attempt-2", "n2");
    const auto outcome = ingester.ingest_text(doc.dump(), "r.json", f.points[0].id, first.id, &id);
    CHECK(outcome.arguments.empty());
    CHECK(testing::stored_valid(f.store, outcome.result_id) == 1);
  }
  SUBCASE("a byte-identical copy of another attempt's stored result is refused") {
    const std::string text = logp_doc().dump();
    ingester.ingest_text(text, "a.json", f.points[0].id, first.id);
    CHECK_THROWS_WITH_AS(ingester.ingest_text(text, "b.json", f.points[1].id, second.id),
                         doctest::Contains("byte for byte the result 1 stored for sweep 'q64'"),
                         ValidationError);
    CHECK(f.store.result_count(f.store.find_sweep("q64")->id) == 1);
    // The same attempt's document again is a duplicate, as before.
    CHECK(ingester.ingest_text(text, "a.json", f.points[0].id, first.id).duplicate);
  }
}
