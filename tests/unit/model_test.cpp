// The LogGP model (query/LoggpModel.hpp) and `pbench query model` (query/ModelQuery.hpp): the
// predictions' arithmetic on fixed parameters against values worked out by hand, each named
// reading on constructed series, and the table from a store of made-up results (its sources,
// readings and errors).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>

#include "query/LoggpModel.hpp"
#include "query/ModelQuery.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::query;
using nlohmann::json;

namespace {

// EEL 2 us; q = 1: g 1 us, G 1 ns/B; q = 8: g 0.5 us, G 0.5 ns/B.
LoggpParameters parameters() {
  LoggpParameters p;
  p.eel = 2e-6;
  p.depths = {{1, 1e-6, 1e-9}, {8, 0.5e-6, 0.5e-9}};
  return p;
}

// A point measured 3 times, its spread within 2% of its speed: a difference from the model is
// established wherever the band lies beyond that.
ModelPoint at(double size, double speed) {
  ModelPoint p;
  p.size = size;
  p.speed = speed;
  p.low = speed * 0.98;
  p.high = speed * 1.02;
  p.samples = 3;
  return p;
}

// A point measured once: no spread.
ModelPoint once(double size, double speed) {
  ModelPoint p;
  p.size = size;
  p.speed = speed;
  p.samples = 1;
  return p;
}

std::vector<std::string> names(const std::vector<ModelReading>& readings) {
  std::vector<std::string> out;
  for (const auto& r : readings) out.push_back(r.name);
  return out;
}

}  // namespace

TEST_CASE("model: the queue depth for k messages at once is the largest measured not above k") {
  const auto p = parameters();
  CHECK(p.depth_for(1).queue_depth == 1);
  CHECK(p.depth_for(2).queue_depth == 1);
  CHECK(p.depth_for(8).queue_depth == 8);
  CHECK(p.depth_for(100).queue_depth == 8);
  LoggpParameters deep;
  deep.eel = 1e-6;
  deep.depths = {{8, 1e-6, 1e-9}, {64, 1e-6, 1e-9}};
  CHECK(deep.depth_for(1).queue_depth == 8);  // none at or below 1: the smallest measured
  CHECK(deep.depth_for(2).queue_depth == 8);
}

TEST_CASE("model: one message, a flood's gap and a train of messages, worked out by hand") {
  const auto p = parameters();
  CHECK(p.one_way(8) == doctest::Approx(2e-6));
  CHECK(p.one_way(1) == doctest::Approx(2e-6));              // below EEL's 8 bytes: EEL
  CHECK(p.one_way(1008) == doctest::Approx(3e-6));           // 2 us + 1000 B x 1 ns/B
  CHECK(p.gap(1008, p.depths[1]) == doctest::Approx(1e-6));  // 0.5 us + 1000 x 0.5 ns
  CHECK(p.train(1008, 1) == doctest::Approx(3e-6));
  CHECK(p.train(1008, 2) == doctest::Approx(5e-6));   // 3 us + 1 x (1 us + 1 us) at q = 1
  CHECK(p.train(1008, 8) == doctest::Approx(10e-6));  // 3 us + 7 x 1 us at q = 8
}

TEST_CASE("model: comm's ping-pong and rings, worked out by hand") {
  const auto p = parameters();
  CHECK(predicted_pingpong_time(p, 1008) == doctest::Approx(3e-6));
  CHECK(predicted_pingpong_bandwidth(p, 1008) == doctest::Approx(336e6));
  CHECK(ring_messages_per_process(2) == 1);
  CHECK(ring_messages_per_process(3) == 2);
  CHECK(ring_messages_per_process(1) == 0);
  // A ring of 2: one message each way, as a ping-pong's one-way time.
  CHECK(predicted_ring_bandwidth_per_process(p, 1008, {2}) == doctest::Approx(336e6));
  // A ring of 3: 6 messages of 1008 B in train(1008, 2) = 5 us over 3 processes.
  CHECK(predicted_ring_bandwidth_per_process(p, 1008, {3}) == doctest::Approx(403.2e6));
  // 2*2&+1 (rings 2, 2, 3): 10 messages, the ring of 3 the slowest (5 us), 7 processes.
  CHECK(predicted_ring_bandwidth_per_process(p, 1008, {2, 2, 3}) ==
        doctest::Approx(10 * 1008 / 5e-6 / 7));
  CHECK(ring_queue_depth(p, {2, 2, 3}) == 1);
  CHECK(ring_queue_depth(p, {2}) == 1);
}

