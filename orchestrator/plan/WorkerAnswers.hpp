#pragma once
// What a worker binary answers about itself (`--describe-parameters`, `--version`), asked once
// per binary per pbench process: planning, the launch check and the cost of a stored sweep
// all ask the same questions, and each asking starts a process (a second or more when the
// machine is loaded). An answer is kept for the binary as it is on disk (its resolved path,
// device, inode, size and modification time) and the exact question (argv after the binary):
// a binary rebuilt or replaced while a long-running driver runs is asked again. Only answers
// with exit code 0 are kept, so a failing or timed-out worker is asked (and named) as before.
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "process/ProcessRunner.hpp"

namespace pbench::run {

class WorkerAnswers {
 public:
  /// The one every command of this process shares.
  static WorkerAnswers& shared();

  /// `argv` (argv[0] the worker binary, a path or a name on PATH) answered: from the kept
  /// answer when this binary, unchanged, was asked the same before; else run through `runner`
  /// (its exceptions pass through) and kept when it exited 0.
  process::ProcessResult ask(process::ProcessRunner& runner, const std::vector<std::string>& argv,
                             std::chrono::milliseconds timeout);

 private:
  /// The binary as it is on disk: resolved path, device, inode, size, mtime (ns); and the
  /// question.
  using Key = std::tuple<std::string, unsigned long long, unsigned long long, long long, long long,
                         std::vector<std::string>>;
  static std::optional<Key> key_of(const std::vector<std::string>& argv);

  std::mutex mutex_;
  std::map<Key, process::ProcessResult> answers_;
};

}  // namespace pbench::run
