#pragma once
#include <string>
#include <vector>

namespace pbench::sweep {

/// Parses "8,32,128" into positive integers; throws UsageError naming `option` and the
/// offending item for an empty item, a non-number, zero, a negative or an overflowing value.
std::vector<int> parse_positive_list(const std::string& text, const std::string& option);
/// Joins integers with commas: {1, 8} -> "1,8".
std::string join_list(const std::vector<int>& values);

}  // namespace pbench::sweep
