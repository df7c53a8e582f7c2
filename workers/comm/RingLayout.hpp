#pragma once
// How the six ring patterns of b_eff split the processes into rings (METHODS.md section 1,
// "Patterns", the rule of the original ring_numbers program).
#include <string>
#include <vector>

namespace pbench::comm {

inline constexpr int kRingPatterns = 6;

struct RingLayout {
  int nominal = 0;              ///< the nominal ring size s, already capped at the process count
  std::vector<int> ring_sizes;  ///< sizes of the rings in rank order; ranks are consecutive

  /// The original's label: "<rings>*<first ring size>", then "&+1" or "&-1" when the rings
  /// after the first group are one larger or smaller ("3*2&+1", "1*33", "50*2").
  std::string label() const;

  /// Splits `size` processes into rings of nominal size `nominal` (capped at size):
  /// nr = max(1, min(floor(size/s + 0.4), floor(size/2))), low = floor(size/nr), hc = size -
  /// low*nr rings of size low+1 and nr - hc rings of size low; the hc larger rings come first
  /// when low is odd and hc > 0, otherwise the smaller ones do.
  static RingLayout split(int size, int nominal);

  /// The layouts of the six ring patterns, nominal sizes 2, 4, 8, max(16, size/4),
  /// max(32, size/2) and size. One exception to split(): the paper (seed 000, section 4) says of
  /// the second pattern "if the number of processes is less or equal 7 then all processes form
  /// one ring", and METHODS.md's test vector for 7 processes agrees, while the formula alone
  /// would split 7 processes into rings of 4 and 3. So the second pattern is one ring for
  /// size <= 7; the formula gives one ring for every other size <= 7 anyway.
  static std::vector<RingLayout> b_eff_rings(int size);
};

}  // namespace pbench::comm
