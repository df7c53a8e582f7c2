// pbench-links: the link matrix of an allocation, the latency and bandwidth of every ordered
// pair of nodes measured on mpiGraph's shift schedule (every node busy in every step).
#include "common/NodeLayout.hpp"
#include "common/WorkerMain.hpp"
#include "links/LinkMeasurement.hpp"
#include "links/LinksParameters.hpp"
#include "links/LinksReport.hpp"

int main(int argc, char** argv) {
  using namespace pbench;
  links::LinksParameters parameters;
  const auto measure = [&](worker::WorkerContext& context) {
    if (context.mpi.size() < 2) {
      throw worker::UsageError("a link needs two processes (run one per node on 2 or more nodes)");
    }
    const worker::NodeLayout layout(context.mpi.rank_hosts());
    const auto endpoints = links::endpoints_of(layout);
    worker::write_measured<links::LinksReport>(
        links::measure_links(endpoints, parameters, context.deadline), context, parameters);
  };
  return worker::run_checked_worker(
      "links",
      "pbench-links: latency and bandwidth of every ordered pair of nodes, measured on "
      "mpiGraph's shift schedule (step k: node i sends to node i+k, every node busy)",
      parameters, measure, argc, argv);
}
