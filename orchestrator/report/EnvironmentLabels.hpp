#pragma once
// How the report's figures name the environment of a series (a sweep made with --envs): the
// environment's name and the MPI library and version its results name, "mpich (MPICH 4.0.2)".
// A sweep without environments has none, and its figures read as they always did.
#include <map>
#include <string>
#include <utility>

#include "store/Store.hpp"

namespace pbench::report {

class EnvironmentLabels {
 public:
  EnvironmentLabels() = default;
  /// environment name -> its label.
  explicit EnvironmentLabels(std::map<std::string, std::string> labels)
      : labels_(std::move(labels)) {}
  /// The environments of `sweep`'s points, each labelled with the libraries and versions its
  /// chosen results name (the document's mpi.library and mpi.version, else the first line of
  /// mpi_library_version; several joined with " / "); an environment without a result is its
  /// name alone.
  static EnvironmentLabels read(store::Store& store, const std::string& sweep);

  /// "" for "" (no environment); the label of a known environment; the name of another.
  std::string label(const std::string& env) const;
  /// A series title with its environment: "q = 8" and "mpich" give "q = 8, mpich (MPICH
  /// 4.0.2)"; `title` itself for "".
  std::string with(const std::string& title, const std::string& env) const;
  /// The position of `env` among the sweep's environments (0 for "" and for an unknown one),
  /// for a colour of its own.
  int index(const std::string& env) const;

 private:
  std::map<std::string, std::string> labels_;
};

}  // namespace pbench::report
