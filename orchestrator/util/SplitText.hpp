#pragma once
// Text cut at a separator: the comma lists, lines and name parts the orchestrator reads.
#include <string_view>
#include <vector>

namespace pbench {

/// The items of `text` between `separator`s, empty ones kept ("a,,b": "a", "", "b"; "a,":
/// "a", ""; "": one empty item), as views into `text`.
inline std::vector<std::string_view> split_text(std::string_view text, char separator) {
  std::vector<std::string_view> items;
  std::size_t start = 0;
  for (;;) {
    const auto end = text.find(separator, start);
    items.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return items;
    start = end + 1;
  }
}

}  // namespace pbench
