#pragma once
// The sample result documents under tests/data/results/ (good, bad, bad-semantics), and a list
// of problems that doctest prints one per line, for the schema and rules tests.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace pbench::testing {

/// A list of problems that doctest prints when a check fails.
struct Problems : std::vector<std::string> {
  using std::vector<std::string>::vector;
  Problems(std::vector<std::string> v) : std::vector<std::string>(std::move(v)) {}
};

inline std::ostream& operator<<(std::ostream& out, const Problems& problems) {
  out << "{";
  for (const auto& p : problems) out << "\n  " << p;
  return out << (problems.empty() ? "}" : "\n}");
}

/// The whole file; the test fails if it cannot be read.
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The sample documents of one folder of tests/data/results/, by file name.
inline std::map<std::string, nlohmann::json> result_samples(const std::string& folder) {
  const auto dir = std::filesystem::path(PBENCH_SOURCE_DIR) / "tests" / "data" / "results" / folder;
  std::map<std::string, nlohmann::json> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".json") {
      out.emplace(entry.path().filename().string(), nlohmann::json::parse(read_text(entry.path())));
    }
  }
  return out;
}

}  // namespace pbench::testing
