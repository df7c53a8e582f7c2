#pragma once
// The message sizes of a bcast run as one option value: "8,256,65536,1048576" (bytes,
// comma-separated). Parsing never fails inside CLI11: a malformed list is kept with its error,
// so the worker can name the exact problem ("element 2 is empty") instead of a generic
// conversion failure, and exit as for any other usage error.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pbench::bcast {

class SizeList {
 public:
  SizeList() = default;
  /// A list of the given sizes [B].
  SizeList(std::initializer_list<std::int64_t> sizes) : sizes_(sizes) {}

  /// Parses "8,256,65536": each element a decimal integer of bytes, spaces around it ignored.
  static SizeList parse(const std::string& text);

  /// The sizes in the order given (empty when the text was malformed).
  const std::vector<std::int64_t>& sizes() const { return sizes_; }
  /// What is wrong with the text as given, or nothing when it parsed.
  const std::optional<std::string>& error() const { return error_; }
  /// The list as written back: "8,256,65536".
  std::string text() const;

 private:
  std::vector<std::int64_t> sizes_;
  std::optional<std::string> error_;
};

/// Reads the whole remaining stream as a size list (for CLI11); never sets failbit.
std::istream& operator>>(std::istream& in, SizeList& list);
/// Writes the list as "8,256,65536" (for --help defaults).
std::ostream& operator<<(std::ostream& out, const SizeList& list);
/// The parameter echo: an array of integers [B].
void to_json(nlohmann::json& j, const SizeList& list);

}  // namespace pbench::bcast
