#include "plan/ScriptTimeLimit.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "schedulers/BatchSupport.hpp"
#include "util/Error.hpp"

namespace pbench::run {
namespace fs = std::filesystem;

namespace {

constexpr const char* kLimitVariable = "pbench_time_limit_s=";
constexpr const char* kSlurmDirective = "#SBATCH --time=";
constexpr const char* kPbsDirective = "#PBS -l walltime=";

bool starts_with(const std::string& line, const char* prefix) {
  return line.rfind(prefix, 0) == 0;
}

}  // namespace

std::optional<int> script_time_limit(const std::string& script_path) {
  std::ifstream in(script_path);
  std::optional<int> directive;  // a user's template may have the directive alone
  for (std::string line; std::getline(in, line);) {
    if (starts_with(line, kSlurmDirective) || starts_with(line, kPbsDirective)) {
      int h = 0, m = 0, s = 0;
      if (std::sscanf(line.c_str() + line.find('=') + 1, "%d:%d:%d", &h, &m, &s) == 3) {
        directive = h * 3600 + m * 60 + s;
      }
    }
    if (!starts_with(line, kLimitVariable)) continue;
    try {
      const int seconds = std::stoi(line.substr(std::string(kLimitVariable).size()));
      if (seconds > 0) return seconds;
    } catch (const std::exception&) {
    }
    return std::nullopt;
  }
  if (directive && *directive > 0) return directive;
  return std::nullopt;
}

void set_script_time_limit(const std::string& script_path, int seconds) {
  std::ifstream in(script_path);
  if (!in) throw UsageError("cannot read job script '" + script_path + "'");
  std::ostringstream out;
  for (std::string line; std::getline(in, line);) {
    if (starts_with(line, kLimitVariable)) {
      line = kLimitVariable + std::to_string(seconds);
    } else if (starts_with(line, kSlurmDirective)) {
      line = kSlurmDirective + schedulers::format_hms(seconds);
    } else if (starts_with(line, kPbsDirective)) {
      line = kPbsDirective + schedulers::format_hms(seconds);
    }
    out << line << "\n";
  }
  in.close();
  const std::string temporary = script_path + ".tmp";
  {
    std::ofstream file(temporary, std::ios::trunc);
    file << out.str();
    if (!file) throw UsageError("cannot write job script '" + script_path + "'");
  }
  const auto permissions = fs::status(script_path).permissions();
  fs::rename(temporary, script_path);
  fs::permissions(script_path, permissions);
}

}  // namespace pbench::run
