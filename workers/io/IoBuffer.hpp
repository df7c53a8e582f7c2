#pragma once
// The memory pbench-io's calls write from and read into, placed at a chosen offset past a page
// boundary. Where the buffer starts matters on some processors: copying page-cache pages to a
// buffer whose address is 8, 16 or 24 bytes past a 64-byte line (with the file offset on a page
// boundary, as most of the patterns' are) ran 5-17 times slower than to an aligned one on the
// AMD EPYC where issue 19 was found, while writes hardly changed. b_eff_io rev 2.1 reads into
// and writes from buffers of its own malloc(M_PART): glibc serves a request that large with its
// own mapping and returns the address 16 bytes past its start, so by default pbench-io places
// its buffer the same way (docs/b_eff_io-original.md, row 27).
#include <cstddef>
#include <cstdint>
#include <memory>

namespace pbench::io {

/// Bytes of a page, the unit the placement is relative to.
inline constexpr std::size_t kBufferPage = 4096;
/// Where b_eff_io rev 2.1's malloc(M_PART) buffers start on glibc: 16 bytes past a page boundary.
inline constexpr std::int64_t kRev21BufferOffset = 16;

class IoBuffer {
 public:
  IoBuffer() = default;
  /// `size` bytes, all `fill`, starting `page_offset` (0 <= page_offset < kBufferPage) bytes past
  /// a page boundary. Throws std::invalid_argument for an offset out of range, std::bad_alloc
  /// when the memory is not there.
  IoBuffer(std::size_t size, std::size_t page_offset, std::byte fill);

  std::byte* data() { return data_; }
  std::size_t size() const { return size_; }
  std::size_t page_offset() const { return page_offset_; }

 private:
  struct Mapping {
    std::size_t bytes;  // of the mapping (value-initialized: 0)
    void operator()(std::byte* p) const;
  };
  std::unique_ptr<std::byte, Mapping> block_;
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t page_offset_ = 0;
};

}  // namespace pbench::io
