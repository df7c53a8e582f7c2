#include "io/IoBuffer.hpp"

#include <sys/mman.h>

#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace pbench::io {

void IoBuffer::Mapping::operator()(std::byte* p) const {
  if (p != nullptr) ::munmap(p, bytes);
}

IoBuffer::IoBuffer(std::size_t size, std::size_t page_offset, std::byte fill)
    : size_(size), page_offset_(page_offset) {
  if (page_offset >= kBufferPage) {
    throw std::invalid_argument("buffer offset " + std::to_string(page_offset) +
                                " is not within a page (0 to " + std::to_string(kBufferPage - 1) +
                                " bytes)");
  }
  // A mapping of its own, as glibc gives rev 2.1's malloc(M_PART): page-aligned, and outside
  // the heap, so the heap (where MPI-IO allocates its own buffers) is laid out as without it.
  // (At least one page, also for size 0.)
  const std::size_t bytes = (size + page_offset + kBufferPage) / kBufferPage * kBufferPage;
  void* block = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED) throw std::bad_alloc();
  block_ = std::unique_ptr<std::byte, Mapping>(static_cast<std::byte*>(block), Mapping{bytes});
  data_ = block_.get() + page_offset;
  std::memset(data_, std::to_integer<int>(fill), size);
}

}  // namespace pbench::io
