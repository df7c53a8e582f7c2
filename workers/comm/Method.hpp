#pragma once
// The three ways b_eff moves the messages of a pattern (METHODS.md section 1, "Methods").
#include <optional>
#include <string>
#include <vector>

namespace pbench::comm {

enum class Method {
  kSendrecv,     ///< MPI_Sendrecv per step (MPI_Send or MPI_Recv where a step only sends or receives)
  kAlltoallv,    ///< one MPI_Alltoallv per iteration, zero counts for non-neighbours
  kNonblocking,  ///< MPI_Irecv + MPI_Isend per step, one MPI_Waitall per iteration
};

/// The name used in options and result rows: "sendrecv", "alltoallv", "nonblocking".
std::string method_name(Method method);
/// The name the protocol prints: "Sendrecv", "Alltoallv", "Irecv/Isend/Waitall".
std::string method_title(Method method);
/// The method called `name`, or nothing for an unknown name.
std::optional<Method> method_from_name(const std::string& name);
/// All three methods in the original's order.
const std::vector<Method>& all_methods();

}  // namespace pbench::comm
