// A document judged by its own parameters and figures (issue 51): the method's rules on the
// parameters it echoes (the workers' own rule code, workers/common/MethodRules.hpp), the
// identities of its figures, and the SHA-256 collect records beside a document in the runs
// directory (ingest/ResultChecksum.hpp).
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/MethodRules.hpp"
#include "ingest/DocumentRules.hpp"
#include "ingest/Ingester.hpp"
#include "ingest/ResultChecksum.hpp"
#include "support/StoreFixture.hpp"
#include "util/Sha256.hpp"

using namespace pbench;
using nlohmann::json;
using testing::metric;
using testing::setting;

namespace {

json logp_parameters(std::int64_t runs) {
  return {{"eel_runs", setting(runs)}, {"max_size", setting(131072)}, {"min_size", setting(8)}};
}

json logp_summary(double eel, double o_s, double o_r, double l) {
  return {metric("eel_min", eel, "s"), metric("o_s", o_s, "s"), metric("o_r", o_r, "s"),
          metric("latency_l", l, "s")};
}

}  // namespace

TEST_CASE("the method's rules on a document's echoed parameters are the workers' own") {
  const auto doc =
      testing::document("logp", 2, logp_summary(5e-6, 1e-6, 1e-6, 3e-6), true, logp_parameters(3));
  const auto reasons = ingest::DocumentRules::method(doc);
  CHECK(reasons == worker::MethodRules::logp(3, 131072, 8));
  REQUIRE(reasons.size() == 1);
  CHECK(reasons[0] == "eel_runs 3 < 10: the method takes the minimum over at least 10 runs");
  CHECK(ingest::DocumentRules::method(testing::document("logp", 2,
                                                        logp_summary(5e-6, 1e-6, 1e-6, 3e-6), true,
                                                        logp_parameters(10)))
            .empty());
  // comm's reference configuration, io's Tn >= 1800 s.
  const json comm = {{"random_patterns", setting(2)},
                     {"repetitions", setting(3)},
                     {"target_window", setting(json::array({2.5e-3, 5e-3}))},
                     {"start_looplength", setting(300)}};
  const auto comm_reasons = ingest::DocumentRules::method(
      testing::document("comm", 2, json::array({metric("b_eff", 1e9, "B/s")}), true, comm));
  REQUIRE(comm_reasons.size() == 1);
  CHECK(comm_reasons[0] == "not the reference configuration: random_patterns = 2 (reference 30)");
  const auto io_reasons = ingest::DocumentRules::method(testing::document(
      "io", 2, json::array({metric("partition_time", 10, "s", {{"partition", 2}})}), true));
  REQUIRE(io_reasons.size() == 1);
  CHECK(io_reasons[0].rfind("scheduled time per partition Tn = T / 1 = 10.0 s < 1800 s", 0) == 0);
  // A parameter the document does not echo is not judged.
  CHECK(ingest::DocumentRules::method(testing::document("logp", 2, json::array(), true)).empty());
}

