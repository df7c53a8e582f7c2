#pragma once
// Free text (sweep names, hints, notes, gnuplot's messages) made safe to place in a one-line
// context: valid UTF-8 on one line.
#include <string>
#include <string_view>

namespace pbench {

/// `text` with every control character (line breaks, tabs, DEL) as a space and every byte
/// that is not part of a valid UTF-8 sequence as '?'.
std::string printable_utf8(std::string_view text);

}  // namespace pbench
