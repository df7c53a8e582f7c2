# Trust (issue 24): no silent wrong figure, no lost run. Real pbench, real mpiexec, real
# workers, real SQLite files; each test counts the stored results before and after its fault.
foreach(script wrong_launch runs ingest_checks failures physics identity runs_dir_deleted store)
  add_test(NAME "trust: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/trust/${script}.sh)
  set_tests_properties("trust: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-logp>"
    LABELS "orchestrator;trust"
    SKIP_RETURN_CODE 77
    TIMEOUT 300)
endforeach()

# Every worker's own launch check (workers/common/LaunchCheck.hpp), under mpiexec and as
# singletons.
add_test(NAME "trust: worker_launch"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/trust/worker_launch.sh)
set_tests_properties("trust: worker_launch" PROPERTIES
  ENVIRONMENT "PBENCH_LOGP=$<TARGET_FILE:pbench-logp>;PBENCH_COMM=$<TARGET_FILE:pbench-comm>;PBENCH_IO=$<TARGET_FILE:pbench-io>;PBENCH_BCAST=$<TARGET_FILE:pbench-bcast>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>"
  LABELS "trust;logp;comm;io;bcast"
  TIMEOUT 120)
