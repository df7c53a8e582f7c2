#pragma once
// "Did you mean ...?" for a mistyped name: the closest of the known names by edit distance.
#include <optional>
#include <string>
#include <vector>

namespace pbench {

/// Edit distance: insertions, deletions, substitutions and swaps of two neighbours, 1 each.
std::size_t edit_distance(const std::string& a, const std::string& b);

/// The known name closest to `word`, when it is close enough to be a typo of it (at most a
/// third of the longer word's letters differ, at least one allowed) or `word` is a prefix of
/// exactly that name; ties go to the first in `names`. Nothing when no name is close.
std::optional<std::string> closest_name(const std::string& word,
                                        const std::vector<std::string>& names);

/// " (did you mean 'NAME'?)" for the closest name, or "" when there is none.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& names);

}  // namespace pbench
