#pragma once
// The node list of a job as its batch system gives it (Slurm's compressed host list,
// SLURM_JOB_NODELIST, "node[1-3,7],login01"; under PBS the job script writes the hosts of
// PBS_NODEFILE comma-separated, each once, in the file's order), expanded into host names.
#include <string>
#include <vector>

namespace pbench {

/// The hosts of a Slurm host list, in its order: "node[1-3,7],gpu[08-09]x" gives node1, node2,
/// node3, node7, gpu08x, gpu09x (zero padding kept, several bracket groups in one name
/// expanded as a product). A plain comma-separated list is a host list too. Throws
/// std::invalid_argument naming the problem for an unbalanced bracket, an empty range or a
/// reversed range.
std::vector<std::string> expand_node_list(const std::string& text);

}  // namespace pbench
