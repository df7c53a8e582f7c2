#pragma once
// `pbench store merge FROM...`: the sweeps, points, runs, attempts and results of other store
// files brought into one, every row with its origin (the store file it was made in and its
// cluster: the table origins, origin_id). One transaction over every FROM: a merge that fails
// leaves the store as it was; the FROM files are only read. The rules (docs/store.md, "Many
// machines, one store"):
// - a sweep's cluster is its site profile's [machine] cluster; one that states none takes
//   MergeOptions::cluster, by default the FROM file's name without its extension;
// - a sweep whose name the store holds joins it when it is the same sweep (the same
//   specification) of the same cluster: its runs become runs of the stored sweep (a run of the
//   same start is the same run), numbered in the order they started; any other is a clash,
//   refused naming it, or with MergeOptions::rename stored as NAME@CLUSTER;
// - a result whose document (its SHA-256) the store holds is skipped and counted, never stored
//   twice; every other result's document is read back and held to its SHA-256 first.
#include <cstdint>
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace pbench::store {

struct MergeOptions {
  /// A sweep that clashes with a stored one of its name goes in as NAME@CLUSTER.
  bool rename = false;
  /// The cluster of a FROM's sweeps whose site profile named none; empty: the FROM file's
  /// name without its extension.
  std::string cluster;
};

/// What the merge of one FROM did.
struct MergeCounts {
  std::string from;  ///< the FROM file as named
  int sweeps_new = 0;
  int sweeps_joined = 0;
  std::vector<std::string> renamed;  ///< "nightly -> nightly@big"
  std::int64_t points = 0;
  std::int64_t runs = 0;        ///< runs added
  std::int64_t runs_known = 0;  ///< runs the store held already (the same start)
  std::int64_t attempts = 0;
  std::int64_t results = 0;
  std::int64_t results_known = 0;  ///< results whose document the store held: skipped
  std::int64_t metrics = 0;
};

class StoreMerge {
 public:
  StoreMerge(Store& into, MergeOptions options) : into_(into), options_(std::move(options)) {}
  /// Checks every FROM (a pbench store of this version, intact: quick_check of the whole file,
  /// not the store merged into), then merges them in order in one transaction, and answers the
  /// headlines of the runs added. Throws UsageError for a clash or a FROM that is the store
  /// itself, StoreError (StoreDamagedError) for a FROM that is not a readable store of this
  /// version (damaged) or holds a document that is not its SHA-256's; nothing is written then.
  std::vector<MergeCounts> merge(const std::vector<std::string>& from);

 private:
  Store& into_;
  MergeOptions options_;
};

}  // namespace pbench::store
