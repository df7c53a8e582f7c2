# Integration tests of the store across files: `pbench store merge` of stores from two
# clusters (real pbench, mpiexec, pbench-bcast, SQLite files), and the comparison across
# clusters in query system, history and the report.
add_test(NAME "store: merge"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/store/merge.sh)
set_tests_properties("store: merge" PROPERTIES
  ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-bcast>"
  LABELS "orchestrator;query;report"
  SKIP_RETURN_CODE 77
  TIMEOUT 300)
