#include "jobs/ShellQuote.hpp"

#include "util/Error.hpp"

namespace pbench::jobs {

std::string shell_quote(std::string_view word) {
  if (word.find('\0') != std::string_view::npos) {
    throw UsageError("a value for a job script contains a NUL byte");
  }
  bool plain = !word.empty();
  for (char c : word) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-' || c == '.' || c == '/' || c == ',' || c == ':' ||
                      c == '=' || c == '+' || c == '@';
    if (!safe) plain = false;
  }
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += "'";
  return out;
}

std::string shell_join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += ' ';
    out += shell_quote(w);
  }
  return out;
}

}  // namespace pbench::jobs
