// logp: which ranks pair up, and N per flood measurement.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "logp/FloodPlan.hpp"
#include "logp/LogpParameters.hpp"
#include "logp/PairLayout.hpp"
#include "logp/PairPlacement.hpp"
#include "support/UsageRefusal.hpp"

using pbench::testing::refusal_of;

using namespace pbench::logp;
using pbench::worker::NodeLayout;

namespace {

/// The pairs of a placement as "sender-receiver" words.
std::vector<std::string> pair_words(const PairPlacement& p) {
  std::vector<std::string> words;
  for (const auto& pair : p.pairs()) {
    words.push_back(std::to_string(pair.sender) + "-" + std::to_string(pair.receiver));
  }
  return words;
}

}  // namespace

TEST_CASE("logp pair placement: internode pairs cross nodes on 2 nodes x 2 (block placement)") {
  const NodeLayout nodes({"n1", "n1", "n2", "n2"});
  const PairPlacement p = PairPlacement::place(nodes, PairMode::internode);
  CHECK(pair_words(p) == std::vector<std::string>{"0-2", "1-3"});
  CHECK(p.measured() == PairMode::internode);
  CHECK(p.idle_ranks().empty());
  CHECK(p.notes().empty());
  for (const auto& pair : p.pairs()) CHECK_FALSE(nodes.same_node(pair.sender, pair.receiver));
  // The same ranks asked for intranode pair within each node.
  const PairPlacement q = PairPlacement::place(nodes, PairMode::intranode);
  CHECK(pair_words(q) == std::vector<std::string>{"0-1", "2-3"});
  CHECK(q.measured() == PairMode::intranode);
}

TEST_CASE("logp pair placement: round-robin placement and one rank per node") {
  CHECK(pair_words(PairPlacement::place(NodeLayout({"a", "b", "a", "b"}), PairMode::internode)) ==
        std::vector<std::string>{"0-1", "2-3"});
  CHECK(pair_words(PairPlacement::place(NodeLayout({"a", "b", "a", "b"}), PairMode::intranode)) ==
        std::vector<std::string>{"0-2", "1-3"});
  const PairPlacement four = PairPlacement::place(NodeLayout({"a", "b", "c", "d"}),
                                                  PairMode::internode);
  CHECK(pair_words(four) == std::vector<std::string>{"0-1", "2-3"});
  CHECK(four.notes().empty());
}

TEST_CASE("logp pair placement: internode on one node measures intranode pairs and says so") {
  const PairPlacement p = PairPlacement::place(NodeLayout({"box", "box"}), PairMode::internode);
  CHECK(pair_words(p) == std::vector<std::string>{"0-1"});
  CHECK(p.asked() == PairMode::internode);
  CHECK(p.measured() == PairMode::intranode);
  REQUIRE(p.notes().size() == 1);
  CHECK(p.notes()[0] ==
        "--pairs internode: all 2 ranks run on one node (box), so no pair can cross nodes; "
        "measured 1 intranode pair instead: these figures are shared memory, not the network");
}

TEST_CASE("logp pair placement: intranode with one rank per node measures internode pairs") {
  const PairPlacement p = PairPlacement::place(NodeLayout({"a", "b", "c"}), PairMode::intranode);
  CHECK(pair_words(p) == std::vector<std::string>{"0-1"});
  CHECK(p.measured() == PairMode::internode);
  CHECK(p.idle_ranks() == std::vector<int>{2});
  REQUIRE(p.notes().size() == 2);
  CHECK(p.notes()[0].rfind("--pairs intranode: each of the 3 nodes runs one rank", 0) == 0);
  CHECK(p.notes()[1] ==
        "rank 2 idles: 3 ranks on 3 nodes make 1 internode pair; the ranks without a partner "
        "only join the barriers");
}

