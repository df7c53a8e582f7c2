# The bench/ scripts' own behaviour, never their timings (those are printed figures, not tests):
# bench/comm_vs_original.sh refuses bad input with one line, before building or running anything.
add_test(NAME "bench: comm_vs_original_bad_input"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/bench/comm_vs_original_bad_input.sh)
set_tests_properties("bench: comm_vs_original_bad_input" PROPERTIES
  ENVIRONMENT "PBENCH_BUILD_DIR=${CMAKE_BINARY_DIR}" LABELS "comm" TIMEOUT 60)

# The decade-store stage of bench/orchestrator_scale (bench/orchestrator_history.sh) on a small
# real seed: the nights it makes and the commands it times (never the times themselves).
add_test(NAME "bench: orchestrator_history"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/bench/orchestrator_history.sh)
set_tests_properties("bench: orchestrator_history" PROPERTIES
  ENVIRONMENT "PBENCH_BUILD_DIR=${CMAKE_BINARY_DIR}" LABELS "orchestrator;store" TIMEOUT 300)
