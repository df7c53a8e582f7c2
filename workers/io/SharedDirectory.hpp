#pragma once
// The benchmark directory must be one file system seen from every node: rank 0 writes a marker
// into it and every rank reads the marker back (a clear error names the nodes that cannot), then
// an untimed read-back check where every rank writes a stamped chunk with MPI-IO and reads the
// chunk of a rank on another node, so data written on one node is verified on another. The timed
// patterns are not touched. The choices (which rank reads which, the error text) are pure
// functions, unit-tested on recorded host lists.
#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/MpiSession.hpp"
#include "common/NodeLayout.hpp"
#include "common/ResultDocument.hpp"
#include "io/HintSet.hpp"

namespace pbench::io {

/// The rank whose chunk `rank` reads back: the next rank after it (cyclically) on another node;
/// the next rank when every rank shares one node; itself when alone.
int read_back_source(const worker::NodeLayout& layout, int rank);

/// The error when some ranks (`sees[r]` false) cannot read the marker in `directory`: names the
/// nodes and their ranks; nothing when every rank sees it.
std::optional<std::string> visibility_problem(const std::string& directory,
                                              const worker::NodeLayout& layout,
                                              const std::vector<bool>& sees);

struct ReadBackRow {
  int rank = 0;
  std::string host;
  int source = 0;  ///< the rank that wrote the chunk read here
  std::string source_host;
  std::int64_t bytes = 0;
  std::int64_t wrong_bytes = 0;  ///< bytes that differ from what the source wrote
};

struct ReadBackCheck {
  std::vector<ReadBackRow> rows;       ///< one per rank (on rank 0; empty elsewhere)
  std::optional<std::string> failure;  ///< an MPI-IO call that failed (on rank 0)
  /// Ranks whose chunk came from another node.
  int across_nodes() const;
  /// Chunks with wrong bytes.
  int wrong_chunks() const;
  /// The table "read_back_across_nodes", and a validity reason or a warning (rank 0).
  void report(worker::ResultDocument& result) const;
};

/// The expected byte `i` of the chunk written by `rank`.
unsigned char read_back_byte(int rank, std::int64_t i);

/// Collective over the session's world, right after `directory` was made: the marker check
/// (throws worker::UsageError naming the nodes that cannot see the directory, after removing the
/// marker and the empty directory), then the read-back check with `hints`; the check's files are
/// removed again.
ReadBackCheck check_shared_directory(const worker::MpiSession& mpi, const std::string& directory,
                                     const HintList& hints);

/// A run's own new directory for its files, checked.
struct RunDirectory {
  std::string path;  ///< resolved, on every rank
  ReadBackCheck read_back;
};

/// Collective over the session's world, the one set-up of both io suites: rank 0 makes the run's
/// own new directory pbench-io.XXXXXX in `parent` (--dir; empty: the working directory), every
/// rank gets its resolved path (throws worker::UsageError naming --dir when it cannot be made),
/// then check_shared_directory with `hints`. Untimed.
RunDirectory make_run_directory(const worker::MpiSession& mpi, const std::string& parent,
                                const HintList& hints);

}  // namespace pbench::io
