#include "io/IoBuffer.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace pbench::io {

void IoBuffer::Free::operator()(void* p) const {
  std::free(p);
}

IoBuffer::IoBuffer(std::size_t size, std::size_t page_offset, std::byte fill)
    : size_(size), page_offset_(page_offset) {
  if (page_offset >= kBufferPage) {
    throw std::invalid_argument("buffer offset " + std::to_string(page_offset) +
                                " is not within a page (0 to " + std::to_string(kBufferPage - 1) +
                                " bytes)");
  }
  // A page-aligned block one page longer than needed (aligned_alloc wants a multiple of the
  // alignment), and the buffer `page_offset` bytes into it.
  const std::size_t bytes = (size + page_offset + kBufferPage) / kBufferPage * kBufferPage;
  void* block = std::aligned_alloc(kBufferPage, bytes);
  if (block == nullptr) throw std::bad_alloc();
  block_.reset(static_cast<std::byte*>(block));
  data_ = block_.get() + page_offset;
  std::memset(data_, std::to_integer<int>(fill), size);
}

}  // namespace pbench::io
