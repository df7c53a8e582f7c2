# Integration tests against a real Slurm (and its PBS wrappers) that the project starts on this
# machine (tests/slurm-lab): the fixture starts the lab before the first test and stops it after
# the last (unless it was running already). The tests share the lab, so they run one at a time.
set(slurm_lab_mark ${CMAKE_CURRENT_BINARY_DIR}/slurm-lab.started-by-tests)
add_test(NAME "slurm: lab up" COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm/lab.sh up)
add_test(NAME "slurm: lab down"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm/lab.sh down)
set_tests_properties("slurm: lab up" PROPERTIES FIXTURES_SETUP slurm_lab
  ENVIRONMENT "PBENCH_SLURM_LAB_MARK=${slurm_lab_mark}" TIMEOUT 600)
set_tests_properties("slurm: lab down" PROPERTIES FIXTURES_CLEANUP slurm_lab
  ENVIRONMENT "PBENCH_SLURM_LAB_MARK=${slurm_lab_mark}" TIMEOUT 120)
foreach(script bad_input sweep_sbatch sweep_qsub failing_job cancel retry_failed poll_batching max_queued array time_limits
    pack worker_killed scheduler_outage plan_learns budget)
  add_test(NAME "slurm: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm/${script}.sh)
  set_tests_properties("slurm: ${script}" PROPERTIES
    FIXTURES_REQUIRED slurm_lab RESOURCE_LOCK slurm_lab
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-logp>"
    TIMEOUT 300)
endforeach()
# A lab of its own, killed and started again (so not the shared lab of the tests above).
add_test(NAME "slurm: lab_restart"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm/lab_restart.sh)
set_tests_properties("slurm: lab_restart" PROPERTIES TIMEOUT 300)
