#include "comm/RingLayout.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pbench::comm {

std::string RingLayout::label() const {
  if (ring_sizes.empty()) return "";
  const int first = ring_sizes.front();
  std::string text = std::to_string(ring_sizes.size()) + "*" + std::to_string(first);
  const auto other =
      std::find_if(ring_sizes.begin(), ring_sizes.end(), [&](int s) { return s != first; });
  if (other != ring_sizes.end()) text += *other > first ? "&+1" : "&-1";
  return text;
}

RingLayout RingLayout::split(int size, int nominal) {
  if (size < 2 || nominal < 1) throw std::invalid_argument("ring layout needs size >= 2");
  RingLayout layout;
  layout.nominal = std::min(nominal, size);
  const int by_nominal =
      static_cast<int>(std::floor(static_cast<double>(size) / layout.nominal + 0.4));
  const int rings = std::max(1, std::min(by_nominal, size / 2));
  const int low = size / rings;
  const int high_count = size - low * rings;
  const int low_count = rings - high_count;
  const bool high_first = (low % 2 == 1) && high_count > 0;
  const auto add = [&](int count, int ring_size) {
    layout.ring_sizes.insert(layout.ring_sizes.end(), static_cast<std::size_t>(count), ring_size);
  };
  if (high_first) {
    add(high_count, low + 1);
    add(low_count, low);
  } else {
    add(low_count, low);
    add(high_count, low + 1);
  }
  return layout;
}

std::vector<RingLayout> RingLayout::b_eff_rings(int size) {
  const int nominal[kRingPatterns] = {2, 4, 8, std::max(16, size / 4), std::max(32, size / 2),
                                      size};
  std::vector<RingLayout> layouts;
  for (int i = 0; i < kRingPatterns; ++i) {
    if (i == 1 && size <= 7) {
      layouts.push_back({std::min(nominal[i], size), {size}});
    } else {
      layouts.push_back(split(size, nominal[i]));
    }
  }
  return layouts;
}

}  // namespace pbench::comm
