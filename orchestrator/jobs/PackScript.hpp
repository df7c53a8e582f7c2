#pragma once
// Packing: how a sweep's points become batch jobs (one per point, one per partition size, or
// one for the whole sweep), and the job script of a packed job, which runs each point's own job
// script as a step in the point's attempt directory (so every point still writes its own exit
// marker, result and logs).
#include <string>
#include <vector>

namespace pbench::run {

enum class PackMode { point, partition, sweep };
/// "point", "partition" or "sweep"; throws UsageError otherwise.
PackMode pack_mode_from(const std::string& name);
std::string to_string(PackMode mode);

struct PackStep {
  std::string point_key;
  std::string script_path;  ///< the point's own rendered job script
  std::string job_dir;      ///< the point's attempt directory (its exit marker, result, logs)
};

/// The script of a packed job: `directives` (for the largest partition of the steps), the
/// scheduler's `start` lines (JobScriptParts::start: under PBS, into the directory qsub ran in,
/// where the job's own exit marker belongs), then each step in order, `bash SCRIPT >stdout.log
/// 2>stderr.log` in its attempt directory. A step that ends without writing its exit marker gets
/// one written for it; a failing step does not stop the others. A TERM (cancel, time limit) stops
/// the job; steps not yet started keep no marker. The job's own exit marker (exit.json in its
/// directory) has status 1 when a step failed.
std::string render_pack_script(const std::vector<std::string>& directives,
                               const std::vector<std::string>& start, const std::string& sweep,
                               const std::vector<PackStep>& steps);

}  // namespace pbench::run
