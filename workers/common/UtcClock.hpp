#pragma once
// The one clock of the timestamps pbench writes: the workers' result documents (started_at,
// ended_at) and the orchestrator's records (submitted, started, ended, ingested). Pure C++ in
// pbench_units, which both link; orchestrator/util/Time.hpp declares the same function for the
// orchestrator's files.
#include <string>

namespace pbench {

/// Current UTC time as "YYYY-MM-DDTHH:MM:SS.mmmZ" (the result contract's format).
std::string utc_now();

}  // namespace pbench
