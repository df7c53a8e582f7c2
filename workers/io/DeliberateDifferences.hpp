#pragma once
// What a b_eff_io result says it is, and where pbench-io deliberately differs from the reference
// code b_eff_io rev 2.1 (the result's tables run and differences_from_rev_2_1).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/IoBuffer.hpp"
#include "io/PatternTable.hpp"

namespace pbench::io {

/// What the result's b_eff_io is (the run table's b_eff_io_definition).
extern const char* const kDefinition;
/// Where pbench-io deliberately differs from b_eff_io rev 2.1: aspect, pbench, rev 2.1; with the
/// time guard's row when it is on (`guard_factor`), the test delay's when one was used, and the
/// I/O buffer's when it does not start where rev 2.1's malloc puts its buffers, and the
/// elementary type's when M_PART (`m_part`, bytes) is not whole doubles, so the run counts bytes.
std::vector<std::array<std::string, 3>> deliberate_differences(
    const std::optional<double>& guard_factor, double collective_write_delay,
    std::int64_t buffer_offset = kRev21BufferOffset, std::int64_t m_part = kMinPartChunk);

}  // namespace pbench::io
