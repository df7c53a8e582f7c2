#pragma once
// The node list of a job as its batch system gives it: Slurm's compressed host list
// (SLURM_JOB_NODELIST, "node[1-3,7],login01") and a PBS node file (PBS_NODEFILE: one line per
// task slot, a host repeated once per slot), expanded into host names.
#include <string>
#include <utility>
#include <vector>

namespace pbench {

/// The hosts of a Slurm host list, in its order: "node[1-3,7],gpu[08-09]x" gives node1, node2,
/// node3, node7, gpu08x, gpu09x (zero padding kept, several bracket groups in one name
/// expanded as a product). A plain comma-separated list is a host list too. Throws
/// std::invalid_argument naming the problem for an unbalanced bracket, an empty range or a
/// reversed range.
std::vector<std::string> expand_node_list(const std::string& text);

/// The hosts of a PBS node file with their task slots, in the order of their first line:
/// "n1\nn1\nn2\n" gives {n1, 2}, {n2, 1}. Blank lines and surrounding blanks are ignored; a
/// line with more than one word is refused (std::invalid_argument naming the line).
std::vector<std::pair<std::string, int>> parse_node_file(const std::string& text);

}  // namespace pbench
