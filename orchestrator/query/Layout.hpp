#pragma once
// The layout columns of the tables of results: "nodes" and "ppn" (processes per node) beside the
// partition, so that 4x1 and 2x2 stand apart and `--where nodes=4`, `--where ppn=1` and
// `--by nodes|ppn` work. A result shows where its ranks ran (store schema version 4); a point
// without a result shows the shape it asked for. A placement that differs from the shape asked
// for makes the result not valid, with the reason "placement: ..." first among its reasons.
#include <optional>
#include <string>

#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// Three SQL result columns: nodes and processes per node of result `r` of point `p` (the
/// point's asked shape where the result has none), and the shape point `p` asked for as "NxP"
/// (NULL for a plain partition).
inline constexpr const char* kLayoutSql =
    "coalesce(r.nodes, p.nodes), coalesce(r.procs_per_node, p.procs_per_node), "
    "CASE WHEN p.nodes IS NULL THEN NULL ELSE p.nodes || 'x' || p.procs_per_node END";

/// The columns "nodes" and "ppn".
QueryColumn nodes_column();
QueryColumn ppn_column();

/// A nullable integer column as a cell (empty when NULL).
Cell optional_int_cell(store::Statement& s, int column);
/// A layout count as a cell: empty for 0 (unknown).
Cell count_cell(std::int64_t count);
/// "4 (2x2)" for a partition that asked for a shape, "4" otherwise (counts of 0: no shape).
std::string partition_text(std::int64_t partition, std::int64_t nodes, std::int64_t ppn);
/// The same with the asked shape as kLayoutSql's third column gives it ("" or "2x2").
std::string partition_text(std::int64_t partition, const std::string& asked);

/// How a note names a point: "sweep S, partition 4 (2x2)", then the point's own dimensions from
/// its parameters (", q 8", ", T 60, hints cb_nodes=1", the consortium suite's pattern,
/// transfer size and collective) and its environment (", environment mpich"), so that the
/// notes of two points never read the same.
/// `partition` is partition_text()'s.
std::string note_where(const std::string& sweep, const std::string& partition,
                       const std::string& params_json);

/// One note per chosen result of `worker` (in `sweep`, or every sweep) whose placement differs
/// from the shape its point asked for: "sweep S, partition 4 (2x2): not valid: placement: ..."
/// (named by note_where),
/// and one per result with a figure ingest holds impossible ("...: not valid: physically
/// impossible: g = -1 us is not positive").
void add_placement_notes(store::Store& store, const std::string& worker,
                         const std::optional<std::string>& sweep, QueryTable& table);

}  // namespace pbench::query
