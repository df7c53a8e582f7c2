#pragma once
#include <functional>
#include <string>
#include <vector>

namespace pbench::sweep {

/// Calls each(item, where) on the comma-separated items of `text` in order, `where` being
/// "OPTION: 'TEXT'" for the caller's messages; throws UsageError naming `option` for an empty
/// list (with `example`, what a list looks like) and for an empty item (with its position).
void for_each_list_item(const std::string& text, const std::string& option,
                        const std::string& example,
                        const std::function<void(const std::string&, const std::string&)>& each);

/// Parses "8,32,128" into positive integers; throws UsageError naming `option` and the
/// offending item for an empty item, a non-number, zero, a negative or an overflowing value.
std::vector<int> parse_positive_list(const std::string& text, const std::string& option);
/// Joins integers with commas: {1, 8} -> "1,8".
std::string join_list(const std::vector<int>& values);

}  // namespace pbench::sweep
