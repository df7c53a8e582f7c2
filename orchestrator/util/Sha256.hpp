#pragma once
#include <string>
#include <string_view>

namespace pbench {

/// SHA-256 of `data` as 64 lower-case hex digits (FIPS 180-4). Used for point ids and for
/// recognising a result document stored before.
std::string sha256_hex(std::string_view data);

}  // namespace pbench
