# Integration tests on a Slurm of four nodes that are network hosts of their own
# (tests/slurm-lab/up --nodes 4 --network): MPI between nodes goes over TCP through links of a
# known rate (tc tbf), in a lab of its own (tests/integration/slurm-network/env.sh). The fixture
# starts it before the first test and stops it after the last (unless it was running already).
# Where this machine does not allow network namespaces, bridges or tc, `up` says so and exits
# 77, and every test here is skipped with that message. Labels: slurm-lab;network.

# The workaround for MPICH 4.0.2 + UCX 1.13 hanging in MPI_Finalize over TCP with 3 or more
# ranks, preloaded into the lab's jobs only (tests/slurm-lab/ucx_disconnect_now.c says why).
find_path(PBENCH_UCP_INCLUDE_DIR ucp/api/ucp.h REQUIRED)
add_library(pbench_lab_ucx_disconnect_now MODULE ${CMAKE_CURRENT_SOURCE_DIR}/slurm-lab/ucx_disconnect_now.c)
target_include_directories(pbench_lab_ucx_disconnect_now PRIVATE ${PBENCH_UCP_INCLUDE_DIR})

set(slurm_network_lab_mark ${CMAKE_CURRENT_BINARY_DIR}/slurm-network-lab.started-by-tests)
set(slurm_network_env
  "PBENCH_SLURM_LAB_MARK=${slurm_network_lab_mark}"
  "PBENCH_LAB_PRELOAD=$<TARGET_FILE:pbench_lab_ucx_disconnect_now>")
add_test(NAME "slurm network: lab up"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm-network/lab.sh up)
add_test(NAME "slurm network: lab down"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm-network/lab.sh down)
set_tests_properties("slurm network: lab up" PROPERTIES FIXTURES_SETUP slurm_network_lab
  ENVIRONMENT "${slurm_network_env}" TIMEOUT 300 SKIP_RETURN_CODE 77 LABELS "slurm-lab;network")
set_tests_properties("slurm network: lab down" PROPERTIES FIXTURES_CLEANUP slurm_network_lab
  ENVIRONMENT "${slurm_network_env}" TIMEOUT 120 LABELS "slurm-lab;network")
foreach(script lab_network workers_rate workers_shapes links_weak model_truth)
  add_test(NAME "slurm network: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm-network/${script}.sh)
  set_tests_properties("slurm network: ${script}" PROPERTIES
    FIXTURES_REQUIRED slurm_network_lab RESOURCE_LOCK slurm_network_lab
    ENVIRONMENT "${slurm_network_env};PBENCH=$<TARGET_FILE:pbench>;PBENCH_LOGP=$<TARGET_FILE:pbench-logp>;PBENCH_COMM=$<TARGET_FILE:pbench-comm>;PBENCH_IO=$<TARGET_FILE:pbench-io>;PBENCH_BCAST=$<TARGET_FILE:pbench-bcast>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>"
    TIMEOUT 300 SKIP_RETURN_CODE 77 LABELS "slurm-lab;network")
endforeach()
# links_weak runs the link matrix twice (its reference, then node3's link shaped by
# bench/links_weak_node.sh into the test's store), each about 20 s idle, 40 s on 2 loaded cores.
set_tests_properties("slurm network: links_weak" PROPERTIES TIMEOUT 600)
# model_truth runs two small sweeps at 200 Mbit/s (2x1 of four workers, 2x2 of comm).
set_tests_properties("slurm network: model_truth" PROPERTIES TIMEOUT 600)