TEST_CASE("logp pair placement: ranks without a partner on another node idle, never mix kinds") {
  // 3 ranks on n1, 1 on n2: one pair can cross; ranks 1 and 2 would only pair within n1.
  const PairPlacement p = PairPlacement::place(NodeLayout({"n1", "n1", "n1", "n2"}),
                                               PairMode::internode);
  CHECK(pair_words(p) == std::vector<std::string>{"0-3"});
  CHECK(p.measured() == PairMode::internode);
  CHECK(p.idle_ranks() == std::vector<int>{1, 2});
  REQUIRE(p.notes().size() == 1);
  CHECK(p.notes()[0].rfind("ranks 1, 2 idle: 4 ranks on 2 nodes make 1 internode pair", 0) == 0);
  // 2 nodes x 3 ranks: three crossing pairs, nobody idles.
  const NodeLayout six({"x", "x", "x", "y", "y", "y"});
  const PairPlacement full = PairPlacement::place(six, PairMode::internode);
  CHECK(pair_words(full) == std::vector<std::string>{"0-3", "1-4", "2-5"});
  // Intranode on 2 x 3: one pair per node, the odd rank of each node idles.
  const PairPlacement odd = PairPlacement::place(six, PairMode::intranode);
  CHECK(pair_words(odd) == std::vector<std::string>{"0-1", "3-4"});
  CHECK(odd.idle_ranks() == std::vector<int>{2, 5});
}

TEST_CASE("logp pair placement: the layout of a rank in a placement, and mode names") {
  const PairPlacement p = PairPlacement::place(NodeLayout({"n1", "n1", "n2", "n2"}),
                                               PairMode::internode);
  const PairLayout receiver(2, p);
  CHECK(receiver.role() == PairRole::receiver);
  CHECK(receiver.partner() == 0);
  CHECK(receiver.pair() == 0);
  CHECK(PairLayout(1, p).role() == PairRole::sender);
  CHECK(PairLayout(1, p).partner() == 3);
  CHECK(receiver.role_of(3) == PairRole::receiver);
  CHECK_THROWS_AS(PairLayout(4, p), std::invalid_argument);
  CHECK(parse_pair_mode("intranode") == PairMode::intranode);
  CHECK_THROWS_WITH_AS(parse_pair_mode("cross"), "--pairs: 'cross' is not internode or intranode",
                       std::invalid_argument);
  CHECK(PairPlacement::place(NodeLayout({"solo"}), PairMode::internode).pairs().empty());
}

TEST_CASE("logp pair layout: an even process count pairs every rank (2k sends to 2k+1)") {
  for (int rank = 0; rank < 4; ++rank) {
    const PairLayout l(rank, 4);
    CHECK(l.pair_count() == 2);
    CHECK(l.idle_ranks().empty());
    CHECK(l.pair() == rank / 2);
    CHECK(l.role() == (rank % 2 == 0 ? PairRole::sender : PairRole::receiver));
    CHECK(l.partner() == (rank ^ 1));
  }
  CHECK(PairLayout(0, 4).sender_of(1) == 2);
  CHECK(PairLayout(0, 4).receiver_of(1) == 3);
}

TEST_CASE("logp pair layout: with an odd count the last rank idles") {
  const PairLayout idle(2, 3);
  CHECK(idle.role() == PairRole::idle);
  CHECK(idle.partner() == -1);
  CHECK(idle.pair() == -1);
  CHECK(idle.pair_count() == 1);
  CHECK(idle.idle_ranks() == std::vector<int>{2});
  const PairLayout sender(0, 3);
  CHECK(sender.role() == PairRole::sender);
  CHECK(sender.partner() == 1);
  CHECK(sender.idle_ranks() == std::vector<int>{2});
  CHECK(PairLayout(4, 5).role() == PairRole::idle);
  CHECK(PairLayout(3, 5).role() == PairRole::receiver);
}

