#include "util/NumberText.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pbench {

std::string plain_significant(double v, int significant) {
  char buffer[400];
  if (v == 0 || !std::isfinite(v)) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", significant, v);
    return buffer;
  }
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  const int decimals = std::max(0, std::max(significant, 1) - 1 - exponent);
  std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, v);
  std::string out = buffer;
  if (out.find('.') != std::string::npos) {  // as %g: no trailing zeros
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
  }
  return out == "-0" ? "0" : out;
}

}  // namespace pbench