TEST_CASE("model: the broadcast's OL along linear and binomial trees, worked out by hand") {
  const auto p = parameters();
  // 8 B: gap 1 us, transit 2 us. Linear of 4: relative 3 receives at 3 x 2 us.
  CHECK(predicted_broadcast_ol(p, 8, bcast::Algorithm::linear, 4, 0) == doctest::Approx(6e-6));
  CHECK(predicted_broadcast_ol(p, 8, bcast::Algorithm::backward, 4, 0) == doctest::Approx(6e-6));
  // Binomial of 4: root -> 2 (at 2 us), root -> 1 (at 1 + 2 us), 2 -> 3 (at 2 + 2 us).
  CHECK(predicted_broadcast_ol(p, 8, bcast::Algorithm::binomial, 4, 0) == doctest::Approx(4e-6));
  // Two processes: one hop, the one-way time.
  CHECK(predicted_broadcast_ol(p, 1008, bcast::Algorithm::linear, 2, 0) == doctest::Approx(3e-6));
  // A synthetic hop delay of 10 us adds to gap and transit: 11 and 12 us.
  CHECK(predicted_broadcast_ol(p, 8, bcast::Algorithm::linear, 4, 10e-6) == doctest::Approx(36e-6));
  CHECK(predicted_broadcast_ol(p, 8, bcast::Algorithm::binomial, 4, 10e-6) ==
        doctest::Approx(24e-6));
}

TEST_CASE("model: a link of the matrix: n messages at once at the depth for n") {
  const auto p = parameters();
  CHECK(predicted_link_bandwidth(p, 1008, 8) == doctest::Approx(8 * 1008 / 10e-6));
  CHECK(predicted_link_bandwidth(p, 1008, 1) == doctest::Approx(336e6));
}

TEST_CASE("model: the band is 0.8 to 1.25, both ends inside") {
  CHECK(within_band(1));
  CHECK(within_band(1.25));
  CHECK(within_band(0.8));
  CHECK_FALSE(within_band(1.26));
  CHECK_FALSE(within_band(0.79));
}

TEST_CASE("model reading: within the band nothing is named") {
  const auto r = read_series({at(8, 1.0), at(16, 1.2), at(32, 0.85)});
  CHECK(names(r) == std::vector<std::string>{"", "", ""});
}

TEST_CASE("model reading: a jump between adjacent sizes is a protocol switch") {
  const auto r =
      read_series({at(16, 1.0), at(32, 1.05), at(64, 0.6), at(128, 0.58), at(256, 0.62)});
  CHECK(names(r) ==
        std::vector<std::string>{"", "", "protocol switch", "protocol switch", "protocol switch"});
  CHECK(r[3].why.find("between 32 B and 64 B") != std::string::npos);
  // Small sizes off and the rest on the model: the switch at the end of the run.
  const auto back = read_series({at(8, 0.5), at(16, 0.5), at(32, 1.0)});
  CHECK(names(back) == std::vector<std::string>{"protocol switch", "protocol switch", ""});
  CHECK(back[0].why.find("between 16 B and 32 B") != std::string::npos);
}

TEST_CASE("model reading: a slow drift without a jump is unexplained") {
  const auto r = read_series({at(8, 1.0), at(16, 0.9), at(32, 0.78), at(64, 0.7)});
  CHECK(names(r) == std::vector<std::string>{"", "", "unexplained", "unexplained"});
  // A drift out of the band, then a jump: the sizes from the jump on are the switch.
  const auto later =
      read_series({at(8, 1.0), at(16, 0.9), at(32, 0.79), at(64, 0.3), at(128, 0.3)});
  // (0.79 is out of the band, but its spread, 0.77-0.81, reaches into it: uncertain.)
  CHECK(names(later) ==
        std::vector<std::string>{"", "", "uncertain", "protocol switch", "protocol switch"});
  CHECK(later[4].why.find("between 32 B and 64 B") != std::string::npos);
}

