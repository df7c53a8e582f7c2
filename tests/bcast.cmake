# Integration tests of the bcast worker: real mpiexec, real pbench-bcast, its result documents
# checked against the result schema. Each script makes and removes its own scratch directory.
foreach(script bad_input delivery stop_rule hop_delay)
  add_test(NAME "bcast: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/bcast/${script}.sh)
  set_tests_properties("bcast: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH_BCAST=$<TARGET_FILE:pbench-bcast>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>"
    TIMEOUT 300)
endforeach()

# pbench drives the worker end to end (sweep, submit, wait, collect, query, run).
add_test(NAME "bcast: orchestrator_sweep"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/bcast/orchestrator_sweep.sh)
set_tests_properties("bcast: orchestrator_sweep" PROPERTIES
  ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-bcast>"
  TIMEOUT 300)
