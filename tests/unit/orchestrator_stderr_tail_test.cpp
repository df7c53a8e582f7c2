// The line of a failed job's stderr that a missing cell and pbench collect quote.
#include <doctest/doctest.h>

#include "util/StderrTail.hpp"

using pbench::telling_line;
using pbench::worker_error_line;

TEST_CASE("the telling line of a worker's refusal is its error line, not the help hint") {
  CHECK(telling_line("pbench-logp: error: --queue-depths: 0 is not a queue depth\n"
                     "Run with --help for the parameters.\n") ==
        "pbench-logp: error: --queue-depths: 0 is not a queue depth");
}

TEST_CASE("the telling line is the last error line, before MPI's abort banner") {
  const std::string tail =
      "warning: the data set is small\n"
      "pbench-io: error: write at offset 4096 failed: No space left on device\n"
      "application called MPI_Abort(MPI_COMM_WORLD, 1) - process 0\r\n"
      "\n";
  CHECK(telling_line(tail) ==
        "pbench-io: error: write at offset 4096 failed: No space left on device");
}

TEST_CASE("without an error line the telling line is the last non-empty line") {
  CHECK(telling_line("started\nkilled by the scheduler  \n\n") == "killed by the scheduler");
  CHECK(telling_line("one line without newline") == "one line without newline");
  // Nothing to tell: only the help hint, nothing at all, blank lines.
  for (const char* tail : {"Run with --help for the parameters.\n", "", "\n\n  \n"}) {
    CHECK(telling_line(tail) == "");
  }
}

TEST_CASE("a failed point quotes the worker's own error line before the launcher's") {
  // Issue 39: srun's report came last and was all a failed point said.
  const std::string tail =
      "pbench-logp: error: Could not convert: --flood-messages = abc\n"
      "Run with --help for the parameters.\n"
      "srun: error: vm: tasks 0-1: Exited with exit code 2\n";
  CHECK(telling_line(tail) ==
        "pbench-logp: error: Could not convert: --flood-messages = abc; launcher: srun: error: "
        "vm: tasks 0-1: Exited with exit code 2");
  CHECK(worker_error_line(tail) == "pbench-logp: error: Could not convert: --flood-messages = abc");
  // A launcher line before the worker's is not its report of the worker's end.
  CHECK(telling_line("srun: error: earlier trouble\npbench-io: error: cannot open /x\n") ==
        "pbench-io: error: cannot open /x");
  // Of several worker lines, the last; a launcher without an error line adds nothing.
  CHECK(telling_line("pbench-bcast: error: one (rank 1)\npbench-bcast: error: two (rank 0)\n"
                     "Primary job terminated normally, but 1 process returned\n") ==
        "pbench-bcast: error: two (rank 0)");
}

TEST_CASE("a worker's error line is 'pbench-NAME: error: ', nothing else") {
  for (const char* tail :
       {"pbench job: error: cannot write\n", "pbench-: error: x\n",
        "pbench-logp: stopped before the deadline\n", "mpiexec: pbench-logp: error: x\n", ""}) {
    CHECK(worker_error_line(tail) == "");
  }
}
