#pragma once
// The links worker's result: table "links" (one row per ordered pair of endpoints, labelled by
// host), table "nodes" (per node the median of its links, both directions), summary metrics
// link_latency and link_bandwidth labelled {from, to}, node_bandwidth labelled {node}, and the
// medians, minimum and maximum over links; plus the readable protocol (the bandwidth matrix).
#include <ostream>

#include "common/PhysicalLimits.hpp"
#include "common/ResultDocument.hpp"
#include "links/LinkMeasurement.hpp"
#include "links/LinksParameters.hpp"

namespace pbench::links {

/// Per endpoint: the median latency and bandwidth of its links (to and from it).
struct NodeFigures {
  std::string label;
  double latency = 0;
  double bandwidth = 0;
  int links = 0;
};
std::vector<NodeFigures> node_figures(const LinkMatrix& matrix);

/// The quantities that cannot be (a latency or bandwidth of zero or less).
worker::PhysicalLimits physical_limits(const LinkMatrix& matrix);

class LinksReport {
 public:
  LinksReport(LinkMatrix matrix, LinksParameters parameters);
  void write(worker::ResultDocument& result) const;
  void print(std::ostream& out) const;

 private:
  LinkMatrix matrix_;
  LinksParameters parameters_;
  std::vector<NodeFigures> nodes_;
};

}  // namespace pbench::links
