# Integration tests of the orchestrator: real pbench, real mpiexec, real pbench-logp, real
# SQLite files. Each script makes and removes its own scratch directory.
foreach(script local_sweep background_submit bad_input command_line error_paths tables plan
    plan_budget plan_calibrate
    plan_learns json_outputs failed_point cancel)
  add_test(NAME "orchestrator: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/orchestrator/${script}.sh)
  set_tests_properties("orchestrator: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-logp>;PBENCH_TEST_DATA=${CMAKE_CURRENT_SOURCE_DIR}/data"
    SKIP_RETURN_CODE 77
    TIMEOUT 300)
endforeach()

# A version 3 store (tests/data/stores/store-v3.sql) migrated to version 4: the layout columns.
add_test(NAME "orchestrator: store_v3"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/orchestrator/store_v3.sh)
set_tests_properties("orchestrator: store_v3" PROPERTIES
  ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_TEST_DATA=${CMAKE_CURRENT_SOURCE_DIR}/data"
  TIMEOUT 120)

# A centre's routine: runs of a sweep, reference and check, export (promtool), list/rm.
add_test(NAME "orchestrator: routine"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/orchestrator/routine.sh)
set_tests_properties("orchestrator: routine" PROPERTIES
  ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-bcast>;PBENCH_TEST_DATA=${CMAKE_CURRENT_SOURCE_DIR}/data"
  TIMEOUT 300)

# References from many runs (issue 26): reference --runs with an auto tolerance from the runs'
# spread, check's n and band, history --stats, on real bcast runs with a synthetic spread.
add_test(NAME "orchestrator: reference_runs"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/orchestrator/reference_runs.sh)
set_tests_properties("orchestrator: reference_runs" PROPERTIES
  ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-bcast>"
  TIMEOUT 300)
