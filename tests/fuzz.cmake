# Fuzzing: the libFuzzer targets (fuzz/) built by clang into a build directory of their own
# (scripts/fuzz-build; scripts/test builds it before ctest, so this finds it up to date), then
# each target run for 15 seconds on its seed corpus (longer runs: fuzz/run.sh by hand). A crash,
# sanitizer report, leak or hang fails the test.
set(fuzz_build ${CMAKE_BINARY_DIR}/fuzz-build)
add_test(NAME "fuzz: build" COMMAND ${CMAKE_SOURCE_DIR}/scripts/fuzz-build ${fuzz_build})
set_tests_properties("fuzz: build" PROPERTIES FIXTURES_SETUP fuzz_targets TIMEOUT 900)
foreach(concern ingest sweep)
  add_test(NAME "fuzz: ${concern}"
    COMMAND bash ${CMAKE_SOURCE_DIR}/fuzz/run.sh ${fuzz_build} ${concern} 15)
  set_tests_properties("fuzz: ${concern}" PROPERTIES FIXTURES_REQUIRED fuzz_targets TIMEOUT 120)
endforeach()
