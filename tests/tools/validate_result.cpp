// pbench-validate-result [--semantics] FILE...: validates result documents with the C++
// validator (the embedded result schema, checked by valijson; with --semantics also ResultRules)
// and prints, for each file, "VALID <file>" or "INVALID <file>" followed by one "  <problem>" line
// per problem. Exits 0 when every file is valid, 1 when one is not, 2 on a usage error.
// The schema drift test (tests/integration/schema/cross_check.py) compares it with jsonschema.
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "ingest/JsonSchema.hpp"
#include "ingest/ResultRules.hpp"

namespace {

/// The problems of one file: unreadable, not JSON, or what the validators report.
std::vector<std::string> problems_of(const std::string& path, bool semantics) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {"cannot read " + path};
  std::ostringstream text;
  text << in.rdbuf();
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    return {std::string("not JSON: ") + e.what()};
  }
  std::vector<std::string> problems = pbench::ingest::result_schema().problems(doc);
  if (semantics) {
    for (auto& p : pbench::ingest::ResultRules::problems(doc)) problems.push_back(std::move(p));
  }
  return problems;
}

}  // namespace

int main(int argc, char** argv) {
  bool semantics = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--semantics") {
      semantics = true;
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    std::cerr << "usage: pbench-validate-result [--semantics] FILE...\n";
    return 2;
  }
  bool all_valid = true;
  for (const auto& file : files) {
    const std::vector<std::string> problems = problems_of(file, semantics);
    all_valid = all_valid && problems.empty();
    std::cout << (problems.empty() ? "VALID " : "INVALID ") << file << '\n';
    for (const auto& p : problems) std::cout << "  " << p << '\n';
  }
  return all_valid ? 0 : 1;
}
