#pragma once
// The orchestrator's typed errors. Each becomes a one-line message and an exit code in main,
// once; messages are stable so tests can assert them word for word.
#include <stdexcept>
#include <string>
#include <utility>

namespace pbench {

/// An error main ends pbench with, exit status `Status` (each status one type, so that the
/// types below are distinct and a catch names the one it means).
template <int Status>
class ExitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input from the user (arguments, files, names): exit code 2.
using UsageError = ExitError<2>;
/// A problem with the store (not a pbench database, wrong schema version, SQL failure): exit 3.
using StoreError = ExitError<3>;
/// A result document that does not meet the contract: exit 4.
using ValidationError = ExitError<4>;
/// A scheduler or process problem (command missing, submission refused): exit 5.
using SchedulerError = ExitError<5>;
/// A program pbench needs for this command is not installed (gnuplot for `pbench report`): exit 6.
/// The message names the package that provides it.
using MissingProgramError = ExitError<6>;

/// A store whose file SQLite finds damaged (PRAGMA quick_check or integrity_check, or "database
/// disk image is malformed" from a statement): exit 7. The message names the store and how to
/// recover (store/Integrity.hpp).
class StoreDamagedError : public StoreError {
 public:
  StoreDamagedError(const std::string& message, std::string sqlite_said)
      : StoreError(message), sqlite_said_(std::move(sqlite_said)) {}
  /// What SQLite said, without the path and the way to recover.
  const std::string& sqlite_said() const { return sqlite_said_; }

 private:
  std::string sqlite_said_;
};

/// The scheduler could not be reached (its controller down or restarting): worth asking again
/// later, within the sweep driver's outage budget.
class SchedulerUnavailable : public SchedulerError {
 public:
  using SchedulerError::SchedulerError;
};

}  // namespace pbench
