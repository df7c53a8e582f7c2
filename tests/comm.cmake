# Integration tests of pbench-comm: real runs under mpiexec on 2 and (tiny) 4 processes, their
# results validated and recomputed from the rows, bad input refused, and a comm sweep through
# pbench run and pbench query comm. Each script makes and removes its own scratch directory.
foreach(script two_processes four_processes bad_input sweep)
  add_test(NAME "comm: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/comm/${script}.sh)
  set_tests_properties("comm: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH_COMM=$<TARGET_FILE:pbench-comm>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>;PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-comm>"
    TIMEOUT 300)
endforeach()
