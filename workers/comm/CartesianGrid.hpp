#pragma once
// The 2-D and 3-D periodic grids of b_eff's additional Cartesian patterns (METHODS.md section 1,
// "Also measured"), laid out as MPI_Cart_create does: row-major, the last dimension fastest.
#include <functional>
#include <string>
#include <vector>

namespace pbench::comm {

struct CartesianGrid {
  /// A factorisation of nnodes into ndims dimensions, as MPI_Dims_create with all entries free.
  using DimsFunction = std::function<std::vector<int>(int nnodes, int ndims)>;

  std::vector<int> dims;        ///< extent of each dimension, non-increasing
  int members = 0;              ///< product of dims: the processes in the grid
  std::vector<int> world_rank;  ///< grid rank -> rank in MPI_COMM_WORLD

  /// The most balanced factorisation (smallest largest-minus-smallest, then the largest first
  /// extent): what MPI_Dims_create returns (checked against MPICH for 1..1100 processes).
  static std::vector<int> balanced_dims(int nnodes, int ndims);

  /// The grid the original b_eff uses on `size` processes: the largest member count m <= size
  /// whose dims have a last extent > 1, or that is even and < 8, or that is < 4; the ranks
  /// beyond m stay out. Grid rank i is world rank i until set otherwise.
  static CartesianGrid for_size(int size, int ndims, const DimsFunction& dims_of = balanced_dims);

  int ndims() const { return static_cast<int>(dims.size()); }
  /// Coordinates of a grid rank.
  std::vector<int> coords(int grid_rank) const;
  /// The grid rank `displacement` steps from `grid_rank` along `dim`, wrapping around.
  int neighbour(int grid_rank, int dim, int displacement) const;
  /// "3x2".
  std::string shape() const;
};

}  // namespace pbench::comm
