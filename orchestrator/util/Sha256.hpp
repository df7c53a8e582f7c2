#pragma once
// SHA-256 by OpenSSL's libcrypto (EVP), for point ids and for recognising a result document
// stored before.
#include <openssl/evp.h>

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pbench {

/// SHA-256 of `data` as 64 lower-case hex digits; throws std::runtime_error if libcrypto fails.
inline std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1 ||
      length != 32) {
    throw std::runtime_error("SHA-256: OpenSSL's EVP_Digest failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex(2 * length, '0');
  for (unsigned int i = 0; i < length; ++i) {
    hex[2 * i] = kHex[digest[i] >> 4];
    hex[2 * i + 1] = kHex[digest[i] & 0xF];
  }
  return hex;
}

}  // namespace pbench