TEST_CASE("logp pair layout: one process has no pair") {
  const PairLayout alone(0, 1);
  CHECK(alone.pair_count() == 0);
  CHECK(alone.role() == PairRole::idle);
  CHECK(alone.idle_ranks() == std::vector<int>{0});
  CHECK_THROWS_AS(PairLayout(1, 1), std::invalid_argument);
  CHECK(std::string(role_name(PairRole::receiver)) == "recv");
}

TEST_CASE("logp flood plan: sizes are the powers of two from min to max") {
  const FloodPlan plan(8, 4 * kMiB, 10000, 16 * kMiB);
  REQUIRE(plan.sizes().size() == 20);
  CHECK(plan.sizes().front() == 8);
  CHECK(plan.sizes()[1] == 16);
  CHECK(plan.sizes().back() == 4194304);
}

TEST_CASE("logp flood plan: N is flood_messages, capped by flood_bytes, floored at max(16, 2q)") {
  const FloodPlan plan(8, 4 * kMiB, 10000, 16 * kMiB);
  CHECK(plan.messages(8, 1) == 10000);          // the message count rules
  CHECK(plan.messages(4096, 1) == 4096);        // 16 MiB / 4 KiB
  CHECK(plan.messages(1 * kMiB, 1) == 16);      // the cap, 16 MiB / 1 MiB
  CHECK(plan.messages(4 * kMiB, 1) == 16);      // cap 4, floor 16
  CHECK(plan.messages(4 * kMiB, 64) == 128);    // floor 2q
  CHECK(plan.messages(8, 64) == 10000);
  CHECK(FloodPlan::minimum_messages(4) == 16);
  CHECK(FloodPlan::minimum_messages(32) == 64);
  const FloodPlan few(8, 64, 20, 1 * kMiB);
  CHECK(few.messages(8, 1) == 20);
  CHECK(few.messages(8, 16) == 32);
}

TEST_CASE("logp flood plan: one buffer per outstanding message") {
  const FloodPlan plan(8, 4 * kMiB, 10000, 16 * kMiB);
  CHECK(plan.slots(8, 16) == 16);
  CHECK(plan.slots(4 * kMiB, 64) == 64);
  CHECK(plan.pool_bytes({1, 8}) == 8 * 4 * kMiB);
  const FloodPlan tiny(8, 8, 4, 64);
  CHECK(tiny.slots(8, 64) == 64);  // N = 2q = 128 > q
}

TEST_CASE("logp parameters: unusable values name their option") {
  LogpParameters p;
  CHECK(refusal_of(p).empty());
  p.queue_depths = {8, 0};
  REQUIRE_FALSE(refusal_of(p).empty());
  CHECK(refusal_of(p) == "--queue-depths: 0 is not a queue depth (each must be an integer >= 1)");
  p.queue_depths = {4, 4};
  CHECK(refusal_of(p) == "--queue-depths: 4 appears twice");
  p.queue_depths = {};
  CHECK(refusal_of(p) == "--queue-depths: give at least one queue depth");
  p = LogpParameters{};
  p.max_size = 1000;
  CHECK(refusal_of(p) == "--max-size: 1000 is not a power of two");
  p = LogpParameters{};
  p.min_size = 1024;
  p.max_size = 512;
  CHECK(refusal_of(p) == "--min-size: 1024 exceeds --max-size 512");
  p = LogpParameters{};
  p.repetitions = 0;
  CHECK(refusal_of(p) == "--repetitions: must be >= 1");
}

TEST_CASE("logp parameters: fewer than 10 EEL runs or a max size below 128 KiB is not valid") {
  LogpParameters p;
  CHECK(p.method_deviations().empty());
  p.eel_runs = 9;
  p.max_size = 65536;
  const auto reasons = p.method_deviations();
  REQUIRE(reasons.size() == 2);
  CHECK(reasons[0].find("eel_runs 9 < 10") == 0);
  CHECK(reasons[1].find("max_size 65536 B < 131072 B") == 0);
}
