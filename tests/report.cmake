# Integration tests of pbench report: a real tiny sweep of every worker drawn with gnuplot and
# rendered by headless Chromium, and the refusals. Each script makes and removes its own
# scratch directory.
foreach(script real_sweep bad_input)
  add_test(NAME "report: ${script}"
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/integration/report/${script}.sh)
  set_tests_properties("report: ${script}" PROPERTIES
    ENVIRONMENT "PBENCH=$<TARGET_FILE:pbench>"
    TIMEOUT 300)
endforeach()
