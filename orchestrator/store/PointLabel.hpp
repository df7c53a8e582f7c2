#pragma once
// How tables, notes and messages name a point: one rule for `status`, `collect`, `check` and
// the worker tables.
#include <string>

namespace pbench::store {

/// A point's parameters in a few short keys, "q=8", "T=3 hints=-", "2x2 xfer=1048576
/// pattern=segmented coll=off env=mpich" (the --set settings, the same for every point of a
/// sweep, are left out); "-" when the point has none. For the aligned tables; JSON keeps the
/// parameters.
std::string short_parameters(const std::string& params_json);

/// "logp p=2 q=8 [3f2a...]", "io p=4 (2x2) T=60 hints=- env=mpich [...]": the worker, the
/// partition, its shape and the point's other short keys, and its key.
std::string point_label(const std::string& worker, long long partition,
                        const std::string& params_json, const std::string& key);

}  // namespace pbench::store
