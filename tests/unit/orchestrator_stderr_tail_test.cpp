// The line of a failed job's stderr that a missing cell and pbench collect quote.
#include <doctest/doctest.h>

#include "util/StderrTail.hpp"

using pbench::telling_line;

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
  CHECK(telling_line("Run with --help for the parameters.\n") == "");
  CHECK(telling_line("") == "");
  CHECK(telling_line("\n\n  \n") == "");
  CHECK(telling_line("one line without newline") == "one line without newline");
}
