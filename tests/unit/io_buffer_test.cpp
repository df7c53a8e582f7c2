// pbench-io's I/O buffer (issue 19): it starts the given number of bytes past a page boundary,
// by default 16 as b_eff_io rev 2.1's malloc(M_PART) buffers do with glibc, holds the fill byte
// throughout, and an offset outside a page is refused, by the buffer and by the parameters.
#include <doctest/doctest.h>

#include <cstdint>
#include <sstream>
#include <stdexcept>

#include "io/IoBuffer.hpp"
#include "io/IoParameters.hpp"
#include "io/IoReport.hpp"

using namespace pbench::io;

TEST_CASE("io buffer: placed the given bytes past a page boundary, filled, any size") {
  CHECK(kRev21BufferOffset == 16);
  CHECK(kBufferPage == 4096);
  for (std::size_t offset :
       {std::size_t{0}, std::size_t{8}, std::size_t{16}, std::size_t{1712}, std::size_t{4095}}) {
    for (std::size_t size :
         {std::size_t{1}, std::size_t{4096}, std::size_t{2} << 20, (std::size_t{2} << 20) + 8}) {
      IoBuffer buffer(size, offset, std::byte{0x5b});
      CAPTURE(offset);
      CAPTURE(size);
      CHECK(reinterpret_cast<std::uintptr_t>(buffer.data()) % kBufferPage == offset);
      CHECK(buffer.size() == size);
      CHECK(buffer.page_offset() == offset);
      CHECK(buffer.data()[0] == std::byte{0x5b});
      CHECK(buffer.data()[size - 1] == std::byte{0x5b});
      buffer.data()[size - 1] = std::byte{1};  // the whole size is writable (ASan would say)
    }
  }
  CHECK_THROWS_AS(IoBuffer(64, 4096, std::byte{0}), std::invalid_argument);
  CHECK_THROWS_WITH(IoBuffer(64, 5000, std::byte{0}),
                    "buffer offset 5000 is not within a page (0 to 4095 bytes)");
  IoBuffer moved(100, 16, std::byte{7});
  std::byte* data = moved.data();
  IoBuffer other;
  other = std::move(moved);
  CHECK(other.data() == data);
  CHECK(other.size() == 100);
}

TEST_CASE("io buffer parameters: default 16 as rev 2.1, 0 to 4095 accepted, else refused") {
  char* env[] = {nullptr};
  IoOptions o;
  CHECK(IoConfig::check(o, env).buffer_offset == 16);
  o.buffer_offset = 0;
  CHECK(IoConfig::check(o, env).buffer_offset == 0);
  o.buffer_offset = 4095;
  CHECK(IoConfig::check(o, env).buffer_offset == 4095);
  o.buffer_offset = 4096;
  CHECK_THROWS_WITH(IoConfig::check(o, env),
                    "--buffer-offset: 4096 is not within a page (0 to 4095 bytes)");
  o.buffer_offset = -1;
  CHECK_THROWS_WITH(IoConfig::check(o, env),
                    "--buffer-offset: -1 is not within a page (0 to 4095 bytes)");
}

TEST_CASE("io buffer in the report: a difference from rev 2.1 only away from 16, in the heading") {
  const auto rows = deliberate_differences(kDefaultGuardFactor, 0);
  CHECK(deliberate_differences(kDefaultGuardFactor, 0, 16).size() == rows.size());
  const auto moved = deliberate_differences(kDefaultGuardFactor, 0, 0);
  REQUIRE(moved.size() == rows.size() + 1);
  CHECK(moved.back()[0] == "I/O buffer");
  CHECK(moved.back()[1] == "starts 0 bytes past a page boundary (--buffer-offset)");
  CHECK(moved.back()[2] == "malloc(M_PART): 16 bytes past a page boundary with glibc");
  // The elementary type: doubles as rev 2.1 unless M_PART is not whole doubles.
  CHECK(deliberate_differences(kDefaultGuardFactor, 0, 16, 4194304).size() == rows.size());
  const auto bytes = deliberate_differences(kDefaultGuardFactor, 0, 16, 2097153);
  REQUIRE(bytes.size() == rows.size() + 1);
  CHECK(bytes.back()[0] == "elementary type");
  CHECK(bytes.back()[1] ==
        "bytes (MPI_BYTE) for views, counts and the shared file pointer: "
        "M_PART = 2097153 B is not a multiple of 8");
  const Schedule schedule{30, 2, false};
  std::ostringstream rev21;
  IoReport::print_header(rev21, 2, {1, 2}, schedule, "reference", 3.0, 16);
  CHECK(
      rev21.str().find("; I/O buffer 16 B past a page boundary (as b_eff_io rev 2.1's malloc)\n") !=
      std::string::npos);
  std::ostringstream aligned;
  IoReport::print_header(aligned, 2, {1, 2}, schedule, "reference", 3.0, 0);
  CHECK(aligned.str().find("; I/O buffer 0 B past a page boundary\n") != std::string::npos);
}
