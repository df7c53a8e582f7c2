# Integration tests of what the workers record about nodes, on this one machine under real
# mpiexec: the host of every rank, logp's pair placement (internode asked on one node), comm's
# node crossings and b_eff per node, bcast's host per OL_i, io's directory check and read-back,
# and memory per process from a Slurm allocation. The multi-node checks are under slurm-nodes.
foreach(script logp_pairs comm_bcast_hosts io_directory memory_source)
  add_test(NAME "worker nodes: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/worker-nodes/${script}.sh)
  set_tests_properties("worker nodes: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH_LOGP=$<TARGET_FILE:pbench-logp>;PBENCH_COMM=$<TARGET_FILE:pbench-comm>;PBENCH_IO=$<TARGET_FILE:pbench-io>;PBENCH_BCAST=$<TARGET_FILE:pbench-bcast>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>"
    SKIP_RETURN_CODE 77
    TIMEOUT 180)
endforeach()
