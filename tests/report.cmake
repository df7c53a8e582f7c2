# Integration tests of pbench report: a real tiny sweep of every worker drawn with gnuplot and
# rendered by headless Chromium, and the refusals. Each script makes and removes its own
# scratch directory.
foreach(script real_sweep bad_input figure_rules)
  add_test(NAME "report: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/report/${script}.sh)
  set_tests_properties("report: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>"
    TIMEOUT 300)
endforeach()

# The report of a sweep over two MPI environments (issue 39): this build's MPICH and Open MPI
# worker sets, each launched by its own MPI's launcher, through the local scheduler.
if("mpich" IN_LIST PBENCH_WORKER_MPIS AND "openmpi" IN_LIST PBENCH_WORKER_MPIS)
  add_test(NAME "report: environments"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/report/environments.sh)
  set_tests_properties("report: environments" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_MPICH_WORKER_DIR=${CMAKE_BINARY_DIR}/mpi/mpich;PBENCH_OPENMPI_WORKER_DIR=${CMAKE_BINARY_DIR}/mpi/openmpi"
    TIMEOUT 600)
endif()
