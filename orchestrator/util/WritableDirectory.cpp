#include "util/WritableDirectory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace pbench {
namespace {

/// What a job script writes first (its pid, a few bytes of logs) fits in one page: a file
/// system without room for one page has no room for the job.
constexpr std::size_t kProbeBytes = 4096;

[[noreturn]] void cannot_write(const std::filesystem::path& dir, int error) {
  std::string hint;
  if (error == ENOSPC || error == EDQUOT) hint = ": free space there or choose --runs-dir";
  if (error == EROFS || error == EACCES || error == EPERM) hint = ": choose another --runs-dir";
  throw std::runtime_error("cannot write in the runs directory '" + dir.string() +
                           "': " + std::strerror(error) + hint);
}

}  // namespace

void require_writable_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) cannot_write(dir, ec.value());
  const std::string probe = (dir / ".pbench-write-check").string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) cannot_write(dir, errno);
  const std::vector<char> bytes(kProbeBytes, '\n');
  const ssize_t written = ::write(fd, bytes.data(), bytes.size());
  int error = written == static_cast<ssize_t>(bytes.size()) ? 0 : (written < 0 ? errno : ENOSPC);
  if (::close(fd) != 0 && error == 0) error = errno;
  ::unlink(probe.c_str());
  if (error != 0) cannot_write(dir, error);
}

}  // namespace pbench
