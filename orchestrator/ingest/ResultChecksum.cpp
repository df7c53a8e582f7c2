#include "ingest/ResultChecksum.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "util/Sha256.hpp"

namespace pbench::ingest {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kHexDigits = 64;
/// How much of a hash a message shows.
constexpr std::size_t kShownDigits = 12;

}  // namespace

std::string ResultChecksum::path_for(const std::string& result_path) {
  return (fs::path(result_path).parent_path() / kFileName).string();
}

std::optional<std::string> ResultChecksum::recorded(const std::string& result_path) {
  std::ifstream in(path_for(result_path));
  std::string hex;
  if (!(in >> hex) || hex.size() != kHexDigits ||
      !std::all_of(hex.begin(), hex.end(), [](char c) { return std::isxdigit(c) != 0; })) {
    return std::nullopt;
  }
  std::transform(hex.begin(), hex.end(), hex.begin(),
                 [](char c) { return static_cast<char>(std::tolower(c)); });
  return hex;
}

bool ResultChecksum::record(const std::string& result_path, const std::string& bytes) {
  if (recorded(result_path)) return true;
  const std::string path = path_for(result_path);
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << sha256_hex(bytes) << "  " << fs::path(result_path).filename().string() << "\n";
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(temporary, ec);
      return false;
    }
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (!ec) return true;
  fs::remove(temporary, ec);
  return false;
}

std::string ResultChecksum::edited(const std::string& result_path, const std::string& bytes) {
  const auto want = recorded(result_path);
  if (!want) return "";
  const std::string actual = sha256_hex(bytes);
  if (actual == *want) return "";
  return "edited after collect: its SHA-256 is " + actual.substr(0, kShownDigits) + "..., " +
         kFileName + " recorded " + want->substr(0, kShownDigits) + "... when it was collected";
}

}  // namespace pbench::ingest
