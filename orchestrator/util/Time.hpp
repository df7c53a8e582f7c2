#pragma once
#include <string>

namespace pbench {

/// Current UTC time as "YYYY-MM-DDTHH:MM:SS.mmmZ" (the result contract's format).
std::string utc_now();
/// Seconds between two such timestamps (b - a); 0 when either does not parse.
double seconds_between(const std::string& a, const std::string& b);

}  // namespace pbench
