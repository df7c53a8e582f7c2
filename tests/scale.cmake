# The design card's sweep in a smaller form (issue 36): every worker and the link matrix through a
# real Slurm of eight nodes on this machine (tests/slurm-lab/up --nodes 8, a lab of its own:
# tests/integration/scale/env.sh), with Open MPI's workers, which yield the core when they wait
# (MPICH 4.0.2's ch4:ucx busy-polls: 16 ranks on 2 cores crawl). Everything downstream of it is
# checked at that size: status, tables and notes within 160 columns, store, report, export,
# reference and check; then a node killed mid-sweep is named. Label "scale"; scripts/test leaves
# it out of the default run (it takes minutes) and .ci/run runs it after the rest.
set(scale_lab_mark ${CMAKE_CURRENT_BINARY_DIR}/scale-lab.started-by-tests)
add_test(NAME "scale: lab up"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/scale/lab.sh up)
add_test(NAME "scale: lab down"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/scale/lab.sh down)
set_tests_properties("scale: lab up" PROPERTIES FIXTURES_SETUP scale_lab
  ENVIRONMENT "PBENCH_SLURM_LAB_MARK=${scale_lab_mark}" TIMEOUT 600)
set_tests_properties("scale: lab down" PROPERTIES FIXTURES_CLEANUP scale_lab
  ENVIRONMENT "PBENCH_SLURM_LAB_MARK=${scale_lab_mark}" TIMEOUT 120)
foreach(script card_sweep)
  add_test(NAME "scale: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/scale/${script}.sh)
  set_tests_properties("scale: ${script}" PROPERTIES
    FIXTURES_REQUIRED scale_lab RESOURCE_LOCK scale_lab
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_OPENMPI_WORKER_DIR=${CMAKE_BINARY_DIR}/mpi/openmpi"
    TIMEOUT 1200)
endforeach()
foreach(test "scale: lab up" "scale: lab down" "scale: card_sweep")
  set_property(TEST "${test}" APPEND PROPERTY LABELS lab)
endforeach()
