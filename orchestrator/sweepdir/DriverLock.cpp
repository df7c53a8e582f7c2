#include "sweepdir/DriverLock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace pbench::run {

DriverLock::DriverLock(const std::string& sweep_dir) {
  std::filesystem::create_directories(sweep_dir);
  const std::string path = sweep_dir + "/driver.lock";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    // Not "another process drives it": nobody can, here. Said at once instead of waiting for a
    // driver that does not exist.
    const int error = errno;
    throw std::runtime_error("cannot open the driver lock '" + path + "': " +
                             std::strerror(error) +
                             " (the sweep's runs directory must be writable by whoever drives "
                             "it: its jobs write their outputs there)");
  }
  // flock: the kernel drops the lock when its holder exits, however it ends, so a lock is never
  // left behind by a driver that is gone.
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK) return;  // held by a live process
    throw std::runtime_error("cannot lock '" + path + "': " + std::strerror(error));
  }
  fd_ = fd;
}

DriverLock::~DriverLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace pbench::run
