#include "run/DriverLock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>

namespace pbench::run {

DriverLock::DriverLock(const std::string& sweep_dir) {
  std::filesystem::create_directories(sweep_dir);
  const std::string path = sweep_dir + "/driver.lock";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return;
  }
  fd_ = fd;
}

DriverLock::~DriverLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace pbench::run
