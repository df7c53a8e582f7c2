// pbench-links and `pbench query links`: the shift schedule covers every ordered pair of nodes
// once with every node busy in every step; endpoints are one rank per node; the weak-node and
// weak-link rule names a slow node (and not its neighbours), a slow link alone, and nothing in
// a matrix of noise.
#include <doctest/doctest.h>

#include <set>

#include "common/NodeLayout.hpp"
#include "links/LinkSchedule.hpp"
#include "links/LinksParameters.hpp"
#include "query/LinkOutliers.hpp"
#include "report/GnuplotFigure.hpp"
#include "support/UsageRefusal.hpp"

#include <cmath>

using pbench::testing::refusal_of;

using namespace pbench;

TEST_CASE("links: the shift schedule covers every ordered pair once, every node busy") {
  for (int n : {2, 3, 4, 7, 16}) {
    std::set<std::pair<int, int>> seen;
    for (int k = 1; k < n; ++k) {
      std::set<int> senders, receivers;
      for (int i = 0; i < n; ++i) {
        const int dst = links::send_partner(i, k, n);
        CHECK(dst != i);
        CHECK(links::receive_partner(dst, k, n) == i);
        CHECK(links::step_of(i, dst, n) == k);
        CHECK(seen.insert({i, dst}).second);
        senders.insert(i);
        receivers.insert(dst);
      }
      CHECK(static_cast<int>(senders.size()) == n);
      CHECK(static_cast<int>(receivers.size()) == n);
    }
    CHECK(static_cast<int>(seen.size()) == n * (n - 1));
  }
  CHECK_THROWS(links::step_of(2, 2, 4));
}

TEST_CASE(
    "links: one endpoint per node, the first rank, or the ranks of one node when there is one") {
  const worker::NodeLayout two_by_two({"a", "a", "b", "b"});
  const auto e = links::endpoints_of(two_by_two);
  CHECK(e.between_nodes);
  CHECK(e.ranks == std::vector<int>{0, 2});
  CHECK(e.labels == std::vector<std::string>{"a", "b"});
  CHECK(e.idle == std::vector<int>{1, 3});
  const auto one = links::endpoints_of(worker::NodeLayout({"box", "box", "box"}));
  CHECK_FALSE(one.between_nodes);
  CHECK(one.ranks == std::vector<int>{0, 1, 2});
  CHECK(one.labels == std::vector<std::string>{"box#0", "box#1", "box#2"});
}

TEST_CASE("links: bad parameters name their option") {
  links::LinksParameters p;
  CHECK(refusal_of(p).empty());
  p.messages = 0;
  CHECK(refusal_of(p).find("--messages") != std::string::npos);
  p = {};
  p.message_size = 0;
  CHECK(refusal_of(p).find("--message-size") != std::string::npos);
  p = {};
  p.latency_roundtrips = 0;
  CHECK(refusal_of(p).find("--latency-roundtrips") != std::string::npos);
}

namespace {

// A matrix of `n` nodes whose link a -> b has bandwidth rate(a, b) (node names n1..).
struct Matrix {
  std::vector<std::string> nodes;
  std::map<std::string, double> node_figure;
  std::vector<query::LinkValue> links;
};
template <typename Rate>
Matrix matrix_of(int n, Rate rate) {
  Matrix m;
  for (int i = 1; i <= n; ++i) m.nodes.push_back("n" + std::to_string(i));
  for (int a = 1; a <= n; ++a) {
    for (int b = 1; b <= n; ++b) {
      if (a != b) m.links.push_back({"n" + std::to_string(a), "n" + std::to_string(b), rate(a, b)});
    }
  }
  for (const auto& node : m.nodes) {
    std::vector<double> mine;
    for (const auto& l : m.links) {
      if (l.from == node || l.to == node) mine.push_back(l.value);
    }
    m.node_figure[node] = query::median_of(mine);
  }
  return m;
}

query::LinkOutliers outliers_of(const Matrix& m) {
  return query::find_link_outliers(m.nodes, m.node_figure, m.links, query::OutlierRule{});
}

}  // namespace

