#pragma once
// A fresh directory for a test's files: <temp>/<name>-<pid> (two test processes never share
// one), emptied when made and removed with the object.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace pbench::testing {

struct ScratchDir {
  std::filesystem::path path;

  explicit ScratchDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

}  // namespace pbench::testing
