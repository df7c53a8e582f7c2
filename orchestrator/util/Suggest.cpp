#include "util/Suggest.hpp"

#include <algorithm>

namespace pbench {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment: Levenshtein plus the swap of two neighbours ("lgop" -> "logp").
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::optional<std::string> closest_name(const std::string& word,
                                        const std::vector<std::string>& names) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& name : names) {
    if (name == word) return name;
    const std::size_t d = edit_distance(word, name);
    const std::size_t allowed = std::max<std::size_t>(1, std::max(word.size(), name.size()) / 3);
    if (d <= allowed && (!best || d < best_distance)) {
      best = name;
      best_distance = d;
    }
  }
  if (best) return best;
  // A shortened name ("--part" for "--partitions") when only one name starts with it.
  std::optional<std::string> prefixed;
  for (const auto& name : names) {
    if (word.size() >= 2 && name.rfind(word, 0) == 0) {
      if (prefixed) return std::nullopt;
      prefixed = name;
    }
  }
  return prefixed;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& names) {
  const auto name = closest_name(word, names);
  return name ? " (did you mean '" + *name + "'?)" : "";
}

}  // namespace pbench
