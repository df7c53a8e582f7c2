#pragma once
#include <string>

namespace pbench {

/// The worker's own last error line in a job's stderr: the last line "pbench-WORKER: error: ..."
/// (what every worker prints before it exits with an error); "" when there is none.
std::string worker_error_line(const std::string& stderr_text);

/// The line of a failed job's stderr tail that says why it failed. When the worker said why
/// (worker_error_line), its line comes first and the launcher's report after it, "pbench-logp:
/// error: Could not convert: ...; launcher: srun: error: vm: tasks 0-1: Exited with exit code 2"
/// (the last line after the worker's that mentions an error, when there is one). Otherwise the
/// last line that mentions an error, else the last non-empty line that is not a "Run with
/// --help" hint; "" when there is none. Trailing blanks and carriage returns are cut.
std::string telling_line(const std::string& stderr_tail);

}  // namespace pbench
