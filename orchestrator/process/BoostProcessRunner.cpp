// The only translation unit that includes Boost.Process.
#include <boost/asio/io_context.hpp>
#include <boost/process.hpp>

#include <cstdio>
#include <future>

#include "process/ProcessRunner.hpp"
#include "util/Error.hpp"

namespace bp = boost::process;

namespace pbench::process {
namespace {

boost::filesystem::path find_executable(const std::string& command) {
  if (command.find('/') != std::string::npos) return boost::filesystem::path(command);
  auto path = bp::search_path(command);
  if (path.empty()) throw SchedulerError("command '" + command + "' not found on PATH");
  return path;
}

}  // namespace

bool command_exists(const std::string& command) {
  if (command.find('/') != std::string::npos) return boost::filesystem::exists(command);
  return !bp::search_path(command).empty();
}

ProcessResult BoostProcessRunner::run(const std::vector<std::string>& argv,
                                      std::chrono::milliseconds timeout) {
  const auto exe = find_executable(argv.at(0));
  const std::vector<std::string> args(argv.begin() + 1, argv.end());
  boost::asio::io_context io;
  std::future<std::string> out;
  std::future<std::string> err;
  bp::child child(exe, bp::args(args), bp::std_in < bp::null, bp::std_out > out,
                  bp::std_err > err, io);
  io.run_for(timeout);
  ProcessResult result;
  if (!io.stopped()) {
    child.terminate();
    result.exit_code = -1;
    result.err = "timed out after " + std::to_string(timeout.count()) + " ms";
    return result;
  }
  child.wait();
  result.exit_code = child.exit_code();
  result.out = out.get();
  result.err = err.get();
  return result;
}

int BoostProcessRunner::run_redirected(const std::vector<std::string>& argv,
                                       const std::string& cwd, const std::string& stdout_path,
                                       const std::string& stderr_path) {
  const auto exe = find_executable(argv.at(0));
  const std::vector<std::string> args(argv.begin() + 1, argv.end());
  std::FILE* out = std::fopen(stdout_path.c_str(), "a");
  std::FILE* err = std::fopen(stderr_path.c_str(), "a");
  if (!out || !err) {
    if (out) std::fclose(out);
    if (err) std::fclose(err);
    throw SchedulerError("cannot open the job's log files '" + stdout_path + "', '" +
                         stderr_path + "'");
  }
  bp::child child(exe, bp::args(args), bp::start_dir(cwd), bp::std_in < bp::null,
                  bp::std_out > out, bp::std_err > err);
  child.wait();
  std::fclose(out);
  std::fclose(err);
  return child.exit_code();
}

}  // namespace pbench::process
