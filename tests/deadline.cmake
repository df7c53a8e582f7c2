# No result lost to a time limit (issue 14, item 2): every worker under real mpiexec stops
# before its deadline with a partial result, and refuses a bad deadline. The Slurm-lab tests
# (sbatch and qsub) are in slurm.cmake.
foreach(script workers bad_input)
  add_test(NAME "deadline: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/deadline/${script}.sh)
  set_tests_properties("deadline: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH_LOGP=$<TARGET_FILE:pbench-logp>;PBENCH_COMM=$<TARGET_FILE:pbench-comm>;PBENCH_IO=$<TARGET_FILE:pbench-io>;PBENCH_BCAST=$<TARGET_FILE:pbench-bcast>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>"
    TIMEOUT 180)
endforeach()