TEST_CASE("model reading: a ring below the model and below the ping-pong is contention") {
  // Two neighbouring sizes, each below the model beyond its spread.
  const auto rings = [](std::optional<double> pingpong, bool elsewhere, double speed) {
    std::vector<ModelPoint> out{at(1024, speed), at(2048, speed)};
    for (auto& p : out) {
      p.ring = true;
      p.pingpong_speed = pingpong;
      p.pingpong_elsewhere = elsewhere;
    }
    return out;
  };
  CHECK(names(read_series(rings(1.0, false, 0.5))) ==
        std::vector<std::string>{"contention", "contention"});
  // The ping-pong as slow as the ring: not the rings' doing (one level, no step: unexplained).
  CHECK(names(read_series(rings(0.55, false, 0.5))) ==
        std::vector<std::string>{"unexplained", "unexplained"});
  // No ping-pong measured: below the model is enough.
  CHECK(names(read_series(rings(std::nullopt, false, 0.5))) ==
        std::vector<std::string>{"contention", "contention"});
  // The ping-pong on another path (inside a node, the ring across nodes) is not compared, and
  // the words say so.
  const auto elsewhere = read_series(rings(std::nullopt, true, 0.5));
  CHECK(names(elsewhere) == std::vector<std::string>{"contention", "contention"});
  CHECK(elsewhere[0].why.find("the ping-pong ran on another path: not compared") !=
        std::string::npos);
  // A ring faster than the model is not contention.
  CHECK(names(read_series(rings(1.0, false, 1.6))) ==
        std::vector<std::string>{"unexplained", "unexplained"});
  // One size alone below the model: no neighbouring size says the same, no cause.
  ModelPoint lone = at(1024, 0.5);
  lone.ring = true;
  CHECK(names(read_series({lone})) == std::vector<std::string>{"unexplained"});
}

TEST_CASE("model reading: one noisy sample names no cause") {
  // The ping-pong of issue 52: single samples, 109x from 1 B to 2 B and 0.37x back.
  const auto jumps = read_series({once(1, 1.0), once(2, 109), once(4, 0.37 * 109), once(8, 1.1)});
  CHECK(names(jumps) == std::vector<std::string>{"", "uncertain", "uncertain", ""});
  CHECK(jumps[1].why.find("one sample") != std::string::npos);
  // Single-sample rings far below the model: no contention.
  std::vector<ModelPoint> rings{once(1024, 0.000054), once(2048, 0.00006)};
  for (auto& p : rings) p.ring = true;
  CHECK(names(read_series(rings)) == std::vector<std::string>{"uncertain", "uncertain"});
  // Repetitions whose spread reaches into the band establish nothing either.
  ModelPoint wide = at(64, 0.7);
  wide.low = 0.5;
  wide.high = 0.9;
  const auto spread = read_series({at(32, 1.0), wide, at(128, 1.0)});
  CHECK(names(spread) == std::vector<std::string>{"", "uncertain", ""});
  CHECK(spread[1].why.find("spread 0.50-0.90") != std::string::npos);
  // One size off, measured well, between sizes on the model: a spike, not a step.
  CHECK(names(read_series({at(8, 1.0), at(16, 3.0), at(32, 1.0)})) ==
        std::vector<std::string>{"", "unexplained", ""});
  // A step whose spreads overlap across the jump is no established switch.
  ModelPoint low1 = at(64, 0.6), low2 = at(128, 0.6);
  low1.high = low2.high = 1.1;
  low1.low = low2.low = 0.5;
  CHECK(names(read_series({at(16, 1.0), at(32, 1.0), low1, low2})) ==
        std::vector<std::string>{"", "", "uncertain", "uncertain"});
}

