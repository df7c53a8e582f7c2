// pbench-io: the effective I/O bandwidth benchmark b_eff_io.
#include "io/IoWorker.hpp"

int main(int argc, char** argv) {
  return pbench::worker::run_worker(pbench::io::io_worker_spec(), argc, argv);
}
