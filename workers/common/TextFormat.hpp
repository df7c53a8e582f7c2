#pragma once
// Small text helpers the workers' readable protocols share.
#include <cstddef>
#include <string>

namespace pbench::worker {

/// `value` with `decimals` digits after the point ("%.*f").
std::string fixed(double value, int decimals);
/// `text` right-aligned in `width` columns (left as it is when longer).
std::string pad_left(const std::string& text, std::size_t width);
/// `text` left-aligned in `width` columns (left as it is when longer).
std::string pad_right(const std::string& text, std::size_t width);
/// A duration in microseconds with three decimals: "1.234 us".
std::string microseconds(double seconds);
/// A fraction in percent with one decimal: 0.125 -> "12.5%".
std::string percent(double fraction);

}  // namespace pbench::worker
