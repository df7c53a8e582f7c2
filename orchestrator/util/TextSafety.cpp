#include "util/TextSafety.hpp"

namespace pbench {

std::string printable_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      out += (c < 0x20 || c == 0x7f) ? ' ' : static_cast<char>(c);
      ++i;
      continue;
    }
    // The length of the sequence the lead byte announces, and the smallest code point it
    // may encode (overlong forms are invalid).
    std::size_t length = 0;
    unsigned long code = 0, minimum = 0;
    if ((c & 0xe0) == 0xc0) {
      length = 2, code = c & 0x1f, minimum = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
      length = 3, code = c & 0x0f, minimum = 0x800;
    } else if ((c & 0xf8) == 0xf0) {
      length = 4, code = c & 0x07, minimum = 0x10000;
    }
    bool ok = length > 0 && i + length <= text.size();
    for (std::size_t k = 1; ok && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      ok = (next & 0xc0) == 0x80;
      code = (code << 6) | (next & 0x3f);
    }
    ok = ok && code >= minimum && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    if (!ok) {
      out += '?';
      ++i;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

}  // namespace pbench
