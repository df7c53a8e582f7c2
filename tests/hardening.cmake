# Hardening: hostile input (shell and SQL injection: injection) through the real pbench, with
# real job scripts run by mpiexec; faults: a worker rank killed mid-run, pbench collect killed
# mid-ingest, concurrent collects and queries on one store. Real pbench, real mpiexec, real
# SQLite files. Each script makes and removes its own scratch directory.
foreach(script injection worker_killed collect_killed concurrent_collect)
  add_test(NAME "hardening: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/hardening/${script}.sh)
  set_tests_properties("hardening: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-logp>"
    TIMEOUT 300)
endforeach()
