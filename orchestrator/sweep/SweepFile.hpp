#pragma once
// A sweep written as a TOML file (`pbench sweep NAME --spec sweep.toml`), read with toml++ into
// the same SweepSpec the command line makes, and validated the same way:
//
//   workers = ["logp"]
//   partitions = [1, 2, "2x1"]         # P processes, or "NxP": N nodes x P per node
//   queue_depths = [1, 8, 64]
//   launcher = "mpiexec"              # or "srun"
//   schedule_times = [60, 300]        # io (b_eff_io): -T
//   hints = ["romio_cb_write=enable"] # io: --hints, one set per string
//   transfer_sizes = [65536, "1MiB"]  # io consortium suite: --transfer-sizes
//   patterns = ["segmented", "strided"]
//   collective = [true, false]        # io consortium suite: --collective on,off
//   [settings.io]
//   suite = "consortium"              # as --suite consortium
//   [settings.logp]
//   eel_roundtrips = 1000
//   [scheduler]
//   name = "slurm"                    # local, slurm or pbs
//   nodes = 1
//   procs_per_node = 2                # nodes and procs_per_node: plain partitions only
//   share_nodes = true                # as --share-nodes (default: whole nodes per job)
//   time_limit = "10:00"              # as --time-limit
//   account = "proj"
//   queue = "lab"
//   directives = ["--constraint=ib"]
#include <string>
#include <string_view>

#include "sweep/SweepSpec.hpp"

namespace pbench::sweep {

/// Reads the sweep file at `path` into a specification called `name`; throws UsageError naming
/// the file, and the key or line, for anything it cannot read or does not know.
SweepSpec read_sweep_file(const std::string& path, const std::string& name);
/// The same for a sweep file's text; `origin` names it in errors as the path would.
SweepSpec parse_sweep_file(std::string_view text, const std::string& origin,
                           const std::string& name);

}  // namespace pbench::sweep
