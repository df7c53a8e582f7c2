// pbench-bcast: the shapes of the worker's own broadcasts (which rank receives from which, for
// linear, backward and binomial, several sizes and roots), a simulated delivery along them, and
// the hop-delay model the validation runs are checked against.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <vector>

#include "bcast/BroadcastShape.hpp"
#include "bcast/Broadcaster.hpp"
#include "bcast/TimedLoops.hpp"

using namespace pbench::bcast;

namespace {

/// For each absolute rank, the absolute rank it receives from (-1 for the root).
std::vector<int> senders(Algorithm algorithm, int nprocs, int root) {
  const BroadcastShape shape(algorithm, nprocs);
  std::vector<int> out(static_cast<std::size_t>(nprocs));
  for (int rank = 0; rank < nprocs; ++rank) {
    const int parent = shape.parent(relative_rank(rank, root, nprocs));
    out[static_cast<std::size_t>(rank)] = parent < 0 ? -1 : absolute_rank(parent, root, nprocs);
  }
  return out;
}

/// Delivers a message along the shape as the broadcaster does (each rank sends to its children
/// in order once it holds the message) and returns, per absolute rank, how often it received.
/// Fails the test when a rank sends before it holds the message or sends to a rank whose
/// parent is another one.
std::vector<int> simulate(Algorithm algorithm, int nprocs, int root) {
  const BroadcastShape shape(algorithm, nprocs);
  std::vector<int> received(static_cast<std::size_t>(nprocs), 0);
  std::vector<bool> holds(static_cast<std::size_t>(nprocs), false);
  holds[static_cast<std::size_t>(root)] = true;
  std::vector<int> pending{root};
  while (!pending.empty()) {
    const int sender = pending.front();
    pending.erase(pending.begin());
    REQUIRE(holds[static_cast<std::size_t>(sender)]);
    const int relative = relative_rank(sender, root, nprocs);
    for (int child : shape.children(relative)) {
      REQUIRE(shape.parent(child) == relative);
      const int to = absolute_rank(child, root, nprocs);
      ++received[static_cast<std::size_t>(to)];
      holds[static_cast<std::size_t>(to)] = true;
      pending.push_back(to);
    }
  }
  return received;
}

int ceil_log2(int n) {
  int bits = 0;
  while ((1 << bits) < n) ++bits;
  return bits;
}

}  // namespace

