# Integration tests of the orchestrator: real pbench, real mpiexec, real pbench-logp, real
# SQLite files. Each script makes and removes its own scratch directory.
foreach(script local_sweep background_submit bad_input command_line error_paths tables)
  add_test(NAME "orchestrator: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/orchestrator/${script}.sh)
  set_tests_properties("orchestrator: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-logp>"
    TIMEOUT 300)
endforeach()

# A centre's routine: runs of a sweep, reference and check, export (promtool), list/rm.
add_test(NAME "orchestrator: routine"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/orchestrator/routine.sh)
set_tests_properties("orchestrator: routine" PROPERTIES
  ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-bcast>;PBENCH_TEST_DATA=${CMAKE_CURRENT_SOURCE_DIR}/data"
  TIMEOUT 300)
