#pragma once
// Runs job scripts on this machine as background processes in their own session (setsid), so
// they outlive the pbench command that started them. The job id is the script's pid; the exit
// marker the script writes decides how it ended.
#include "schedulers/Scheduler.hpp"

namespace pbench::schedulers {

class LocalScheduler : public Scheduler {
 public:
  explicit LocalScheduler(process::ProcessRunner& runner) : runner_(runner) {}
  std::string name() const override { return "local"; }
  std::string submit(const JobSubmission& job) override;
  std::vector<JobStatus> poll(const std::vector<JobRef>& jobs) override;
  void cancel(const std::vector<JobRef>& jobs) override;

 private:
  process::ProcessRunner& runner_;
};

/// True while process `pid` exists and is not a zombie.
bool process_alive(long pid);

}  // namespace pbench::schedulers
