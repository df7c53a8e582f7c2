# Integration tests of the bcast worker: real mpiexec, real pbench-bcast, its result documents
# checked against the result schema. Each script makes and removes its own scratch directory.
foreach(script bad_input delivery stop_rule hop_delay sync_method sync_truth sync_clocks)
  add_test(NAME "bcast: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/bcast/${script}.sh)
  set_tests_properties("bcast: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH_BCAST=$<TARGET_FILE:pbench-bcast>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>;PBENCH_CLOCK_SKEW_SHIM=$<TARGET_FILE:pbench_clock_skew>"
    TIMEOUT 300)
endforeach()

# The test-only clock of the synchronized-clock tests: preloaded, it makes each rank's
# clock_gettime (MPICH's MPI_Wtime) run offset and drifting (integration/bcast/clock_skew.c).
add_library(pbench_clock_skew MODULE integration/bcast/clock_skew.c)
target_link_libraries(pbench_clock_skew PRIVATE ${CMAKE_DL_LIBS} m)
set_target_properties(pbench_clock_skew PROPERTIES UNITY_BUILD OFF)

# pbench drives the worker end to end (sweep, submit, wait, collect, query, run).
add_test(NAME "bcast: orchestrator_sweep"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/bcast/orchestrator_sweep.sh)
set_tests_properties("bcast: orchestrator_sweep" PROPERTIES
  ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-bcast>"
  TIMEOUT 300)