TEST_CASE("model reading: a result that is not comparable is read so, whatever its ratio") {
  ModelPoint over = at(1024, 0.3);
  over.ring = true;
  over.not_comparable = "4 ranks on 2 cores";
  ModelPoint agreeing = over;
  agreeing.speed = 1.0;
  const auto r = read_series({over, agreeing});
  CHECK(names(r) == std::vector<std::string>{"not comparable: 4 ranks on 2 cores",
                                             "not comparable: 4 ranks on 2 cores"});
  CHECK(r[0].why.find("not valid (4 ranks on 2 cores)") != std::string::npos);
  CHECK(established_side(at(8, 0.5)) == -1);
  CHECK(established_side(at(8, 2.0)) == 1);
  CHECK(established_side(at(8, 1.0)) == 0);
  CHECK(established_side(once(8, 0.1)) == 0);
}

TEST_CASE("model reading: shared memory against the network, and a weak link") {
  ModelPoint across = at(8, 0.3);
  across.path_differs = true;
  across.ring = true;
  CHECK(names(read_series({across})) == std::vector<std::string>{"shared memory vs network"});
  across.speed = 1.0;  // another path, and yet within the band: nothing to name
  CHECK(names(read_series({across})) == std::vector<std::string>{""});
  ModelPoint weak = at(65536, 0.4);
  weak.weak = true;
  CHECK(names(read_series({weak})) == std::vector<std::string>{"weak link"});
  CHECK(paths_differ(Path::shared_memory, Path::network));
  CHECK(paths_differ(Path::shared_memory, Path::mixed));
  CHECK(paths_differ(Path::network, Path::shared_memory));
  CHECK_FALSE(paths_differ(Path::network, Path::mixed));
  CHECK_FALSE(paths_differ(Path::network, Path::network));
  CHECK_FALSE(paths_differ(Path::unknown, Path::network));
}

namespace {

json table(std::vector<std::string> columns, json rows) {
  json cols = json::array();
  for (const auto& c : columns) cols.push_back({{"name", c}, {"unit", ""}});
  return {{"columns", cols}, {"rows", rows}};
}

// logp on 2 processes, one pair (its placement "intranode" or "internode"): EEL, and at q = 1
// g and G.
json logp_pair_document(double eel, double g, double big_g, const std::string& placement) {
  auto doc =
      testing::document("logp", 2,
                        json::array({testing::metric("eel_min", eel, "s"),
                                     testing::metric("g", g, "s", {{"queue_depth", 1}}),
                                     testing::metric("big_g", big_g, "s/B", {{"queue_depth", 1}})}),
                        true);
  doc["measurements"]["pairs"] = table({"pair", "sender", "receiver", "placement"},
                                       json::array({json::array({0, 0, 1, placement})}));
  return doc;
}

// logp on 2 processes of one node: EEL 2 us, q = 1: g 1 us, G 1 ns/B.
json logp_document() {
  return logp_pair_document(2e-6, 1e-6, 1e-9, "intranode");
}

// comm on 2 processes: the ping-pong on the model at 1008 B, the ring at 0.4x.
json comm_document() {
  auto doc =
      testing::document("comm", 2, json::array({testing::metric("b_eff", 1e8, "B/s")}), true);
  doc["rank_hosts"] = {"node01", "node01"};
  doc["measurements"]["patterns"] =
      table({"pattern", "kind", "ring_sizes", "messages", "participants"},
            json::array({json::array({"ring1:1*2", "ring", "2", 2, 2}),
                         json::array({"pingpong", "extra", "", 2, 2})}));
  doc["measurements"]["measurements"] =
      table({"pattern", "l", "method", "repetition", "bandwidth"},
            json::array({json::array({"pingpong", 1008, "sendrecv", 1, 336e6}),
                         json::array({"pingpong", 1008, "sendrecv", 2, 300e6}),
                         json::array({"ring1:1*2", 1008, "sendrecv", 1, 2 * 0.4 * 336e6})}));
  doc["measurements"]["pattern_nodes"] =
      table({"pattern", "messages", "crossing_messages"},
            json::array({json::array({"ring1:1*2", 2, 0}), json::array({"pingpong", 2, 0})}));
  return doc;
}

// bcast, linear, on 2 processes: OL 2.2 us at 8 B (on the model), 9 us at 1008 B (3x).
json bcast_document() {
  return testing::document(
      "bcast", 2,
      json::array({testing::metric("ol", 2.2e-6, "s", {{"size", 8}}),
                   testing::metric("ol", 9e-6, "s", {{"size", 1008}})}),
      true, {{"impl", testing::setting("linear")}, {"hop_delay_us", testing::setting(0)}});
}

const json& row_of(const json& rows, const std::string& figure, const std::string& subject,
                   int size) {
  for (const auto& r : rows) {
    if (r["figure"] == figure && r["subject"] == subject && r["size"] == size) return r;
  }
  FAIL("no row " << figure << " of " << subject << " at " << size);
  return rows[0];
}

}  // namespace

