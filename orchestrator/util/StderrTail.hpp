#pragma once
#include <string>

namespace pbench {

/// The line of a failed job's stderr tail that says why it failed: the last line that mentions
/// an error (workers print "pbench-X: error: ..."), else the last non-empty line that is not a
/// "Run with --help" hint; "" when there is none. Trailing blanks and carriage returns are cut.
std::string telling_line(const std::string& stderr_tail);

}  // namespace pbench
