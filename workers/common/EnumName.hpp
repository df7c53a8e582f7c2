#pragma once
// The names of an enumeration's values as one table, read both ways: name_of gives a value's
// name (for a document, a protocol or the store), value_named the value of a name (parsing an
// option or a stored word). One table instead of a switch for the names and a list of every
// value for the parser: a value and its name are written once, side by side.
#include <cstddef>
#include <optional>
#include <string_view>

namespace pbench {

template <class Enum>
struct EnumName {
  Enum value;
  const char* name;
};

/// The name of `value` in `names`; `otherwise` when the table has none for it.
template <class Enum, std::size_t N>
constexpr const char* name_of(const EnumName<Enum> (&names)[N], Enum value,
                              const char* otherwise = "unknown") {
  for (const auto& entry : names) {
    if (entry.value == value) return entry.name;
  }
  return otherwise;
}

/// The value named `name` in `names`; nothing for a name the table does not hold.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const EnumName<Enum> (&names)[N], std::string_view name) {
  for (const auto& entry : names) {
    if (name == entry.name) return entry.value;
  }
  return std::nullopt;
}

}  // namespace pbench