TEST_CASE("query model: predicted beside measured with the readings, from a store") {
  testing::Fixture f;
  f.add_sweep("m", {{"logp", 2}, {"comm", 2}, {"bcast", 2}});
  f.add_run(0, logp_document());
  f.add_run(1, comm_document());
  f.add_run(2, bcast_document());
  const auto answer = json::parse(render(model_table(f.store, "m"), Format::json));
  const auto& rows = answer["rows"];
  const auto& pp = row_of(rows, "pingpong_time", "pingpong", 1008);
  CHECK(pp["predicted"].get<double>() == doctest::Approx(3e-6));
  CHECK(pp["measured"].get<double>() == doctest::Approx(3e-6));  // 1008 B / 336 MB/s, the best
  CHECK(pp["reading"] == "agrees");
  CHECK(pp["samples"] == 2);
  CHECK(pp["queue_depth"] == 1);
  const auto& bw = row_of(rows, "pingpong_bandwidth", "pingpong", 1008);
  CHECK(bw["ratio"].get<double>() == doctest::Approx(1.0));
  const auto& ring = row_of(rows, "ring_bandwidth_per_process", "ring1:1*2", 1008);
  CHECK(ring["predicted"].get<double>() == doctest::Approx(336e6));
  CHECK(ring["measured"].get<double>() == doctest::Approx(0.4 * 336e6));
  // One sample at one size: below the model, but no cause is named on it.
  CHECK(ring["reading"] == "uncertain");
  const auto& small = row_of(rows, "bcast_ol", "linear", 8);
  CHECK(small["predicted"].get<double>() == doctest::Approx(2e-6));
  CHECK(small["reading"] == "agrees");
  const auto& large = row_of(rows, "bcast_ol", "linear", 1008);
  CHECK(large["predicted"].get<double>() == doctest::Approx(3e-6));
  CHECK(large["ratio"].get<double>() == doctest::Approx(3.0));
  CHECK(large["reading"] == "uncertain");  // one size off, without a stated confidence
  CHECK(large["valid"] == "yes");
  // The notes: the band, the logp source (this sweep) and each reading in words.
  const auto notes = answer["notes"].dump();
  CHECK(notes.find("0.80-1.25") != std::string::npos);
  CHECK(notes.find("logp #1: logp of sweep m, 2 procs") != std::string::npos);
  CHECK(notes.find("(this sweep)") != std::string::npos);
  CHECK(notes.find("bcast_ol of linear at 1008 B: uncertain: outside the band on one sample") !=
        std::string::npos);
}

TEST_CASE("query model: a sweep without logp reads the store's latest logp and says so") {
  testing::Fixture f;
  f.add_sweep("net", {{"logp", 2}});
  f.add_run(0, logp_document());
  f.add_sweep("later", {{"bcast", 2}});
  f.add_run(0, bcast_document());
  const auto table = model_table(f.store, "later");
  const auto answer = json::parse(render(table, Format::json));
  CHECK(row_of(answer["rows"], "bcast_ol", "linear", 8)["predicted"].get<double>() ==
        doctest::Approx(2e-6));
  CHECK(answer["notes"].dump().find("logp of sweep net") != std::string::npos);
  CHECK(answer["notes"].dump().find("the store's latest logp: sweep later has none") !=
        std::string::npos);
}

