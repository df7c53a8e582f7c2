#pragma once
#include <string>

namespace pbench::run {

/// An exclusive lock (flock) on a sweep's driver.lock: at most one process drives a sweep.
class DriverLock {
 public:
  /// Tries to take the lock in `sweep_dir`; owns_lock() tells whether it did (false: a live
  /// process holds it). Throws std::runtime_error with the path and the system's reason when
  /// the lock file cannot be made or locked at all (a read-only runs directory).
  explicit DriverLock(const std::string& sweep_dir);
  ~DriverLock();
  DriverLock(const DriverLock&) = delete;
  DriverLock& operator=(const DriverLock&) = delete;
  bool owns_lock() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace pbench::run
