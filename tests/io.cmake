# Integration tests of pbench-io: real mpiexec, real MPI-IO files in a scratch directory, short
# schedule times and the minimal M_PART; the result documents go through the C++ validator and
# an independent recomputation in Python (standard library only).
foreach(script run_and_recompute partitions_batched three_ranks corruption hints out_of_space
    buffer_offset
    bad_input consortium_layout consortium_bad_input consortium_small_files
    consortium_out_of_space consortium_drop_caches consortium_read_check)
  add_test(NAME "io: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/io/${script}.sh)
  set_tests_properties("io: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_IO=$<TARGET_FILE:pbench-io>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>;PBENCH_IO_CHECK=${CMAKE_CURRENT_SOURCE_DIR}/integration/io/check_result.py"
    SKIP_RETURN_CODE 77
    TIMEOUT 300)
endforeach()

# T is a bound (issue 14): a test-only delay on type 4's collective writes makes the segmented
# types overrun; the time guard cuts the rows within one call of their share (counted in calls),
# the result says which rows and why and accounts for its time, and the read replays the cut
# counts. Whether a run fits 1.15 T + 3 s on this machine: bench/io_time_bound.sh.
add_test(NAME "io: time guard cuts the overrun of the segmented types"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/io/time_guard.sh)
set_tests_properties("io: time guard cuts the overrun of the segmented types" PROPERTIES
  ENVIRONMENT "PBENCH_IO=$<TARGET_FILE:pbench-io>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>;PBENCH_IO_CHECK=${CMAKE_CURRENT_SOURCE_DIR}/integration/io/check_result.py"
  TIMEOUT 300)

# T is a bound on any host (issue 41): a slow pattern of every type is cut and named, a slow
# deletion shrinks the later shares, a slow time-driven row stops within its share (in calls),
# the time account adds up, --unguarded is rev 2.1's schedule.
# The mechanism only: whether a run fits 1.15 T + 3 s is measured by bench/io_time_bound.sh.
add_test(NAME "io: time plan cuts every type and plans the deletion"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/io/time_plan.sh)
set_tests_properties("io: time plan cuts every type and plans the deletion" PROPERTIES
  ENVIRONMENT "PBENCH_IO=$<TARGET_FILE:pbench-io>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>;PBENCH_IO_CHECK=${CMAKE_CURRENT_SOURCE_DIR}/integration/io/check_result.py"
  TIMEOUT 300)

# io through the orchestrator: pbench sweep with schedule times and hint sets, run, collect,
# and pbench query io.
add_test(NAME "io: through pbench"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/io/through_pbench.sh)
set_tests_properties("io: through pbench" PROPERTIES
  ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_IO=$<TARGET_FILE:pbench-io>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>;PBENCH_IO_CHECK=${CMAKE_CURRENT_SOURCE_DIR}/integration/io/check_result.py"
  TIMEOUT 300)

# The consortium suite through the orchestrator: sweep dimensions, bad values refused before
# anything is stored, and pbench query io --suite consortium in every format.
add_test(NAME "io: consortium through pbench"
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/io/consortium_through_pbench.sh)
set_tests_properties("io: consortium through pbench" PROPERTIES
  ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_IO=$<TARGET_FILE:pbench-io>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>;PBENCH_IO_CHECK=${CMAKE_CURRENT_SOURCE_DIR}/integration/io/check_result.py"
  TIMEOUT 300)
