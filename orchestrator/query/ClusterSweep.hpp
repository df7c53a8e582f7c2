#pragma once
// `--by cluster` (query system, history, the report): the same sweep compared across clusters.
// The same sweep on several clusters is the stored sweeps of one base name (a sweep's name in
// the store it was made in: `pbench store merge` keeps NAME of a sweep it renamed
// NAME@CLUSTER), each of its own cluster (its site profile's [machine] cluster; 'unnamed' when
// none was stated). docs/store.md, "Many machines, one store".
#include <optional>
#include <string>
#include <vector>

#include "query/QueryTable.hpp"
#include "query/WhereFilter.hpp"
#include "store/Store.hpp"

namespace pbench::query {

struct ClusterSweep {
  std::string sweep;    ///< its name in this store
  std::string cluster;  ///< its cluster ('unnamed' when its profile named none)
};

/// The sweeps that are `sweep` on every cluster (the one named and every other of its base
/// name), in the order they were stored; every stored sweep (each of its own cluster) when no
/// sweep is named. Throws UsageError for an unknown sweep.
std::vector<ClusterSweep> cluster_sweeps(store::Store& store,
                                         const std::optional<std::string>& sweep);

/// The tables of several clusters as one: a column `cluster` after the column `after` (first
/// when empty), each
/// row of `tables[i]` marked with `sweeps[i]`'s cluster; with `interleave`, the rows of the same
/// figure (figure, env, partition) of every cluster next to each other, in the order the
/// figures first appear. The notes of all, each once.
QueryTable by_cluster(const std::vector<ClusterSweep>& sweeps, std::vector<QueryTable> tables,
                      const std::string& after, bool interleave);

/// `--by KEY` of query system and history: "cluster" (true) or nothing (false); throws
/// UsageError for any other key.
bool parse_by_cluster(const std::string& by);

}  // namespace pbench::query
