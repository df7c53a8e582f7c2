#include "common/TextFormat.hpp"

#include <cstdio>

namespace pbench::worker {

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value);
  return text;
}

std::string pad_left(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string pad_right(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string microseconds(double seconds) {
  return fixed(seconds * 1e6, 3) + " us";
}

std::string percent(double fraction) {
  return fixed(fraction * 100, 1) + "%";
}

}  // namespace pbench::worker
