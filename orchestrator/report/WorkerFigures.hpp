#pragma once
// The report's figures of each worker, built from stored results and the workers' query
// tables (pure functions: no gnuplot, no files). A figure whose panels have no points is
// still returned, so the page can say "no data" where it would be. A sweep made with --envs has
// a series per environment in each figure, its title naming the environment with its MPI
// library and version (EnvironmentLabels); without environments the titles read as before.
#include <string>
#include <vector>

#include "query/LinksQuery.hpp"
#include "query/QueryTable.hpp"
#include "report/EnvironmentLabels.hpp"
#include "report/Figure.hpp"
#include "report/StoredResult.hpp"

namespace pbench::report {

/// b_eff_io against the partition size, one curve per T and hint set (the paper's Fig. 2 and
/// 4), from `pbench query io`'s table.
Figure io_partition_figure(const query::QueryTable& io_table, const EnvironmentLabels& envs = {});
/// Bandwidth per pattern type against the chunk size on disk l (pseudo-logarithmic: l+8 just
/// right of l), one panel each for write, rewrite and read (the paper's Fig. 3), for the
/// partition with the largest b_eff_io of each T and hint set (of each environment: its series
/// side by side in the figure); b_eff_io results only.
std::vector<Figure> io_pattern_figures(const std::vector<StoredResult>& io_results,
                                       const EnvironmentLabels& envs = {});
/// The consortium suite's transfer rate against the transfer size, a panel per test and a
/// curve per access pattern (and partition); consortium results only.
Figure consortium_figure(const std::vector<StoredResult>& io_results,
                         const EnvironmentLabels& envs = {});
/// b_eff's bandwidth against the message size for each ring pattern and the log mean of the
/// random patterns (the best method and repetition at each size), a figure per partition (each
/// environment's curves in it). A ring curve is named by its layout (ring_label); patterns with
/// the same layout are one curve.
std::vector<Figure> comm_figures(const std::vector<StoredResult>& comm_results,
                                 const EnvironmentLabels& envs = {});
/// The paper's scaling figure from `pbench query comm`'s table: b_eff against the number of
/// processes beside b_eff per process against it.
Figure comm_scaling_figure(const query::QueryTable& comm_table, const EnvironmentLabels& envs = {});
/// A ring pattern's layout from its ring sizes ("2,2,3"): "rings of 2 (3×2+1)" (3 rings of
/// the first size, and the processes left over), "one ring of 7"; "" when not readable.
std::string ring_label(const std::string& ring_sizes);
/// g against the queue depth, a curve per partition, from `pbench query logp`'s table.
Figure logp_gap_figure(const query::QueryTable& logp_table, const EnvironmentLabels& envs = {});
/// Time per message against the size for each queue depth with the fitted G segments (a
/// protocol switch is a segment of its own), a figure per partition.
std::vector<Figure> logp_size_figures(const std::vector<StoredResult>& logp_results,
                                      const EnvironmentLabels& envs = {});
/// OL and the classic methods against the process count (at the smallest size) and against the
/// message size (at the largest partition), a figure per implementation and hop delay.
std::vector<Figure> bcast_figures(const query::QueryTable& bcast_table,
                                  const EnvironmentLabels& envs = {});

/// The link matrix of each links result as two heatmaps, bandwidth and latency (row: sender,
/// column: receiver), the weak nodes and links named in the caption; a figure per result (a
/// heatmap holds one matrix), its title naming its environment.
std::vector<Figure> links_figures(const std::vector<query::LinkMatrixResult>& matrices,
                                  const EnvironmentLabels& envs = {});

/// The size label of the paper's figures: 1k, 32k, 1M, 1k+8; other sizes in bytes.
std::string size_label(double bytes);
/// The pseudo-logarithmic position of a chunk size: log2(l), and log2(l-8)+0.4 for l = 2^k+8.
double chunk_position(double bytes);
/// `text` reduced to [a-z0-9-] (other characters as '-'), for file names.
std::string file_stem(const std::string& text);

}  // namespace pbench::report
