#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace pbench::jobs {

/// Quotes one word for a POSIX shell so it is read back literally: 'it'\''s'. Throws
/// UsageError for a NUL byte, which no shell word can carry.
std::string shell_quote(std::string_view word);
/// Quotes each word and joins them with spaces: a command line.
std::string shell_join(const std::vector<std::string>& words);

}  // namespace pbench::jobs
