# The MPI library as a choice (issue 28, cmake/PbenchMpi.cmake): each worker set's results name
# their library, MPI-IO layer and launch flags, and the workers' integration tests that matter
# most run again on every further set (Open MPI beside MPICH), each set launched by its own
# launcher (the property PBENCH_MPI_SET puts build/mpi/<set>/launch first on PATH).
set(pbench_mpi_library_name_mpich "MPICH")
set(pbench_mpi_library_name_openmpi "Open MPI")
foreach(mpi IN LISTS PBENCH_WORKER_MPIS)
  pbench_set_suffix(${mpi} sfx)
  set(set_env
    "PBENCH_LOGP=$<TARGET_FILE:pbench-logp${sfx}>;PBENCH_COMM=$<TARGET_FILE:pbench-comm${sfx}>;PBENCH_IO=$<TARGET_FILE:pbench-io${sfx}>;PBENCH_BCAST=$<TARGET_FILE:pbench-bcast${sfx}>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>;PBENCH=$<TARGET_FILE:pbench>;PBENCH_WORKER_DIR=${CMAKE_BINARY_DIR}/mpi/${mpi};PBENCH_IO_CHECK=${CMAKE_CURRENT_SOURCE_DIR}/integration/io/check_result.py")
  add_test(NAME "mpi: ${mpi}: library"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/mpi/library.sh)
  set_tests_properties("mpi: ${mpi}: library" PROPERTIES
    ENVIRONMENT "${set_env};PBENCH_EXPECT_MPI=${pbench_mpi_library_name_${mpi}}"
    PBENCH_MPI_SET ${mpi} LABELS "mpi;${mpi};logp;comm;io;bcast;links" TIMEOUT 300)
  if(sfx STREQUAL "")
    continue()
  endif()
  # The main set's integration tests that run again on this set, chosen to keep ctest short
  # (about a minute in all): every worker stopping at a deadline (collectives decided by rank 0),
  # one small run of each worker, and logp through pbench.
  foreach(twin
      "deadline: workers|deadline/workers.sh|logp;comm;io;bcast"
      "comm: two_processes|comm/two_processes.sh|comm"
      "io: three_ranks|io/three_ranks.sh|io"
      "bcast: delivery|bcast/delivery.sh|bcast"
      "worker nodes: logp_pairs|worker-nodes/logp_pairs.sh|logp"
      "orchestrator: local_sweep|orchestrator/local_sweep.sh|orchestrator;logp")
    string(REPLACE "|" ";" parts "${twin}")
    list(GET parts 0 name)
    list(GET parts 1 script)
    list(SUBLIST parts 2 -1 labels)
    add_test(NAME "${mpi}: ${name}"
      COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/${script})
    set_tests_properties("${mpi}: ${name}" PROPERTIES ENVIRONMENT "${set_env}"
      PBENCH_MPI_SET ${mpi} LABELS "${mpi};${labels}" SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
endforeach()

# On the Slurm lab (slurm.cmake owns its fixture): one sweep over the four workers with --envs
# mpich,openmpi from a site profile, each environment with its own launcher, through sbatch.
if("mpich" IN_LIST PBENCH_WORKER_MPIS AND "openmpi" IN_LIST PBENCH_WORKER_MPIS)
  add_test(NAME "slurm: envs" COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/slurm/envs.sh)
  set_tests_properties("slurm: envs" PROPERTIES
    FIXTURES_REQUIRED slurm_lab RESOURCE_LOCK slurm_lab
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_MPICH_WORKER_DIR=${CMAKE_BINARY_DIR}/mpi/mpich;PBENCH_OPENMPI_WORKER_DIR=${CMAKE_BINARY_DIR}/mpi/openmpi"
    LABELS "slurm-lab;mpi;openmpi;logp;comm;io;bcast;orchestrator" TIMEOUT 600)
  # The gate per environment (issue 39): a bcast sweep over both sets with the local scheduler,
  # one environment made to regress by a synthetic hop delay, another run a changed
  # definition. It compares measured figures: alone on the machine, labelled measures.
  add_test(NAME "orchestrator: envs_gate"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/orchestrator/envs_gate.sh)
  set_tests_properties("orchestrator: envs_gate" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_MPICH_WORKER_DIR=${CMAKE_BINARY_DIR}/mpi/mpich;PBENCH_OPENMPI_WORKER_DIR=${CMAKE_BINARY_DIR}/mpi/openmpi"
    LABELS "mpi;openmpi;bcast;orchestrator;measures" RUN_SERIAL TRUE TIMEOUT 600)
  # The rest of issue 39: links and io per environment in query system, history, reference and
  # check; history's --envs, reference's and check's --where. Its one regression is made in the
  # reference file (a thousandfold), so it does not depend on what the machine measures.
  add_test(NAME "orchestrator: envs_select"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/orchestrator/envs_select.sh)
  set_tests_properties("orchestrator: envs_select" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_MPICH_WORKER_DIR=${CMAKE_BINARY_DIR}/mpi/mpich;PBENCH_OPENMPI_WORKER_DIR=${CMAKE_BINARY_DIR}/mpi/openmpi"
    LABELS "mpi;openmpi;links;io;orchestrator" TIMEOUT 600)
endif()
