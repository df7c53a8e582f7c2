#pragma once
#include <optional>
#include <string>
#include <vector>

#include "query/QueryTable.hpp"
#include "query/WhereFilter.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// The headline figures of each sweep (or of one), each with the cell that wins it, from the
/// newest result of each point that matches every `where` clause (a clause matches a point
/// parameter or hint, an echoed worker setting, a metric label, or "partition"):
///   b_eff_io     the maximum over partitions, T and hint sets (rev 2.1's sqrt(WR * R); a
///                result stored before pbench-io followed rev 2.1: its b_eff_io_rev2);
///   b_eff, b_eff_per_process   the maxima over partitions;
///   logp_g, logp_G, logp_bandwidth_at_max_size   per partition shape: the smallest g over
///                the queue depths, G and the flood's bandwidth at its largest size at that depth;
///   logp_EEL, logp_o_s, logp_o_r, logp_L   per partition shape: the smallest EEL, with o_s and
///                o_r (the overlap test at q = 1) and L = EEL - o_s - o_r of the same result;
///   bcast_ol     per partition, the smallest OL at the smallest message size over impls.
/// (The rules are the store's views, schema/store_views.sql; the figures the catalogue's.)
/// A valid result wins over a not valid one, however much better its value. Where no result is
/// valid the best not valid one is shown with valid "no", its worker's first reason in the column
/// `reason`, and a note marking it "(not valid: <first reason>)". Ties (equal values) go to the
/// smaller partition, then the earlier point of the sweep, then the smaller label value (T,
/// queue depth, size) in canonical JSON order. A worker of the sweep without any result shows
/// its figure as missing (an empty value), never as 0. The environment is a key of every figure:
/// a sweep made with --envs has each figure once per environment, in a column env after the
/// sweep (`--where env=NAME` picks one); a table of sweeps without environments has no such
/// column. A clause figure=NAME (or its older spelling) keeps the rows of that figure.
QueryTable system_table(store::Store& store, const std::optional<std::string>& sweep,
                        const std::vector<WhereClause>& where);

}  // namespace pbench::query
