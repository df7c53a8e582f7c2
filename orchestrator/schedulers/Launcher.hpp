#pragma once
// How a job starts the MPI worker inside its allocation (apart from the scheduler).
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace pbench::schedulers {

/// How a job launches its workers, as a site profile or a sweep gives it: a launcher of the
/// table by name ("mpiexec": MPICH's Hydra or any mpiexec, "mpirun": Open MPI's, "srun" with
/// the PMI plugin `pmi`, "custom": `line` with placeholders), the program to call (empty: the
/// table's, e.g. "mpiexec.hydra", "/usr/bin/mpirun.openmpi"), and arguments added after the
/// table's (e.g. "--bind-to", "core"; "--oversubscribe").
struct LaunchSpec {
  LaunchSpec() = default;
  LaunchSpec(std::string launcher_name) : name(std::move(launcher_name)) {}  // NOLINT: a name
  LaunchSpec(const char* launcher_name) : name(launcher_name) {}             // NOLINT: a name
  bool operator==(const LaunchSpec&) const = default;

  std::string name = "mpiexec";
  std::string program;            ///< empty: the table's program
  std::vector<std::string> args;  ///< after the launcher's own arguments, before the worker
  std::string pmi;                ///< srun's --mpi plugin; empty: pmi2
  /// custom: the launch line, words split at spaces, with {n} (processes), {nodes} and {ppn}
  /// (of a shaped partition or the sweep's --nodes/--procs-per-node, else empty); the worker
  /// and its arguments follow it.
  std::string line;

  /// Only the fields given, so a plain launcher stays the string it always was in a sweep's
  /// JSON ("mpiexec"); the inverse accepts both.
  nlohmann::json to_json() const;
  static LaunchSpec from_json(const nlohmann::json& j);
  /// Checks the name against the table and each field against what the launcher takes;
  /// throws UsageError naming the problem.
  void validate() const;
  /// "mpirun.openmpi -np {n} --oversubscribe": how the launch reads, for messages and status.
  std::string describe() const;
};

/// The launch line of `nprocs` processes (on `nodes` nodes of `procs_per_node` each; 0: the
/// scheduler's choice) of `worker_argv` with launcher `spec`; throws UsageError for an unknown
/// launcher or a malformed custom line.
std::vector<std::string> launch_command(const LaunchSpec& spec, int nprocs, int nodes,
                                        int procs_per_node,
                                        const std::vector<std::string>& worker_argv);
/// The same with a launcher of the table by name and its defaults.
std::vector<std::string> launch_command(const std::string& name, int nprocs,
                                        const std::vector<std::string>& worker_argv);
/// The flags a launch was given beyond the launcher's own (the spec's args), as one line: what
/// a worker records as its launch flags (PBENCH_LAUNCH_FLAGS).
std::string launch_flags(const LaunchSpec& spec);
/// The launchers pbench knows.
std::vector<std::string> launcher_names();

/// The signal ("KILL", "SEGV") that ended an MPI process, as its launcher reports it in the
/// job's output: mpiexec (Hydra) "... EXIT STRING: Killed (signal 9)" on stdout, srun
/// "srun: error: HOST: task 0: Killed" on stderr (the first such line: the others are the
/// launcher cleaning up). Empty when the output names none. A launcher that loses a rank to a
/// signal exits with a status of its own (mpiexec: the signal's number; srun -K: 128 + the
/// signal it sent the other ranks), so only this report says what killed the worker.
std::optional<std::string> launcher_reported_signal(const std::string& output);

}  // namespace pbench::schedulers
