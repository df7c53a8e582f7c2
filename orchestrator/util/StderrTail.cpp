#include "util/StderrTail.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>
#include <vector>

#include "util/SplitText.hpp"

namespace pbench {
namespace {

std::string trimmed(std::string_view line) {
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) {
    line.remove_suffix(1);
  }
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) {
    line.remove_prefix(1);
  }
  return std::string(line);
}

bool mentions_error(const std::string& line) {
  std::string lower(line);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.find("error") != std::string::npos;
}

bool is_help_hint(const std::string& line) {
  return line.rfind("Run with --help", 0) == 0;
}

/// "pbench-WORKER: error: ...": a worker's name (lower-case letters) and its error.
bool is_worker_error(const std::string& line) {
  constexpr std::string_view prefix = "pbench-";
  if (line.rfind(prefix, 0) != 0) return false;
  std::size_t i = prefix.size();
  while (i < line.size() && line[i] >= 'a' && line[i] <= 'z') ++i;
  return i > prefix.size() && line.compare(i, 9, ": error: ") == 0;
}

/// The non-empty lines of `text`, trimmed.
std::vector<std::string> lines_of(const std::string& stderr_tail) {
  std::vector<std::string> lines;
  for (const auto item : split_text(stderr_tail, '\n')) {
    auto line = trimmed(item);
    if (!line.empty()) lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace

std::string worker_error_line(const std::string& stderr_text) {
  const auto lines = lines_of(stderr_text);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    if (is_worker_error(*it)) return *it;
  }
  return "";
}

std::string telling_line(const std::string& stderr_tail) {
  const auto lines = lines_of(stderr_tail);
  // The worker's own line first: the launcher's report after it only says that a rank failed.
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    if (!is_worker_error(*it)) continue;
    for (auto after = lines.rbegin(); after != it; ++after) {
      if (mentions_error(*after) && !is_worker_error(*after)) return *it + "; launcher: " + *after;
    }
    return *it;
  }
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    if (mentions_error(*it)) return *it;
  }
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    if (!is_help_hint(*it)) return *it;
  }
  return "";
}

}  // namespace pbench