TEST_CASE("query model: an unknown sweep and a store without logp are errors that say so") {
  testing::Fixture f;
  f.add_sweep("only", {{"bcast", 2}});
  f.add_run(0, bcast_document());
  CHECK_THROWS_WITH_AS(model_table(f.store, "nope"), "no sweep named 'nope'", UsageError);
  CHECK_THROWS_WITH_AS(model_table(f.store, "only"),
                       "sweep 'only' has no logp result and the store has none: the model needs "
                       "LogGP parameters (pbench run NAME --workers logp)",
                       UsageError);
}

namespace {

// logp on 2x1: its pair crosses nodes. EEL 50 us; q = 1: g 40 us, G 40 ns/B (25 MB/s).
json network_logp_document() {
  auto doc = logp_pair_document(50e-6, 40e-6, 40e-9, "internode");
  doc["procs_per_node"] = 1;
  doc["hosts"] = {"node1", "node2"};
  doc["rank_hosts"] = {"node1", "node2"};
  return doc;
}

// comm on 2x2 (ranks 0, 1 on node1, 2, 3 on node2) at 1 MiB: the ring of 4 in rank order (one
// neighbour of each process across: 4 of its 8 messages cross), b_eff's random ring 0-2-1-3
// and the worst cycle 0-3-1-2 (all 8 across), and the ping-pong of ranks 0 and 1 inside node1.
json contended_comm_document(double ring_speed, double random_speed, double worst_speed) {
  auto doc =
      testing::document("comm", 4, json::array({testing::metric("b_eff", 1e8, "B/s")}), true);
  doc["procs_per_node"] = 2;
  doc["hosts"] = {"node1", "node2"};
  doc["rank_hosts"] = {"node1", "node1", "node2", "node2"};
  doc["measurements"]["patterns"] =
      table({"pattern", "kind", "ring_sizes", "order", "messages", "participants"},
            json::array({json::array({"ring2:1*4", "ring", "4", "", 8, 4}),
                         json::array({"random1", "random", "", "0,2,1,3", 8, 4}),
                         json::array({"worst_cycle", "extra", "", "0,3,1,2", 8, 4}),
                         json::array({"best_bisection", "extra", "", "", 4, 4}),
                         json::array({"pingpong", "extra", "", "", 2, 2})}));
  // At 1 and 2 MiB, 2 repetitions each within 1%. The model's figure per process (one_way +
  // gap = 2 one_way - (EEL - g)); the pattern's bandwidth is that of its 4 processes together.
  json rows = json::array();
  for (const double m : {1048576.0, 2097152.0}) {
    const double ring_model = 2 * m / (2 * (50e-6 + (m - 8) * 40e-9) - 10e-6);
    for (const double rep : {1.0, 0.99}) {
      rows.push_back(json::array({"pingpong", m, "sendrecv", 1, 1e9}));
      rows.push_back(json::array({"ring2:1*4", m, "nonblocking", 1, 4 * ring_speed * ring_model}));
      rows.push_back(
          json::array({"random1", m, "nonblocking", 1, 4 * rep * random_speed * ring_model}));
      rows.push_back(
          json::array({"worst_cycle", m, "nonblocking", 1, 4 * rep * worst_speed * ring_model}));
      rows.push_back(json::array({"best_bisection", m, "sendrecv", 1, 1e8}));
    }
  }
  doc["measurements"]["measurements"] =
      table({"pattern", "l", "method", "repetition", "bandwidth"}, rows);
  doc["measurements"]["pattern_nodes"] =
      table({"pattern", "messages", "crossing_messages"},
            json::array({json::array({"ring2:1*4", 8, 4}), json::array({"random1", 8, 8}),
                         json::array({"worst_cycle", 8, 8}), json::array({"best_bisection", 4, 0}),
                         json::array({"pingpong", 2, 0})}));
  return doc;
}

}  // namespace

