#pragma once
// A ProcessRunner for unit tests: records every argv and answers with replies queued by the
// test (recorded output of the real scheduler commands).
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "process/ProcessRunner.hpp"

namespace pbench::testing {

class RecordingRunner : public process::ProcessRunner {
 public:
  /// Queues the reply to the next run().
  void reply(int exit_code, std::string out, std::string err = "") {
    replies_.push_back({exit_code, std::move(out), std::move(err)});
  }
  process::ProcessResult run(const std::vector<std::string>& argv,
                             std::chrono::milliseconds) override {
    commands.push_back(argv);
    if (replies_.empty()) throw std::logic_error("RecordingRunner: no reply queued for " + argv[0]);
    auto r = replies_.front();
    replies_.pop_front();
    return r;
  }
  int run_redirected(const std::vector<std::string>& argv, const std::string&, const std::string&,
                     const std::string&) override {
    commands.push_back(argv);
    return 0;
  }

  std::vector<std::vector<std::string>> commands;

 private:
  std::deque<process::ProcessResult> replies_;
};

}  // namespace pbench::testing
