#include "plan/WorkerAnswers.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace pbench::run {
namespace fs = std::filesystem;

namespace {

/// Where `program` runs from: itself when it has a '/', else the first executable of that name
/// on PATH; empty when there is none.
std::string resolved(const std::string& program) {
  std::error_code ec;
  if (program.find('/') != std::string::npos) {
    const auto path = fs::canonical(program, ec);
    return ec ? "" : path.string();
  }
  const char* path_env = std::getenv("PATH");
  std::istringstream dirs(path_env ? path_env : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / program;
    if (fs::is_regular_file(candidate, ec)) {
      const auto path = fs::canonical(candidate, ec);
      if (!ec) return path.string();
    }
  }
  return "";
}

}  // namespace

WorkerAnswers& WorkerAnswers::shared() {
  static WorkerAnswers answers;
  return answers;
}

std::optional<WorkerAnswers::Key> WorkerAnswers::key_of(const std::vector<std::string>& argv) {
  if (argv.empty()) return std::nullopt;
  const std::string path = resolved(argv[0]);
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return std::nullopt;
  const long long mtime_ns =
      static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  return Key{path,
             static_cast<unsigned long long>(st.st_dev),
             static_cast<unsigned long long>(st.st_ino),
             static_cast<long long>(st.st_size),
             mtime_ns,
             std::vector<std::string>(argv.begin() + 1, argv.end())};
}

process::ProcessResult WorkerAnswers::ask(process::ProcessRunner& runner,
                                          const std::vector<std::string>& argv,
                                          std::chrono::milliseconds timeout) {
  const auto key = key_of(argv);
  if (key) {
    std::lock_guard lock(mutex_);
    if (const auto it = answers_.find(*key); it != answers_.end()) return it->second;
  }
  auto result = runner.run(argv, timeout);
  if (key && result.exit_code == 0) {
    std::lock_guard lock(mutex_);
    answers_.emplace(*key, result);
  }
  return result;
}

}  // namespace pbench::run
