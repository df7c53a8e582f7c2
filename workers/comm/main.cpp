// pbench-comm: the effective bandwidth benchmark b_eff.
#include "comm/CommWorker.hpp"

int main(int argc, char** argv) {
  return pbench::worker::run_worker(pbench::comm::comm_worker_spec(), argc, argv);
}
