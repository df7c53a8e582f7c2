#pragma once
// How the validators word a problem: "at <JSON pointer>: <message>", the pointer naming the
// offending value in the document ("(root)" for the document itself), e.g.
//   at /summary/0/unit: expected string, got number
//   at /validity/valid: missing required property
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace pbench::ingest {

inline std::string problem(const nlohmann::json::json_pointer& at, const std::string& message) {
  const std::string pointer = at.to_string();
  return "at " + (pointer.empty() ? std::string("(root)") : pointer) + ": " + message;
}

/// The value as compact JSON, cut (at a character boundary) to a readable length.
inline std::string preview(const nlohmann::json& value) {
  constexpr std::size_t kPreviewChars = 60;
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() <= kPreviewChars) return text;
  std::size_t cut = kPreviewChars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

}  // namespace pbench::ingest