TEST_CASE(
    "query model: b_eff's random rings and the worst cycle are rings, and crossing rings "
    "below the model on 2x2 are contention") {
  testing::Fixture f;
  f.add_sweep("truth", {{"logp", 2}});
  f.add_run(0, network_logp_document());
  f.add_sweep("contended", {{"comm", 4}});
  f.add_run(0, contended_comm_document(1.0, 0.5, 0.48));
  const auto answer = json::parse(render(model_table(f.store, "contended"), Format::json));
  const auto& rows = answer["rows"];
  // Each of the three is one ring of 4: k = 2 messages at once per process, at q = 1 (logp's
  // only depth): 2m / (one_way(m) + gap(m, 1)) per process, worked out here by hand.
  const double m = 1048576;
  const double one_way = 50e-6 + (m - 8) * 40e-9, gap = 40e-6 + (m - 8) * 40e-9;
  const double predicted = 2 * m / (one_way + gap);
  for (const char* subject : {"ring2:1*4", "random1", "worst_cycle"}) {
    const auto& r = row_of(rows, "ring_bandwidth_per_process", subject, 1048576);
    CHECK(r["predicted"].get<double>() == doctest::Approx(predicted));
    CHECK(r["queue_depth"] == 1);
    CHECK(r["logp"] == "#1 (another shape)");
  }
  // The ring in rank order agrees (each process sends one message across, as many per link as
  // the model's one process sends); the two whose every message crosses are contention, not
  // compared with the ping-pong of ranks 0 and 1 (shared memory, read as such).
  CHECK(row_of(rows, "ring_bandwidth_per_process", "ring2:1*4", 1048576)["reading"] == "agrees");
  CHECK(row_of(rows, "ring_bandwidth_per_process", "random1", 1048576)["reading"] == "contention");
  CHECK(row_of(rows, "ring_bandwidth_per_process", "worst_cycle", 1048576)["reading"] ==
        "contention");
  CHECK(row_of(rows, "pingpong_bandwidth", "pingpong", 1048576)["reading"] ==
        "shared memory vs network");
  // Pairs are no ring: no prediction for the bisections.
  for (const auto& r : rows) CHECK(r["subject"] != "best_bisection");
  const auto notes = answer["notes"].dump();
  CHECK(notes.find("ring_bandwidth_per_process of worst_cycle at 1048576-2097152 B (2 sizes): "
                   "contention: below the model (the ping-pong ran on another path: not "
                   "compared)") != std::string::npos);
}

namespace {

// comm on 2 processes of one node (shared memory, as logp_document's pair): six b_eff rings of
// 2 (one shape) and the ping-pong at 1008 and 2016 B, one repetition each; `speeds` gives each
// ring's measured / predicted at both sizes.
json rings_document(const std::vector<double>& speeds) {
  auto doc =
      testing::document("comm", 2, json::array({testing::metric("b_eff", 1e8, "B/s")}), true);
  doc["rank_hosts"] = {"node01", "node01"};
  json patterns = json::array({json::array({"pingpong", "extra", "", 2, 2})});
  json nodes = json::array({json::array({"pingpong", 2, 0})});
  json rows = json::array();
  LoggpParameters p;
  p.eel = 2e-6;
  p.depths = {{1, 1e-6, 1e-9}};
  for (const double m : {1008.0, 2016.0}) {
    rows.push_back(json::array({"pingpong", m, "sendrecv", 1, predicted_pingpong_bandwidth(p, m)}));
    rows.push_back(json::array({"pingpong", m, "sendrecv", 2, predicted_pingpong_bandwidth(p, m)}));
  }
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    const std::string name = "ring" + std::to_string(i + 1) + ":1*2";
    patterns.push_back(json::array({name, "ring", "2", 2, 2}));
    nodes.push_back(json::array({name, 2, 0}));
    for (const double m : {1008.0, 2016.0}) {
      const double per_process = predicted_ring_bandwidth_per_process(p, m, {2});
      rows.push_back(json::array({name, m, "sendrecv", 1, 2 * speeds[i] * per_process}));
    }
  }
  doc["measurements"]["patterns"] =
      table({"pattern", "kind", "ring_sizes", "messages", "participants"}, patterns);
  doc["measurements"]["measurements"] =
      table({"pattern", "l", "method", "repetition", "bandwidth"}, rows);
  doc["measurements"]["pattern_nodes"] = table({"pattern", "messages", "crossing_messages"}, nodes);
  return doc;
}

