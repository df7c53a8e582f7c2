# Trust (issue 24): no silent wrong figure, no lost run. Real pbench, real mpiexec, real
# workers, real SQLite files; each test counts the stored results before and after its fault.
foreach(script wrong_launch runs ingest_checks failures physics identity runs_dir_deleted store
    store_bounded runs_agree own_rules runs_full launch_preflight machine_peaks)
  add_test(NAME "trust: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/trust/${script}.sh)
  set_tests_properties("trust: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-logp>"
    LABELS "orchestrator;trust"
    SKIP_RETURN_CODE 77
    TIMEOUT 300)
endforeach()

# Every worker's own launch check (workers/common/LaunchCheck.hpp), under mpiexec and as
# singletons; and every worker's oversubscription check (workers/common/NodeCores.hpp).
foreach(script worker_launch oversubscribed worker_cost)
  add_test(NAME "trust: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/trust/${script}.sh)
  set_tests_properties("trust: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH_LOGP=$<TARGET_FILE:pbench-logp>;PBENCH_COMM=$<TARGET_FILE:pbench-comm>;PBENCH_IO=$<TARGET_FILE:pbench-io>;PBENCH_BCAST=$<TARGET_FILE:pbench-bcast>;PBENCH_LINKS=$<TARGET_FILE:pbench-links>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>"
    LABELS "trust;logp;comm;io;bcast;links"
    TIMEOUT 300)
endforeach()
