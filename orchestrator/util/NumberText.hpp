#pragma once
// Numbers as people read them in tables, notes and messages.
#include <string>

namespace pbench {

/// `value` with `significant` digits and never in e-notation ("2979.27", "0.100502").
std::string plain_significant(double value, int significant);

}  // namespace pbench
