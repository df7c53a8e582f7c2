#pragma once
// A sweep's launch checked before any point is submitted (`pbench run`, `pbench submit`): for
// every environment of the sweep (or the sweep's own launch when it has none), the launcher
// program must exist and be executable, and each worker binary of the sweep must exist, be
// executable and answer `--version`. A missing launcher would otherwise be found only when
// every point had failed with exit 127.
//  - A program given with a path ("/usr/bin/mpirun.openmpi", a profile's `program`) must be an
//    executable file there; a bare name ("mpiexec", "srun") must be on PATH, unless the jobs
//    run setup lines first (a profile's `lines`: a module load may put it there).
//  - `--version` runs only where the jobs set up nothing first (no lines, no variables): a
//    worker that needs the setup's library path cannot start without it. Its answer is kept
//    for the process (WorkerAnswers): a driver checking again does not start the worker again.
#include <string>
#include <vector>

#include "process/ProcessRunner.hpp"
#include "sweep/SweepSpec.hpp"

namespace pbench::run {

class LaunchPreflight {
 public:
  /// Every problem of `spec`'s launch, one line each: "environment 'openmpi': launcher program
  /// '/opt/nowhere/mpirun' does not exist"; empty when there is none.
  static std::vector<std::string> problems(const sweep::SweepSpec& spec,
                                           process::ProcessRunner& runner);
  /// Throws UsageError listing problems() when there are any ("... nothing was submitted").
  static void check(const sweep::SweepSpec& spec, process::ProcessRunner& runner);
};

}  // namespace pbench::run
