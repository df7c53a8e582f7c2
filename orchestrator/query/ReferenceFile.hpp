#pragma once
// A reference as a TOML file (pbench reference -o FILE; pbench check --reference FILE).
#include <string>

#include "query/Reference.hpp"

namespace pbench::query {

/// The reference as a TOML document.
std::string to_toml(const Reference& reference);
/// Parses a reference file's text; throws UsageError naming `origin` and the problem (not TOML,
/// an unknown key, worker or metric, a value or tolerance that is not a number).
Reference parse_reference(const std::string& text, const std::string& origin);

}  // namespace pbench::query