TEST_CASE("links: a node at a quarter of the rate is named, and none of its neighbours") {
  for (int n : {4, 8, 16}) {
    // Noise of a few percent on every link; node 3's links at a quarter.
    const auto m = matrix_of(n, [](int a, int b) {
      const double noise = 1 + 0.03 * ((a * 7 + b * 13) % 5 - 2) / 2.0;
      return (a == 3 || b == 3 ? 0.25 : 1.0) * 119.5e6 * noise;
    });
    const auto o = outliers_of(m);
    CHECK(o.weak_nodes == std::vector<std::string>{"n3"});
    CHECK(o.weak_links.empty());
  }
}

TEST_CASE("links: one slow link is named alone, and a matrix of noise names nothing") {
  const auto slow = matrix_of(8, [](int a, int b) {
    return (a == 2 && b == 5 ? 0.5 : 1.0) * 100e6 * (1 + 0.02 * ((a + 2 * b) % 3 - 1));
  });
  const auto o = outliers_of(slow);
  CHECK(o.weak_nodes.empty());
  REQUIRE(o.weak_links.size() == 1);
  CHECK(o.weak_links[0] == std::pair<std::string, std::string>{"n2", "n5"});

  const auto noise =
      matrix_of(8, [](int a, int b) { return 100e6 * (1 + 0.1 * ((a * b) % 3 - 1)); });
  CHECK(outliers_of(noise).weak_nodes.empty());
  CHECK(outliers_of(noise).weak_links.empty());
}

TEST_CASE("links: the rule needs both the robust deviations and the share") {
  const query::OutlierRule rule;
  // A tight group: 15% below is many robust deviations, but not 20%.
  CHECK_FALSE(query::is_outlier(85, {100, 100, 101, 99, 100}, rule));
  CHECK(query::is_outlier(75, {100, 100, 101, 99, 100}, rule));
  // A spread group: 30% below is more than 20% but within 3 robust deviations.
  CHECK_FALSE(query::is_outlier(70, {100, 60, 140, 80, 120}, rule));
  // Latency: higher is worse.
  query::OutlierRule latency;
  latency.higher_is_better = false;
  CHECK(query::is_outlier(30, {10, 10, 11, 9, 10}, latency));
  CHECK_FALSE(query::is_outlier(5, {10, 10, 11, 9, 10}, latency));
  CHECK(query::robust_sigma({1, 1, 1}) == 0);
  CHECK(query::median_of({3, 1, 2, 4}) == doctest::Approx(2.5));
}

TEST_CASE("links: each heatmap's cells are a data block of their own, drawn from its index") {
  report::Figure figure;
  figure.name = "links-4";
  for (double scale : {1.0, 10.0}) {
    report::Panel panel;
    report::Heatmap heatmap;
    heatmap.rows = heatmap.columns = {"a", "b"};
    heatmap.values = {{NAN, 1 * scale}, {2 * scale, NAN}};
    panel.heatmap = heatmap;
    figure.panels.push_back(panel);
  }
  CHECK(figure.has_data());
  // gnuplot separates data blocks (index) by two blank lines.
  CHECK(report::gnuplot_data(figure) == "1 0 1\n0 1 2\n\n\n1 0 10\n0 1 20\n");
  const auto script = report::gnuplot_script(figure, "d.dat", "f.svg");
  CHECK(script.find("'d.dat' index 0 using 1:2:(0.5):(0.5):3 with boxxyerror") !=
        std::string::npos);
  CHECK(script.find("'d.dat' index 1 using 1:2:(0.5):(0.5):3 with boxxyerror") !=
        std::string::npos);
  CHECK(script.find("set ytics ('a' 0, 'b' 1)") != std::string::npos);
}
