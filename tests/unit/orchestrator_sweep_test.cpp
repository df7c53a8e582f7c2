// Sweep specification: list parsing, validation of names and settings, expansion into points
// with stable keys, and the worker arguments of a point.
#include <doctest/doctest.h>

#include <set>

#include "sweep/ListParser.hpp"
#include "sweep/SweepSpec.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"
#include "util/Sha256.hpp"

using namespace pbench;
using namespace pbench::sweep;

TEST_CASE("positive lists parse and bad items are named") {
  CHECK(parse_positive_list("8,32,128", "--partitions") == std::vector<int>{8, 32, 128});
  CHECK_THROWS_WITH_AS(parse_positive_list("8,,x", "--partitions"),
                       "--partitions: '8,,x' has an empty item at position 2", UsageError);
  CHECK_THROWS_WITH_AS(parse_positive_list("8,x", "--partitions"),
                       "--partitions: '8,x': 'x' is not a whole number", UsageError);
  CHECK_THROWS_WITH_AS(parse_positive_list("0", "--queue-depths"),
                       "--queue-depths: '0': '0' must be positive", UsageError);
  CHECK_THROWS_WITH_AS(parse_positive_list("-4", "--queue-depths"),
                       "--queue-depths: '-4': '-4' must be positive", UsageError);
  CHECK_THROWS_AS(parse_positive_list("", "--partitions"), UsageError);
  CHECK_THROWS_AS(parse_positive_list("99999999999999999999", "--partitions"), UsageError);
  CHECK_THROWS_AS(parse_positive_list("4,", "--partitions"), UsageError);
  CHECK(join_list({1, 8}) == "1,8");
}

TEST_CASE("sweep names with shell or path metacharacters are refused") {
  CHECK_NOTHROW(validate_sweep_name("demo-1.a_b"));
  for (const char* bad : {"", "a/b", "../x", "x;rm -rf", "$(touch x)", "a b", "`x`", ".hidden",
                          "-dash", "x\ny"}) {
    CHECK_THROWS_AS(validate_sweep_name(bad), UsageError);
  }
  CHECK_THROWS_AS(validate_sweep_name(std::string(65, 'a')), UsageError);
}

TEST_CASE("unknown workers and schedulers are named in the error") {
  CHECK_THROWS_WITH_AS(find_worker("nope"), "unknown worker 'nope' (known: logp, comm, io, bcast, links)",
                       UsageError);
  SweepSpec spec;
  spec.name = "s";
  spec.scheduler = "lsf";
  CHECK_THROWS_WITH_AS(spec.validate(), "unknown scheduler 'lsf' (known: local, slurm, pbs)",
                       UsageError);
  spec.scheduler = "local";
  spec.workers = {"logp", "logp"};
  CHECK_THROWS_AS(spec.validate(), UsageError);
}

TEST_CASE("the sweep expands into the cartesian product with stable, distinct keys") {
  SweepSpec spec;
  spec.name = "demo";
  spec.partitions = {1, 2};
  spec.set_values("queue_depth", nlohmann::json::array({1, 8, 64}));
  const auto points = expand(spec);
  REQUIRE(points.size() == 6);
  std::set<std::string> keys;
  for (const auto& p : points) {
    keys.insert(p.key);
    CHECK(p.key.size() == 16);
    CHECK(p.worker == "logp");
  }
  CHECK(keys.size() == 6);
  CHECK(expand(spec)[3].key == points[3].key);
  CHECK(points[0].partition == 1);
  CHECK(points[0].params["queue_depth"] == 1);
  CHECK(points[5].partition == 2);
  CHECK(points[5].params["queue_depth"] == 64);
  // A setting changes every key (it changes what is measured).
  add_setting(spec.settings, "logp.eel_roundtrips=1000");
  CHECK(expand(spec)[0].key != points[0].key);
}

TEST_CASE("a point's worker arguments carry its dimensions and the sweep's settings") {
  SweepSpec spec;
  spec.name = "demo";
  spec.partitions = {2};
  spec.set_values("queue_depth", nlohmann::json::array({8}));
  add_setting(spec.settings, "logp.eel_roundtrips=1000");
  const auto args = worker_arguments(expand(spec).at(0));
  CHECK(args == std::vector<std::string>{"--queue-depths", "8", "--eel-roundtrips=1000"});
}

TEST_CASE("settings are checked") {
  std::map<std::string, std::map<std::string, std::string>> settings;
  CHECK_THROWS_AS(add_setting(settings, "logp.eel_roundtrips"), UsageError);
  CHECK_THROWS_AS(add_setting(settings, "nope.x=1"), UsageError);
  CHECK_THROWS_AS(add_setting(settings, "logp.Bad-Name=1"), UsageError);
  CHECK_THROWS_AS(add_setting(settings, "logp.output=/etc/passwd"), UsageError);
  add_setting(settings, "logp.note=$(touch canary); `x` 'y'");
  CHECK(settings["logp"]["note"] == "$(touch canary); `x` 'y'");
}

TEST_CASE("the specification round-trips through JSON") {
  SweepSpec spec;
  spec.name = "rt";
  spec.partitions = {4, 8};
  add_setting(spec.settings, "logp.eel_runs=12");
  const auto back = SweepSpec::from_json(spec.to_json());
  CHECK(back.to_json() == spec.to_json());
  CHECK_THROWS_AS(SweepSpec::from_json(nlohmann::json{{"name", "x"}}), UsageError);
}

TEST_CASE("SHA-256 matches the FIPS 180-4 test vectors") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