TEST_CASE("bcast: linear, rank i receives from i-1 (cyclic from the root)") {
  CHECK(senders(Algorithm::linear, 5, 0) == std::vector<int>{-1, 0, 1, 2, 3});
  CHECK(senders(Algorithm::linear, 5, 2) == std::vector<int>{4, 0, -1, 2, 3});
  CHECK(senders(Algorithm::linear, 4, 3) == std::vector<int>{3, 0, 1, -1});
  CHECK(senders(Algorithm::linear, 2, 1) == std::vector<int>{1, -1});
  const BroadcastShape shape(Algorithm::linear, 4);
  CHECK(shape.children(0) == std::vector<int>{1});
  CHECK(shape.children(3).empty());
  CHECK(shape.path(3) == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("bcast: backward, rank i receives from i+1 (cyclic), the root sends to root-1") {
  CHECK(senders(Algorithm::backward, 5, 0) == std::vector<int>{-1, 2, 3, 4, 0});
  CHECK(senders(Algorithm::backward, 5, 2) == std::vector<int>{1, 2, -1, 4, 0});
  CHECK(senders(Algorithm::backward, 4, 3) == std::vector<int>{1, 2, 3, -1});
  CHECK(senders(Algorithm::backward, 2, 0) == std::vector<int>{-1, 0});
  const BroadcastShape shape(Algorithm::backward, 4);
  CHECK(shape.children(0) == std::vector<int>{3});
  CHECK(shape.children(1).empty());
  CHECK(shape.path(1) == std::vector<int>{0, 3, 2, 1});
}

TEST_CASE("bcast: binomial, MPICH's tree: i receives from i without its lowest set bit") {
  CHECK(senders(Algorithm::binomial, 8, 0) == std::vector<int>{-1, 0, 0, 2, 0, 4, 4, 6});
  const BroadcastShape eight(Algorithm::binomial, 8);
  CHECK(eight.children(0) == std::vector<int>{4, 2, 1});  // largest subtree first
  CHECK(eight.children(4) == std::vector<int>{6, 5});
  CHECK(eight.children(6) == std::vector<int>{7});
  CHECK(eight.children(7).empty());
  CHECK(eight.path(7) == std::vector<int>{0, 4, 6, 7});
  const BroadcastShape six(Algorithm::binomial, 6);
  CHECK(six.children(0) == std::vector<int>{4, 2, 1});
  CHECK(six.children(4) == std::vector<int>{5});  // 6 is not a rank
  CHECK(six.children(2) == std::vector<int>{3});
  // Root 3 of 6: relative r is absolute (r + 3) mod 6.
  CHECK(senders(Algorithm::binomial, 6, 3) == std::vector<int>{5, 3, 1, -1, 3, 3});
  CHECK(senders(Algorithm::binomial, 3, 1) == std::vector<int>{1, -1, 1});
  const BroadcastShape three(Algorithm::binomial, 3);
  CHECK(three.children(0) == std::vector<int>{2, 1});
  CHECK(three.children(2).empty());
}

TEST_CASE("bcast: every shape delivers to every rank exactly once, for every size and root") {
  for (Algorithm algorithm : {Algorithm::linear, Algorithm::backward, Algorithm::binomial}) {
    for (int nprocs = 1; nprocs <= 17; ++nprocs) {
      for (int root = 0; root < nprocs; ++root) {
        CAPTURE(algorithm_name(algorithm));
        CAPTURE(nprocs);
        CAPTURE(root);
        const std::vector<int> received = simulate(algorithm, nprocs, root);
        for (int rank = 0; rank < nprocs; ++rank) {
          CHECK(received[static_cast<std::size_t>(rank)] == (rank == root ? 0 : 1));
        }
      }
    }
  }
}

TEST_CASE("bcast: a shape of no process is refused") {
  CHECK_THROWS_AS(BroadcastShape(Algorithm::linear, 0), std::invalid_argument);
}

TEST_CASE("bcast: the hop-delay model: linear (P-1)d, binomial ceil(log2 P)d") {
  const double d = 0.01;
  for (int nprocs = 2; nprocs <= 17; ++nprocs) {
    CAPTURE(nprocs);
    for (Algorithm algorithm : {Algorithm::linear, Algorithm::backward, Algorithm::binomial}) {
      CAPTURE(algorithm_name(algorithm));
      const BroadcastShape shape(algorithm, nprocs);
      double largest = 0;
      for (int r = 1; r < nprocs; ++r) largest = std::max(largest, shape.model_completion(r, d));
      const int hops = algorithm == Algorithm::binomial ? ceil_log2(nprocs) : nprocs - 1;
      CHECK(largest == doctest::Approx(hops * d));
    }
  }
  // Per task: a rank finishes after its own forwarding, so in a linear chain of 4 relative 1
  // finishes at 2d (received at d, forwarded after another d) and the last at 3d.
  const BroadcastShape linear(Algorithm::linear, 4);
  CHECK(linear.model_completion(1, d) == doctest::Approx(2 * d));
  CHECK(linear.model_completion(3, d) == doctest::Approx(3 * d));
  CHECK(linear.model_completion(0, d) == doctest::Approx(d));
  // Binomial of 4: the root sends to 2 after d, to 1 after 2d; 2 forwards to 3 after 2d.
  const BroadcastShape binomial(Algorithm::binomial, 4);
  CHECK(binomial.model_completion(2, d) == doctest::Approx(2 * d));
  CHECK(binomial.model_completion(1, d) == doctest::Approx(2 * d));
  CHECK(binomial.model_completion(3, d) == doctest::Approx(2 * d));
}

TEST_CASE("bcast: the implementation table names mpi and the three own algorithms") {
  CHECK(implementation_names() == "mpi, linear, backward, binomial");
  REQUIRE(find_implementation("mpi") != nullptr);
  CHECK_FALSE(find_implementation("mpi")->own);
  CHECK_FALSE(find_implementation("mpi")->algorithm.has_value());
  for (const char* name : {"linear", "backward", "binomial"}) {
    const Implementation* implementation = find_implementation(name);
    REQUIRE(implementation != nullptr);
    CHECK(implementation->own);
    REQUIRE(implementation->algorithm.has_value());
    CHECK(algorithm_name(*implementation->algorithm) == name);
  }
  CHECK(find_implementation("Linear") == nullptr);
  CHECK(find_implementation("") == nullptr);
}

TEST_CASE(
    "bcast: the delivery check's pattern differs by root and trial and finds one wrong byte") {
  std::vector<unsigned char> data(70000);
  fill_delivery_pattern(data.data(), static_cast<std::int64_t>(data.size()), 2, 1);
  const auto size = static_cast<std::int64_t>(data.size());
  CHECK(wrong_bytes(data.data(), size, 2, 1) == 0);
  CHECK(wrong_bytes(data.data(), size, 2, 0) > size / 2);  // another trial's pattern
  CHECK(wrong_bytes(data.data(), size, 1, 1) > size / 2);  // another root's pattern
  data[65537] ^= 0x10;
  CHECK(wrong_bytes(data.data(), size, 2, 1) == 1);
  // The complement a receiving rank starts from is wrong at every byte.
  for (auto& byte : data) byte = static_cast<unsigned char>(~byte);
  CHECK(wrong_bytes(data.data(), size, 2, 1) == size);
}

TEST_CASE("bcast: the model with a send gap apart from the transit (LogGP's hop cost)") {
  // gap a = 1, transit b = 3. Linear of 4: relative i arrives at i * b and finishes a later
  // when it forwards; the last (3) arrives at 9 and forwards nothing.
  const HopCost cost{1, 3};
  const BroadcastShape linear(Algorithm::linear, 4);
  CHECK(linear.model_completion(1, cost) == doctest::Approx(4));
  CHECK(linear.model_completion(2, cost) == doctest::Approx(7));
  CHECK(linear.model_completion(3, cost) == doctest::Approx(9));
  // Binomial of 4: the root sends to 2 (arrives at 3), then to 1 (at 1 + 3); 2 sends to 3 (at
  // 3 + 3) and finishes at 3 + 1.
  const BroadcastShape binomial(Algorithm::binomial, 4);
  CHECK(binomial.model_completion(2, cost) == doctest::Approx(4));
  CHECK(binomial.model_completion(1, cost) == doctest::Approx(4));
  CHECK(binomial.model_completion(3, cost) == doctest::Approx(6));
  // The hop delay d is the cost {d, d}.
  CHECK(binomial.model_completion(3, HopCost{0.01, 0.01}) ==
        doctest::Approx(binomial.model_completion(3, 0.01)));
}
