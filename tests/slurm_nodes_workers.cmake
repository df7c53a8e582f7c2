# The workers on the four-node lab of the 'slurm nodes:' tests (tests/slurm_nodes.cmake owns the
# lab fixture): hosts per rank by shape, logp's pairs across nodes, comm's crossings, bcast's
# hosts, io's directory check and read-back from 2 nodes, memory from the job's --mem.
add_test(NAME "slurm nodes: workers"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm-nodes/workers.sh)
set_tests_properties("slurm nodes: workers" PROPERTIES
  FIXTURES_REQUIRED slurm_nodes_lab RESOURCE_LOCK slurm_nodes_lab
  ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_LOGP=$<TARGET_FILE:pbench-logp>;PBENCH_COMM=$<TARGET_FILE:pbench-comm>;PBENCH_IO=$<TARGET_FILE:pbench-io>;PBENCH_BCAST=$<TARGET_FILE:pbench-bcast>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>"
  TIMEOUT 300)

# The synchronized-clock broadcast at 8 and 16 ranks on the lab's four nodes, a known hop delay
# its truth (issue 49).
add_test(NAME "slurm nodes: bcast_sync"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm-nodes/bcast_sync.sh)
set_tests_properties("slurm nodes: bcast_sync" PROPERTIES
  FIXTURES_REQUIRED slurm_nodes_lab RESOURCE_LOCK slurm_nodes_lab
  ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_BCAST=$<TARGET_FILE:pbench-bcast>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>"
  TIMEOUT 600)
