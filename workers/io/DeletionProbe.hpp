#pragma once
// The untimed deletion probe of a guarded b_eff_io run (TimePlan.hpp): before the timed part,
// rank 0 writes a file of kDeletionProbeBytes in the buffer's chunks, syncs it, reads it back,
// closes it and deletes it, timing the write (with the sync), the read and the deletion. The
// deletion gives the file system's cost per byte deleted before the run's own deletions give it
// at scale; the read over the write gives what the plan takes the reads to cost until the run's
// own reads say.
#include <string>

#include "io/IoBuffer.hpp"

namespace pbench::io {

struct DeletionProbe {
  double bytes = 0;          ///< deleted [B]; 0 when the probe failed
  double seconds = 0;        ///< the deletion [s]
  double write_seconds = 0;  ///< writing and syncing it [s]
  double read_seconds = 0;   ///< reading it back [s]
  /// The call that failed ("write to '...' failed: ..."), empty when none did. A failed probe
  /// is said, not fatal: the plan then learns from the run's own rows.
  std::string problem;
};

/// Rank 0 alone: the probe in `directory` (file deletion_probe) with `buffer`'s bytes; every
/// deletion sleeps `delay_per_gb` seconds per GB first (--test-deletion-delay).
DeletionProbe probe_deletion(const std::string& directory, IoBuffer& buffer, double delay_per_gb);

}  // namespace pbench::io
