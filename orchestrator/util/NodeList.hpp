#pragma once
// The node list of a job as its batch system gives it (Slurm's compressed host list,
// SLURM_JOB_NODELIST, "node[1-3,7],login01"; under PBS the job script writes the hosts of
// PBS_NODEFILE comma-separated, each once, in the file's order), expanded into host names, and
// host names compressed into such a list for printing ("node[01-16]" rather than 16 names).
#include <cstddef>
#include <string>
#include <vector>

namespace pbench {

/// The hosts of a Slurm host list, in its order: "node[1-3,7],gpu[08-09]x" gives node1, node2,
/// node3, node7, gpu08x, gpu09x (zero padding kept, several bracket groups in one name
/// expanded as a product). A plain comma-separated list is a host list too. Throws
/// std::invalid_argument naming the problem for an unbalanced bracket, an empty range or a
/// reversed range.
std::vector<std::string> expand_node_list(const std::string& text);

/// The hosts as one Slurm host list, the inverse of expand_node_list: names that differ only in
/// their last number are written once with the numbers as ascending ranges ("node3", "node1",
/// "node2", "node7" give "node[1-3,7]"), each host once, the groups in the order of their first
/// host, a group of one host without brackets. Zero padding is kept: "n01".."n16" give
/// "n[01-16]"; "n1" and "n01" are different hosts and stay in different groups.
std::string compress_node_list(const std::vector<std::string>& hosts);

/// The same, at most `most` characters long (for a line of a table or note): cut after the
/// last group or range that fits, ending in " and N more" (N hosts left out).
std::string compress_node_list(const std::vector<std::string>& hosts, std::size_t most);

}  // namespace pbench