TEST_CASE("the identities of a document's figures") {
  using ingest::DocumentRules;
  CHECK(DocumentRules::identities(
            testing::document("logp", 2, logp_summary(5.91e-3, 1e-6, 2e-6, 5.91e-3 - 1e-6 - 2e-6),
                              true))
            .empty());
  const auto edited = DocumentRules::identities(
      testing::document("logp", 2, logp_summary(0.41e-6, 1e-6, 2e-6, 5.91e-3 - 1e-6 - 2e-6), true));
  REQUIRE(edited.size() == 1);
  CHECK(edited[0].rfind("L = EEL - o_s - o_r: latency_l is 0.005907 s", 0) == 0);
  // comm: b_eff the logavg of its rings, per process b_eff / processes.
  const json comm = {metric("b_eff", 2e9, "B/s"), metric("b_ring", 1e9, "B/s"),
                     metric("b_random", 4e9, "B/s"), metric("b_eff_per_process", 0.5e9, "B/s")};
  CHECK(DocumentRules::identities(testing::document("comm", 4, comm, true)).empty());
  CHECK(DocumentRules::identities(testing::document("comm", 2, comm, true)).size() == 1);
  json doubled = comm;
  doubled[0]["value"] = 4e9;
  CHECK(DocumentRules::identities(testing::document("comm", 8, doubled, true)).size() == 1);
  // io: the paper b_eff_io of a partition from its access bandwidths; the system figure.
  const json p = {{"partition", 2}};
  const auto access = [&](const char* a, double v) {
    return metric("access_bandwidth", v, "B/s", {{"partition", 2}, {"access", a}});
  };
  json io = {access("write", 4e8),
             access("rewrite", 2e8),
             access("read", 1e8),
             metric("b_eff_io_paper", 0.25 * 4e8 + 0.25 * 2e8 + 0.5 * 1e8, "B/s", p),
             metric("b_eff_io", 1.5e8, "B/s", p),
             metric("b_eff_io_system", 1.5e8, "B/s", p)};
  CHECK(DocumentRules::identities(testing::document("io", 2, io, true)).empty());
  io[3]["value"] = 6e8;
  io[5]["value"] = 3e8;
  CHECK(DocumentRules::identities(testing::document("io", 2, io, true)).size() == 2);
}

TEST_CASE("ingest stores a document that says valid against its own rules not valid, named") {
  testing::Fixture f;
  f.add_sweep("s", {{"logp", 2}, {"logp", 2}});
  ingest::Ingester ingester(f.store);
  const auto breaks = ingester.ingest_text(
      testing::document("logp", 2, logp_summary(5e-6, 1e-6, 1e-6, 3e-6), true, logp_parameters(3))
          .dump(),
      "a", f.points[0].id, std::nullopt);
  CHECK(breaks.rules ==
        "its parameters break the method's rules: eel_runs 3 < 10: the method takes the minimum "
        "over at least 10 runs");
  auto s = f.store.db().prepare("SELECT valid, ingest_reason FROM results WHERE id = ?1");
  s.bind(1, breaks.result_id);
  REQUIRE(s.step());
  CHECK(s.int64(0) == 0);
  CHECK(s.text(1) == breaks.rules);
  s.reset();
  // A document that says not valid is stored as it says, no rule added.
  const auto honest = ingester.ingest_text(
      testing::document("logp", 2, logp_summary(5e-6, 1e-6, 1e-6, 3e-6), false, logp_parameters(3))
          .dump(),
      "b", f.points[1].id, std::nullopt);
  CHECK(honest.rules.empty());
}

TEST_CASE("result.sha256 beside a collected document: recorded once, an edit is named") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("pbench-checksum-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "result.json").string();
  CHECK(!ingest::ResultChecksum::recorded(path));
  CHECK(ingest::ResultChecksum::edited(path, "anything").empty());  // nothing recorded
  CHECK(ingest::ResultChecksum::record(path, "{\"a\": 1}"));
  CHECK(ingest::ResultChecksum::recorded(path) == sha256_hex("{\"a\": 1}"));
  {
    std::ifstream in(ingest::ResultChecksum::path_for(path));
    std::string line;
    std::getline(in, line);
    CHECK(line == sha256_hex("{\"a\": 1}") + "  result.json");  // sha256sum -c reads it
  }
  CHECK(ingest::ResultChecksum::edited(path, "{\"a\": 1}").empty());
  const auto edited = ingest::ResultChecksum::edited(path, "{\"a\": 2}");
  CHECK(edited.rfind("edited after collect: its SHA-256 is ", 0) == 0);
  // Recorded once: a second record keeps the first hash.
  CHECK(ingest::ResultChecksum::record(path, "{\"a\": 2}"));
  CHECK(ingest::ResultChecksum::recorded(path) == sha256_hex("{\"a\": 1}"));
  std::filesystem::remove_all(dir);
}
