#include "common/WorkerMain.hpp"

#include <iostream>

namespace pbench::worker {

int run_worker(const WorkerSpec& spec, int argc, char** argv) {
  Parameters parameters(spec.name, spec.description);
  spec.declare(parameters);
  std::string output = "-";
  parameters.add("output", output, "path",
                 "Where rank 0 writes the JSON result document; '-' is stdout (the readable "
                 "protocol then goes to stderr)");
  if (auto code = parameters.parse(argc, argv)) return *code;
  if (spec.before_mpi) {
    if (int code = spec.before_mpi(); code >= 0) return code;
  }

  MpiSession mpi(spec.name, argc, argv);
  ResultDocument result(spec.name);
  result.set_parameters(parameters.echo());
  std::ostream& protocol = (output == "-") ? std::cerr : std::cout;
  WorkerContext context{mpi, result, protocol};
  try {
    result.set_environment(mpi);
    spec.body(context);
    result.finish();
    if (mpi.is_root()) result.write(output);
  } catch (const UsageError& e) {
    if (mpi.is_root()) std::cerr << "pbench-" << spec.name << ": error: " << e.what() << "\n";
    return 2;
  } catch (const PartialResult& e) {
    result.finish();
    if (mpi.is_root()) {
      std::cerr << "pbench-" << spec.name << ": error: " << e.what() << "\n";
      try {
        result.write(output);
      } catch (const std::exception& write_error) {
        std::cerr << "pbench-" << spec.name << ": error: " << write_error.what() << "\n";
      }
    }
    return 3;
  } catch (const std::exception& e) {
    mpi.fatal(e.what());
  }
  return 0;
}

}  // namespace pbench::worker
