# Integration tests on a real Slurm of four nodes on this machine (tests/slurm-lab/up --nodes 4),
# in a lab of its own beside the single-node one (tests/integration/slurm-nodes/env.sh): the
# fixture starts it before the first test and stops it after the last (unless it was running
# already). The tests share the lab, so they run one at a time.
set(slurm_nodes_lab_mark ${CMAKE_CURRENT_BINARY_DIR}/slurm-nodes-lab.started-by-tests)
add_test(NAME "slurm nodes: lab up"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm-nodes/lab.sh up)
add_test(NAME "slurm nodes: lab down"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm-nodes/lab.sh down)
set_tests_properties("slurm nodes: lab up" PROPERTIES FIXTURES_SETUP slurm_nodes_lab
  ENVIRONMENT "PBENCH_SLURM_LAB_MARK=${slurm_nodes_lab_mark}" TIMEOUT 600)
set_tests_properties("slurm nodes: lab down" PROPERTIES FIXTURES_CLEANUP slurm_nodes_lab
  ENVIRONMENT "PBENCH_SLURM_LAB_MARK=${slurm_nodes_lab_mark}" TIMEOUT 120)
foreach(script lab_nodes sweep_shapes node_faults)
  add_test(NAME "slurm nodes: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm-nodes/${script}.sh)
  set_tests_properties("slurm nodes: ${script}" PROPERTIES
    FIXTURES_REQUIRED slurm_nodes_lab RESOURCE_LOCK slurm_nodes_lab
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=$<TARGET_FILE_DIR:pbench-logp>"
    TIMEOUT 600)  # a hang's limit: sweep_shapes took 211 s on a fresh clone, over 300 s loaded
endforeach()
