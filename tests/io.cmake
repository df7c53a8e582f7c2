# Integration tests of pbench-io: real mpiexec, real MPI-IO files in a scratch directory, short
# schedule times and the minimal M_PART; the result documents go through the C++ validator and
# an independent recomputation in Python (standard library only).
# io_test(NAME SCRIPT [PROPERTY VALUE...]): the test "io: NAME" runs integration/io/SCRIPT.sh with
# pbench, the worker, the validator and the Python recomputation (check_result.py) named in its
# environment, within 300 s; further test properties follow.
function(io_test name script)
  add_test(NAME "io: ${name}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/io/${script}.sh)
  set_tests_properties("io: ${name}" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>;PBENCH_IO=$<TARGET_FILE:pbench-io>;PBENCH_VALIDATE=$<TARGET_FILE:pbench-validate-result>;PBENCH_IO_CHECK=${CMAKE_CURRENT_SOURCE_DIR}/integration/io/check_result.py"
    TIMEOUT 300 ${ARGN})
endfunction()
foreach(script run_and_recompute partitions_batched three_ranks corruption hints out_of_space
    buffer_offset
    bad_input consortium_layout consortium_bad_input consortium_small_files
    consortium_out_of_space consortium_drop_caches consortium_read_check)
  io_test(${script} ${script} SKIP_RETURN_CODE 77)
endforeach()

# T is a bound (issue 14): a test-only delay on type 4's collective writes makes the segmented
# types overrun; the time guard cuts the rows within one call of their share (counted in calls),
# the result says which rows and why and accounts for its time, and the read replays the cut
# counts. Whether a run fits 1.15 T + 3 s on this machine: bench/io_time_bound.sh.
io_test("time guard cuts the overrun of the segmented types" time_guard)

# T is a bound on any host (issue 41): a slow pattern of every type is cut and named, a slow
# deletion shrinks the later shares, a slow time-driven row stops within its share (in calls),
# the time account adds up, --unguarded is rev 2.1's schedule.
# The mechanism only: whether a run fits 1.15 T + 3 s is measured by bench/io_time_bound.sh.
io_test("time plan cuts every type and plans the deletion" time_plan)

# io through the orchestrator: pbench sweep with schedule times and hint sets, run, collect,
# and pbench query io.
io_test("through pbench" through_pbench)

# The consortium suite through the orchestrator: sweep dimensions, bad values refused before
# anything is stored, and pbench query io --suite consortium in every format.
io_test("consortium through pbench" consortium_through_pbench)
