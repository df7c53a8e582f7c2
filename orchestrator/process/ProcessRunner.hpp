#pragma once
// Every process pbench starts (mpiexec through job scripts, setsid, later sbatch, squeue, qsub)
// goes through a ProcessRunner. The real one is the only user of Boost.Process; tests use a
// recording fake.
#include <chrono>
#include <string>
#include <vector>

namespace pbench::process {

struct ProcessResult {
  int exit_code = 0;
  std::string out;
  std::string err;
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  /// Runs argv (argv[0] looked up on PATH) to completion, capturing its output; a process still
  /// running after `timeout` is killed (exit code -1). Throws SchedulerError when argv[0] is not
  /// found.
  virtual ProcessResult run(const std::vector<std::string>& argv,
                            std::chrono::milliseconds timeout) = 0;
  /// Runs argv to completion in directory `cwd`, with stdin from /dev/null and stdout/stderr
  /// appended to files; returns the exit code. Throws SchedulerError when argv[0] is not found.
  virtual int run_redirected(const std::vector<std::string>& argv, const std::string& cwd,
                             const std::string& stdout_path, const std::string& stderr_path) = 0;
};

/// The real runner (Boost.Process).
class BoostProcessRunner : public ProcessRunner {
 public:
  ProcessResult run(const std::vector<std::string>& argv,
                    std::chrono::milliseconds timeout) override;
  int run_redirected(const std::vector<std::string>& argv, const std::string& cwd,
                     const std::string& stdout_path, const std::string& stderr_path) override;
};

/// True when `command` is found on PATH (without running it).
bool command_exists(const std::string& command);

}  // namespace pbench::process
