#include "run/ScriptTimeLimit.hpp"

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
  for (std::string line; std::getline(in, line);) {
    if (!starts_with(line, kLimitVariable)) continue;
    try {
      const int seconds = std::stoi(line.substr(std::string(kLimitVariable).size()));
      if (seconds > 0) return seconds;
    } catch (const std::exception&) {
    }
    return std::nullopt;
  }
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