std::vector<std::string> ring_readings(const json& rows, int size) {
  std::vector<std::string> out;
  for (const auto& r : rows) {
    if (r["figure"] == "ring_bandwidth_per_process" && r["size"] == size)
      out.push_back(r["reading"].get<std::string>());
  }
  return out;
}

}  // namespace

TEST_CASE("query model: identical rings get one reading, from their samples together") {
  testing::Fixture f;
  f.add_sweep("m", {{"logp", 2}, {"comm", 2}, {"comm", 2}});
  f.add_run(0, logp_document());
  // Six rings of 2, one sample each, 0.35 to 0.95 of the model: together they spread into the
  // band, so none is named (issue 52: ring 4 "agrees" 0.833, ring 5 "contention" 0.352).
  f.add_run(1, rings_document({0.9, 0.95, 0.7, 0.833, 0.352, 0.6}));
  // Six alike rings at 0.40-0.45 at both sizes, below the ping-pong (on the model) beyond their
  // spread: contention, named for all six.
  f.add_run(2, rings_document({0.4, 0.41, 0.42, 0.43, 0.44, 0.45}));
  const auto rows = json::parse(render(model_table(f.store, "m"), Format::json))["rows"];
  std::vector<std::string> first, second;
  for (const auto& r : rows) {
    if (r["figure"] != "ring_bandwidth_per_process" || r["size"] != 1008) continue;
    (first.size() < 6 ? first : second).push_back(r["reading"].get<std::string>());
  }
  CHECK(first == std::vector<std::string>(6, "uncertain"));
  CHECK(second == std::vector<std::string>(6, "contention"));
  CHECK(ring_readings(rows, 2016).size() == 12);
}

TEST_CASE("query model: oversubscribed results read 'not comparable', never contention") {
  testing::Fixture f;
  f.add_sweep("m", {{"logp", 2}, {"comm", 4}});
  f.add_run(0, logp_document());
  // 4 ranks on a node of 2 cores, rings far below the model at both sizes, as a local sweep
  // of partition 4 on 2 cores gives.
  auto doc = rings_document({0.000054, 0.00006, 0.00005, 0.00007, 0.00005, 0.00006});
  doc["nprocs"] = 4;
  doc["node_cores"] = json::array({{{"host", "node01"}, {"ranks", 4}, {"cores", 2}}});
  doc["validity"] = {{"valid", false},
                     {"reasons", {"oversubscribed: 4 ranks on 2 cores of node01"}}};
  f.add_run(1, doc);
  const auto answer = json::parse(render(model_table(f.store, "m"), Format::json));
  for (const auto& r : answer["rows"]) {
    CHECK(r["reading"] == "not comparable: 4 ranks on 2 cores");
    CHECK(r["valid"] == "no");
  }
  CHECK(ring_readings(answer["rows"], 1008).size() == 6);
  CHECK(answer["notes"].dump().find("contention") == std::string::npos);
  // Only the reason, without node_cores (an older document): read from the reason.
  testing::Fixture g;
  g.add_sweep("m", {{"logp", 2}, {"comm", 4}});
  g.add_run(0, logp_document());
  doc.erase("node_cores");
  g.add_run(1, doc);
  const auto older = json::parse(render(model_table(g.store, "m"), Format::json));
  CHECK(ring_readings(older["rows"], 1008) ==
        std::vector<std::string>(6, "not comparable: 4 ranks on 2 cores"));
}
